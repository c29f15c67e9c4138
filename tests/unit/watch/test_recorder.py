"""The recorder keeps history while no window runs: what another process deletes or
rewrites in each store is recorded, with who did it where that can be told, and comes
back — a burst in one step."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from memtab.components.history.history import record_external_changes
from memtab.fs.clock import now_ms
from memtab.sources.agent_file import SourceVersions, index_key
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.store.history.versions import ScopeHistory
from memtab.store.history.xum_journal import JOURNAL_NAME
from memtab.store.paths import Scope
from memtab.store.restore.from_history import file_history
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalOp
from memtab.watch.events import LeftPath, Targets, change_events, restore_event
from memtab.watch.sources import RecorderLease
from support.agent_machine import WORKSPACE_ID
from support.memory_paths import vpath

from .helpers import change_in_another_process, machine_with_notes, running_recorder, wait_for


def _deleted(store_history: list, path: str) -> bool:  # type: ignore[type-arg]
    return any(v.path == path and v.deleted for v in store_history)


def test_mux_scopes_deleted_and_rewritten_by_another_process_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    global_note = store.root(Scope.GLOBAL) / "note0.md"
    project_note = store.root(Scope.PROJECT) / "note1.md"
    workspace_note = store.root(Scope.WORKSPACE) / "note2.md"
    with running_recorder(machine.home):
        change_in_another_process(
            delete=[global_note, project_note], rewrite={workspace_note: "overwritten\n"}
        )
        wait_for(
            lambda: (
                _deleted(
                    file_history(store, vpath("/memories/global/note0.md")),
                    "/memories/global/note0.md",
                )
                and _deleted(
                    file_history(store, vpath("/memories/project/note1.md")),
                    "/memories/project/note1.md",
                )
                and file_history(store, vpath("/memories/workspace/note2.md"))[0].op == "edit"
            ),
            "the recorder records the deletions and the rewrite",
        )
    newest = file_history(store, vpath("/memories/workspace/note2.md"))[0]
    assert newest.actor == "external"
    # One program's change of three scopes at once is one event of their three indexes.
    (event,) = [e for e in change_events(machine.home) if e.actor == "external"]
    assert set(event.indexes) == {
        "global",
        store.history_key(Scope.PROJECT),
        store.history_key(Scope.WORKSPACE),
    }
    assert (event.deleted, event.rewritten, event.file_count) == (2, 1, 3)
    assert event.where_words() == "1 in Global, 1 in Project, 1 in Workspace"
    assert restore_event(machine.home, event).left == ()  # all three in one step
    assert global_note.read_text("utf-8") == "# global 0\n"
    assert project_note.read_text("utf-8") == "# project 1\n"
    assert workspace_note.read_text("utf-8") == "# workspace 2\n"


@pytest.mark.expect_log(  # 20 of its 27 files: the guard tells of it (test_mass_notices.py)
    "memtab.watch.recorder", "WARNING", "Mass change: Claude Code removed 20"
)
def test_a_claude_code_burst_is_one_event_restored_in_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    memory = machine.claude_memory
    for index in range(20):  # an auto memory with dozens of topics
        (memory / f"topic_{index:02d}.md").write_text(f"# Topic {index}\n", "utf-8")
    before = {path.name: path.read_bytes() for path in memory.iterdir() if path.is_file()}
    topics = sorted(path for path in memory.iterdir() if path.name.startswith("topic_"))
    with running_recorder(machine.home):
        # Claude Code's consolidation ("auto-dream") holds its lock while it prunes.
        (memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
        change_in_another_process(
            delete=topics, rewrite={memory / "MEMORY.md": "# Memory\n\n- pruned\n"}
        )
        wait_for(
            lambda: any(
                e.deleted == len(topics) and e.rewritten == 1 for e in change_events(machine.home)
            ),
            "one event with every deletion and the rewrite",
        )
    event = next(e for e in change_events(machine.home) if e.deleted)
    assert event.actor == "claude-code"
    assert event.words().startswith("Claude Code removed 20 files and rewrote 1 file at ")
    result = restore_event(machine.home, event)
    assert result.left == ()
    assert len(result.restored) == 21
    after = {path.name: path.read_bytes() for path in memory.iterdir() if path.is_file()}
    assert {name: data for name, data in after.items() if name != CONSOLIDATE_LOCK} == before


def test_instructions_agent_memory_and_codex_changed_outside_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    agent_note = machine.claude / "agent-memory" / "reviewer" / "MEMORY.md"
    agent_note.parent.mkdir(parents=True)
    agent_note.write_text("# Reviewer\n\n- check the tests\n", "utf-8")
    user_claude = machine.claude / "CLAUDE.md"
    project_claude = machine.project / "CLAUDE.md"
    skill = machine.codex / "memories" / "skills" / "restore-session" / "SKILL.md"
    originals = {
        path: path.read_bytes() for path in (user_claude, project_claude, skill, agent_note)
    }
    head = machine.codex / "memories" / ".git" / "logs" / "HEAD"
    with running_recorder(machine.home):
        head.parent.mkdir(parents=True)
        head.write_text("0000 1111 Codex <codex> 0 +0000\tcommit: rebuild\n", "utf-8")
        change_in_another_process(
            delete=[agent_note, skill],
            rewrite={user_claude: "# gone\n", project_claude: "# also gone\n"},
        )
        wait_for(
            lambda: sum(e.deleted + e.rewritten for e in change_events(machine.home)) == 4,
            "every change recorded",
        )
    events = change_events(machine.home)
    codex = next(e for e in events if e.versions[0].path.startswith("codex:"))
    assert codex.actor == "codex"
    assert {e.actor for e in events if e is not codex} == {"external"}
    for event in events:
        assert restore_event(machine.home, event).left == ()
    assert {path: path.read_bytes() for path in originals} == originals


def test_a_read_only_store_keeps_its_history_and_says_why_it_is_not_written_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    loki = machine.project / ".loki" / "memory"
    victim = next(path for path in sorted(loki.rglob("*")) if path.is_file())
    with running_recorder(machine.home):
        change_in_another_process(delete=[victim])
        wait_for(lambda: bool(change_events(machine.home)), "the deletion recorded")
    (event,) = change_events(machine.home)
    file_id = event.versions[0].path
    assert file_id.startswith("loki:") and event.versions[0].deleted
    assert SourceVersions(machine.home).versions(file_id)[0].deleted  # its content is kept
    result = restore_event(machine.home, event)
    assert result.restored == ()
    assert "read-only" in result.left[0].why or "loki-mode" in result.left[0].why


@pytest.mark.slow
def test_a_file_changed_again_since_the_event_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    note = store.root(Scope.GLOBAL) / "note0.md"
    with running_recorder(machine.home):
        change_in_another_process(rewrite={note: "first rewrite\n"})
        wait_for(lambda: bool(change_events(machine.home)), "the rewrite recorded")
        time.sleep(2.1)  # a later change is its own event (events.GAP_MS)
        change_in_another_process(rewrite={note: "the user's own edit\n"})
        wait_for(lambda: len(change_events(machine.home)) == 2, "the second rewrite recorded")
    first = change_events(machine.home)[-1]
    result = restore_event(machine.home, first)
    assert result.left == (
        LeftPath(path="/memories/global/note0.md", why="it changed again since"),
    )
    assert note.read_text("utf-8") == "the user's own edit\n"


@pytest.mark.slow
def test_the_first_sync_records_what_changed_while_nothing_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    with running_recorder(machine.home):
        pass  # a baseline of everything
    topic = next(machine.claude_memory.glob("feedback_*.md"))
    topic.unlink()
    with running_recorder(machine.home):
        pass
    source = next(
        s
        for s in discover(SourceContext.load(machine.home)).sources
        if s.root == topic.parent.parent
    )
    versions = SourceVersions(machine.home).versions(source.file_id(f"memory/{topic.name}"))
    assert versions[0].deleted and versions[0].actor == "external"
    assert ScopeHistory(machine.home, index_key(source.id)).versions()


def test_the_watches_are_few_and_cover_every_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    for number in range(40):  # a user of Claude Code in forty projects
        (machine.claude / "projects" / f"-src-p{number}" / "memory").mkdir(parents=True)
    targets = Targets.find(machine.home)
    watched = dict(targets.directories())
    home = machine.home.root
    assert watched[str(home)] is False
    assert watched[str(home / "memory")] is watched[str(home / "sessions")] is True
    assert watched[str(machine.claude / "projects")] is True
    assert len(watched) < 15  # each is an inotify instance of the user's 128
    recursive = [path for path, deep in watched.items() if deep]
    assert not any(p.startswith(q + os.sep) for p in watched for q in recursive)
    transcript = next((machine.claude / "projects").rglob("*.jsonl"))
    assert targets.concerned(str(transcript)) is None  # a transcript is no memory
    topic = next(machine.claude_memory.glob("*.md"))
    assert targets.concerned(str(topic)).startswith("source:claude-code:")  # type: ignore[union-attr]


def _journal_row(path: str, at_ms: int) -> str:
    """A row of xum's memory tool in a workspace's durable-events.jsonl."""
    return json.dumps(
        {
            "v": 1,
            "seq": 7,
            "id": "evt-1",
            "ts": at_ms,
            "workspaceId": WORKSPACE_ID,
            "kind": "refinement",
            "data": {
                "kind": "memory",
                "action": {"op": "delete", "path": "/memories/global/note0.md"},
                "inverse": {"op": "restore-files", "files": [{"path": path, "blobRef": "x"}]},
                "evidence": {"workspaceId": WORKSPACE_ID, "toolName": "memory"},
            },
        }
    )


@pytest.mark.parametrize("polling", [False, True], ids=["inotify", "polling"])
def test_changes_xum_and_mux_journal_are_recorded_as_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, polling: bool
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    by_xum = store.root(Scope.GLOBAL) / "note0.md"
    by_consolidation = store.root(Scope.PROJECT) / "note1.md"  # one actor per scope's sync
    by_someone = store.root(Scope.WORKSPACE) / "note2.md"
    journal = machine.home.workspace_dir(WORKSPACE_ID) / JOURNAL_NAME
    options = {"use_polling": True, "poll_interval_s": 0.2} if polling else {}
    with running_recorder(machine.home, **options):
        journal.write_text(_journal_row(str(by_xum), now_ms()) + "\n", "utf-8")
        Journal(machine.home).save_run(
            WORKSPACE_ID,
            None,
            ConsolidationRecord(
                last_run_at=now_ms(),
                trigger="manual",
                summary="pruned",
                ops=(JournalOp(command="delete", path="/memories/project/note1.md", applied=True),),
            ),
        )
        change_in_another_process(delete=[by_xum, by_consolidation, by_someone])
        wait_for(
            lambda: sum(e.deleted for e in change_events(machine.home)) == 3, "three deletions"
        )
    actors = {v.path: v.actor for e in change_events(machine.home) for v in e.versions}
    assert actors == {
        "/memories/global/note0.md": "xum",
        "/memories/project/note1.md": "mux",
        "/memories/workspace/note2.md": "external",
    }


def test_without_a_recorder_the_window_records_other_agents_changes_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    record_external_changes(store)  # the window's sync after a scan: the baseline
    topic = next(machine.claude_memory.glob("feedback_*.md"))
    change_in_another_process(delete=[topic])
    lease = RecorderLease(machine.home)
    assert lease.acquire()
    try:
        record_external_changes(store)  # a recorder runs: it is the recorder's to record
        assert not change_events(machine.home)
    finally:
        lease.release()
    record_external_changes(store)
    (event,) = change_events(machine.home)
    assert event.versions[0].path.endswith(f":memory/{topic.name}") and event.deleted == 1


def test_an_orphaned_project_dir_is_kept_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    orphan = machine.home.projects_root / "gone-0123456789ab"
    orphan.mkdir(parents=True)
    (orphan / "old.md").write_text("# an old project's lesson\n", "utf-8")
    (orphan / "older.md").write_text("# and another\n", "utf-8")
    with running_recorder(machine.home):
        change_in_another_process(delete=[orphan / "old.md", orphan / "older.md"])
        wait_for(lambda: bool(change_events(machine.home)), "the deletions recorded")
    (event,) = change_events(machine.home)
    assert event.key == "project-gone-0123456789ab" and event.deleted == 2
    assert restore_event(machine.home, event).left == ()
    assert (orphan / "old.md").read_text("utf-8") == "# an old project's lesson\n"


def test_a_file_another_process_renames_is_moved_not_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mv` in a scope folder while only the recorder runs (issue 81 point 5): a move, its
    history going on at the new name; nothing to restore."""
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    folder = store.root(Scope.PROJECT)
    old, new = "/memories/project/note1.md", "/memories/project/renamed.md"
    with running_recorder(machine.home):
        subprocess.run(["mv", str(folder / "note1.md"), str(folder / "renamed.md")], check=True)
        wait_for(
            lambda: bool(file_history(store, vpath(new))),
            "the recorder records the renamed file",
        )
    arrived, *earlier = file_history(store, vpath(new))
    assert (arrived.op, arrived.moved_from) == ("move", old)
    assert [version.path for version in earlier] == [old]  # its history, through the rename
    assert change_events(machine.home) == []
