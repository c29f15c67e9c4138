"""What the window will rely on: progress lines, cancelling, one sync at a time."""

from __future__ import annotations

import threading

from memtab.fs.locking.locks import interprocess_lock
from memtab.store.scopes.tool import MemoryTool
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


def test_progress_is_reported_in_words(alpha: Machine, beta: Machine) -> None:
    alpha.write(NOTES, "a\n")
    lines: list[str] = []
    alpha.service.sync(progress=lines.append)
    assert lines[0] == "Recording this machine's changes"
    assert any(line.startswith("Pushing") for line in lines)
    beta.write("/memories/global/other.md", "b\n")
    lines.clear()
    beta.service.sync(progress=lines.append)  # its push refused: the remote moved
    steps = [line.split()[0] for line in lines if not line.startswith("Record")]
    assert steps == ["Pushing", "Fetching", "Merging", "Bringing", "Pushing"]


def test_a_cancelled_sync_keeps_what_it_committed(alpha: Machine, beta: Machine) -> None:
    alpha.write(NOTES, "a\n")
    pushing = threading.Event()  # cancelled once the push begins (a window closing)

    def progress(line: str) -> None:
        if line.startswith("Pushing"):
            pushing.set()

    report = alpha.service.sync(progress=progress, cancel=pushing.is_set)
    assert report.targets[0].status == "cancelled"
    assert alpha.service.status().targets[0].ahead >= 1  # the commit waits for the next sync
    alpha.sync()
    beta.sync()
    assert beta.text(NOTES) == "a\n"


def test_one_sync_of_a_target_at_a_time(alpha: Machine) -> None:
    with interprocess_lock(alpha.service.paths.lock("memory")):
        report = alpha.service.sync(wait_s=0)
    assert report.targets[0].status == "failed"
    assert "Another sync" in (report.targets[0].error or "")


def test_tool_edits_without_a_final_newline_merge(alpha: Machine, beta: Machine) -> None:
    alpha_tool, beta_tool = MemoryTool(alpha.store), MemoryTool(beta.store)
    alpha_tool.execute({"command": "create", "path": NOTES, "file_text": "- one\n- two"})
    alpha.sync()
    beta.sync()
    alpha_tool.execute({"command": "insert", "path": NOTES, "insert_line": 2, "insert_text": "- A"})
    beta_tool.execute({"command": "insert", "path": NOTES, "insert_line": 2, "insert_text": "- B"})
    alpha.sync()
    report = beta.sync()
    alpha.sync()
    assert report.conflicts == []
    assert alpha.text(NOTES) == beta.text(NOTES) == "- one\n- two\n- A\n- B"
