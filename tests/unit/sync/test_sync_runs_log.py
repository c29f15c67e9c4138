"""What a sync brought in is a run of its own in the runs log (kind `sync`), each file an
op with the versions history recorded, described like any run's ops."""

from __future__ import annotations

from memtab.components.history.runs import load_run_detail, run_title
from memtab.store.history.runs import RunsLog
from support.memory_paths import vpath
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


def test_a_sync_that_brought_files_in_is_logged_with_their_versions(
    alpha: Machine, beta: Machine
) -> None:
    alpha.write(NOTES, "one\n")
    alpha.write("/memories/global/gone.md", "soon gone\n")
    alpha.sync()
    beta.sync()
    [first] = RunsLog(beta.home).runs(kind="sync")
    assert first.trigger == "memory" and first.summary.startswith("Brought in 2 changes from ")
    assert sorted((op.command, op.path) for op in first.ops) == [
        ("create", "/memories/global/gone.md"),
        ("create", NOTES),
    ]
    assert run_title(first) == "Sync · memory"

    alpha.write(NOTES, "one\ntwo\n")
    alpha.store.delete(vpath("/memories/global/gone.md"))
    alpha.sync()
    beta.sync()
    latest = RunsLog(beta.home).runs(kind="sync")[0]
    assert sorted(op.command for op in latest.ops) == ["delete", "edit"]
    detail = load_run_detail(beta.home, latest)
    words = sorted(view.words for view in detail.ops)
    assert words == ["Added 1 line to notes.md", "Deleted gone.md"]
    assert detail.revertible

    beta.sync()  # nothing new: no run
    assert len(RunsLog(beta.home).runs(kind="sync")) == 2
    assert RunsLog(alpha.home).runs(kind="sync") == []  # alpha sent, brought nothing in
