"""`sync resolve --merged FILE` and `conflicts resolve --merged FILE` read a merged text:
a regular file of at most a memory file's cap, or standard input — never a device or a
FIFO (`/dev/zero` grew to 22.5 GB; a FIFO hung), docs/formats.md §16.1."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.files import MAX_FILE_BYTES

NOTES = "/memories/global/notes.md"
COMMANDS = (["sync", "resolve", NOTES], ["conflicts", "resolve", NOTES])


def _resolve(
    home: Path, command: list[str], merged: str, capsys: pytest.CaptureFixture[str]
) -> str:
    home.mkdir(exist_ok=True)
    assert main(["--home", str(home), *command, "--merged", merged]) == 1
    return capsys.readouterr().err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_or_a_fifo_is_refused_at_once(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    err = _resolve(tmp_path / "home", command, "/dev/zero", capsys)
    assert err == "memtab: Cannot read /dev/zero: it is a device, not a regular file\n"
    fifo = tmp_path / "merged.fifo"
    os.mkfifo(fifo)
    err = _resolve(tmp_path / "home", command, str(fifo), capsys)
    assert "it is a FIFO (named pipe), not a regular file" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_merged_text_over_a_memory_files_cap_is_refused(
    tmp_path: Path,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = tmp_path / "merged.md"
    big.write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    err = _resolve(tmp_path / "home", command, str(big), capsys)
    assert err == f"memtab: Cannot read {big}: it holds more than 100 KiB (102,400 bytes)\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"y" * (MAX_FILE_BYTES + 1))))
    err = _resolve(tmp_path / "home", command, "-", capsys)
    assert err == "memtab: Cannot read -: it holds more than 100 KiB (102,400 bytes)\n"
