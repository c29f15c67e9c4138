"""A long lock's holder file, `<name>.holder.json` (docs/formats.md §14.1): written by the
holder, read by whoever finds the lock taken — leniently, since a crash may leave any
bytes behind: the holder is unknown (None) rather than a crash."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from memtab.fs.locking.locks import OwnedLock


@pytest.fixture
def lock(tmp_path: Path) -> OwnedLock:
    return OwnedLock(tmp_path / "long.lock")


def test_the_holder_writes_who_it_is_and_its_details_in_order(lock: OwnedLock) -> None:
    lock.acquire(1, role="recorder", workspaceId="ws1")
    try:
        written = json.loads(lock.holder_path.read_text(encoding="utf-8"))
        assert list(written) == ["pid", "host", "since", "role", "workspaceId"]
        assert (written["pid"], written["host"]) == (os.getpid(), socket.gethostname())
        holder = lock.holder()
        assert holder is not None and holder.since_ms == written["since"] > 0
        assert holder.details == {"role": "recorder", "workspaceId": "ws1"}
    finally:
        lock.release()
    assert not lock.holder_path.exists()


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"pid": 12, "host": "laptop", "since": 5}, (12, "laptop", 5, {})),
        ({"pid": "12", "host": "laptop"}, (12, "laptop", 0, {})),
        ({"pid": 12.9, "host": 7, "since": "40"}, (12, "7", 40, {})),
        ({"pid": True, "host": None, "since": 1.5}, (1, "None", 1, {})),
        ({"pid": 3, "host": "h", "role": "w", "n": [1]}, (3, "h", 0, {"role": "w", "n": [1]})),
    ],
)  # fmt: skip
def test_a_holder_file_reads_leniently(
    lock: OwnedLock, document: dict[str, object], expected: tuple[object, ...]
) -> None:
    lock.holder_path.write_text(json.dumps(document), encoding="utf-8")
    holder = lock.holder()
    assert holder is not None
    assert (holder.pid, holder.host, holder.since_ms, holder.details) == expected
    assert holder.describe() == f"pid {expected[0]} on {expected[1]}"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\xff not json",
        "[1, 2]",
        '"holder"',
        "{}",
        '{"pid": "x", "host": "h"}',
        '{"pid": 1}',
        '{"host": "h"}',
        '{"pid": null, "host": "h"}',
        '{"pid": [1], "host": "h"}',
        '{"pid": 1, "host": "h", "since": null}',
        '{"pid": 1, "host": "h", "since": "soon"}',
        '{"pid": Infinity, "host": "h"}',
        '{"pid": 1, "host": "h", "since": NaN}',
        '{"pid": 1e400, "host": "h"}',
    ],
)
def test_a_holder_file_that_names_no_holder_is_an_unknown_one(lock: OwnedLock, text: str) -> None:
    lock.holder_path.write_text(text, encoding="utf-8", errors="surrogateescape")
    assert lock.holder() is None


def test_a_missing_holder_file_is_an_unknown_holder(lock: OwnedLock) -> None:
    assert lock.holder() is None
