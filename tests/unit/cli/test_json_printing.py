"""`print_json`: indented for a person at a terminal, compact for a program reading a pipe —
the same keys and values either way (the `--json` contract is those, not the whitespace)."""

from __future__ import annotations

import io
import json

import pytest

from memtab.cli.common import print_json, print_json_bytes
from memtab.fs.atomic import compact_json

VALUE = {"groups": [{"path": "/memories/global/é.md", "line": 3}], "files_read": 2, "ok": True}


class _Stdout(io.TextIOWrapper):
    def __init__(self, *, terminal: bool) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal

    def printed(self) -> str:
        self.flush()
        written = self.buffer
        assert isinstance(written, io.BytesIO)
        return written.getvalue().decode("utf-8")


def _printed(monkeypatch: pytest.MonkeyPatch, *, terminal: bool) -> str:
    out = _Stdout(terminal=terminal)
    monkeypatch.setattr("sys.stdout", out)
    print_json(VALUE)
    return out.printed()


def test_a_pipe_gets_one_compact_line(monkeypatch: pytest.MonkeyPatch) -> None:
    printed = _printed(monkeypatch, terminal=False)
    assert printed == json.dumps(VALUE, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert json.loads(printed) == VALUE


def test_a_terminal_gets_it_indented(monkeypatch: pytest.MonkeyPatch) -> None:
    printed = _printed(monkeypatch, terminal=True)
    assert printed == json.dumps(VALUE, ensure_ascii=False, indent=2) + "\n"
    assert json.loads(printed) == VALUE


@pytest.mark.parametrize("terminal", [False, True])
def test_kept_bytes_are_printed_as_the_value_they_hold(
    monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    """A kept report's JSON (`compact_json`) printed again is what printing its value prints:
    the bytes themselves to a pipe, indented to a terminal."""
    out = _Stdout(terminal=terminal)
    monkeypatch.setattr("sys.stdout", out)
    print_json_bytes(compact_json(VALUE))
    assert out.printed() == _printed(monkeypatch, terminal=terminal)
