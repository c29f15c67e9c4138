"""What a machine joining waits for on disk (issue 54: joining ≤ 1.5× `git clone`): each
durable write of its own is a flush it waits for, so a join writes its state once — not
after an export that sent nothing, nor again after its import saved the same state — and
flushes the file system once for the files it brings and their copies in history."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.fs import atomic
from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.sync.state import load_state
from support.sync_machines import Machine

G = "/memories/global"


def test_a_machine_joining_writes_its_state_once(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(3):
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    written: list[str] = []
    replace = Directory.replace

    def counted(self: Directory, name: str, data: bytes, **kwargs: Any) -> None:
        written.append(name)
        replace(self, name, data, **kwargs)

    monkeypatch.setattr(Directory, "replace", counted)
    report = beta.sync()
    monkeypatch.undo()

    assert report.targets[0].pulled == tuple(f"{G}/n{number}.md" for number in range(3))
    assert written.count("state.json") == 1
    state = load_state(beta.sync_dir / "state.json")
    assert state.head is not None and state.last_sync_at is not None
    assert state.last_attempt_at is not None and state.last_attempt_at <= state.last_sync_at


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="each file is fsynced where a flush is not")
def test_a_machine_joining_flushes_the_file_system_once(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(20):  # more than a batch fsyncs one by one
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    beta.write(f"{G}/mine.md", "mine\n")  # history's folders made before the join
    flushes: list[int] = []
    syncfs = atomic._syncfs

    def counted(fd: int) -> int:
        flushes.append(fd)
        return syncfs(fd)

    monkeypatch.setattr(atomic, "_syncfs", counted)
    beta.sync()
    monkeypatch.undo()

    assert len(beta.files()) == 21
    assert len(flushes) == 1
