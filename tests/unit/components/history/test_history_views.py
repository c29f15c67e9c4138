"""The history as the window shows it: versions in words, diffs, the trash by scope,
restoring, runs with their ops in words, and unified diffs read back for rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.components.files.ops import restore_file
from memtab.components.history.deleted import load_trash
from memtab.components.history.diff import join_diffs, parse_unified_diff
from memtab.components.history.history import (
    load_file_history,
    record_external_changes,
    version_diff,
)
from memtab.components.history.runs import (
    OpState,
    RunFilter,
    load_run_detail,
    load_run_list,
    run_outcome,
    run_title,
)
from memtab.components.text_diff import LineKind
from memtab.consolidation.service import ConsolidationService
from memtab.file_protocol.file_ref import MemoryFileRef, parse_file_ref
from memtab.file_protocol.memory_file import MuxFile
from memtab.fs.clock import now_ms
from memtab.llm.types import ModelReply
from memtab.store.history.describe import unified_diff
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore.from_history import revert_run
from memtab.watch.sources import RecorderLease
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider, reading_first
from unit.history.helpers import WS, disk, memory_call, new_home, store_for

NOW = 2_000_000_000_000


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def test_a_files_versions_in_words_with_size_changes(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/workspace/old.md"), "one\n")
    loaded = store.read(vpath("/memories/workspace/old.md"))
    store.save(vpath("/memories/workspace/old.md"), "one\ntwo\n", loaded.sha256)
    store.move(vpath("/memories/workspace/old.md"), vpath("/memories/workspace/new.md"))
    history = load_file_history(MuxFile(store, parse_file_path("/memories/workspace/new.md")))
    assert [(row.change, row.who, row.size, row.size_change) for row in history.rows] == [
        ("Renamed from old.md", "You", "8 B", ""),
        ("Edited", "You", "8 B", "+4 B"),
        ("Created", "You", "4 B", "+4 B"),
    ]
    assert history.current == b"one\ntwo\n"
    assert history.is_current(history.versions[0]) and not history.is_current(history.versions[2])
    assert "Version " in history.rows[0].tooltip


def test_outside_changes_and_deletions_read_as_such(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "abc\n")
    physical = store.physical(parse_file_path("/memories/global/a.md"))
    physical.write_text("abc\nmore\n")
    report = record_external_changes(store)
    assert report.recorded == 1
    store.delete(vpath("/memories/global/a.md"))
    rows = load_file_history(MuxFile(store, parse_file_path("/memories/global/a.md"))).rows
    assert [(row.change, row.who, row.size_change) for row in rows] == [
        ("Deleted", "You", "−9 B"),
        ("Edited", "Another program", "+5 B"),
        ("Created", "You", "+4 B"),
    ]


def test_the_window_leaves_outside_changes_to_a_running_recorder(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "abc\n")
    store.physical(parse_file_path("/memories/global/a.md")).write_text("abc\nmore\n")
    lease = RecorderLease(home)
    assert lease.acquire()
    try:
        assert record_external_changes(store).recorded == 0  # the recorder's to record
    finally:
        lease.release()
    assert record_external_changes(store).recorded == 1  # none runs: the window records


def test_recording_a_big_scope_stops_between_batches_and_goes_on_later(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.store.catch_up import external

    monkeypatch.setattr(external, "RECORD_BATCH", 2)
    store = store_for(home)
    for number in range(5):
        (home.global_root / f"n{number}.md").parent.mkdir(parents=True, exist_ok=True)
        (home.global_root / f"n{number}.md").write_text(f"note {number}\n")
    asked: list[int] = []

    def stop_after_one_batch() -> bool:
        asked.append(1)
        return len(asked) > 1  # the scope check passes, the first batch runs, then stop

    first = record_external_changes(store, stop_after_one_batch)
    assert first.cancelled and first.recorded == 2
    second = record_external_changes(store)
    assert not second.cancelled and second.recorded == 3
    assert record_external_changes(store).recorded == 0


def test_a_version_diffs_against_the_file_now(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "keep\nold\n")
    loaded = store.read(vpath("/memories/global/a.md"))
    store.save(vpath("/memories/global/a.md"), "keep\nnew\n", loaded.sha256)
    history = load_file_history(MuxFile(store, parse_file_path("/memories/global/a.md")))
    diff = version_diff(home, history.versions[1], history.current)
    assert (diff.added, diff.removed) == (1, 1)
    assert [line.text for line in diff.lines if line.kind is LineKind.REMOVED] == ["old"]
    assert version_diff(home, history.versions[0], history.current).identical


def test_restoring_a_version_and_a_deleted_file_whose_name_is_taken(home: Home) -> None:
    store = store_for(home)
    path = parse_file_path("/memories/global/a.md")
    store.create_file(vpath(path), "v1\n")
    store.save(vpath(path), "v2\n", store.read(vpath(path)).sha256)
    first = load_file_history(MuxFile(store, path)).versions[-1]
    result = restore_file(store, str(path), first.id)
    assert result.ok and result.message == "Restored /memories/global/a.md"
    assert result.created is None and disk(store, str(path)) == b"v1\n"  # not a new file
    assert restore_file(store, str(path), first.id).message.endswith("already holds that version")
    store.delete(vpath(path))
    deleted = load_file_history(MuxFile(store, path)).versions[0]
    store.create_file(vpath(path), "newer\n")
    beside = restore_file(store, str(path), deleted.id)
    assert beside.message == "Restored a.md as a-restored.md (a.md is taken by a newer file)"
    assert beside.created == parse_file_ref("/memories/global/a-restored.md")
    elsewhere = parse_file_path("/memories/project/moved.md")
    restored_elsewhere = restore_file(store, str(path), deleted.id, to=elsewhere)
    assert restored_elsewhere.created == MemoryFileRef.of_mux(elsewhere)
    refused = restore_file(store, str(path), deleted.id, to=elsewhere)
    assert refused.error == "Something exists at /memories/project/moved.md; choose another path"
    assert disk(store, "/memories/global/a-restored.md") == b"v1\n"
    unknown = restore_file(store, str(path), "nope")
    assert not unknown.ok and "No version 'nope'" in (unknown.error or "")


def test_the_trash_by_scope_sees_a_file_another_program_deleted(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/g.md"), "global\n")
    store.create_file(vpath("/memories/workspace/w.md"), "workspace\n")
    store.set_pinned(vpath("/memories/workspace/w.md"), True)
    store.delete(vpath("/memories/workspace/w.md"))
    store.physical(parse_file_path("/memories/global/g.md")).unlink()  # mux, a shell
    groups = load_trash(store)
    assert [(group.scope, group.label) for group in groups] == [
        (Scope.GLOBAL, "Global"),
        (Scope.PROJECT, "Project"),
        (Scope.WORKSPACE, "Workspace"),
    ]
    assert [[item.path for item in group.items] for group in groups] == [
        ["/memories/global/g.md"],
        [],
        ["/memories/workspace/w.md"],
    ]
    (global_item,) = groups[0].items
    assert global_item.version.actor == "external"
    (workspace_item,) = groups[2].items
    assert workspace_item.pinned
    assert restore_file(store, workspace_item.path, workspace_item.version.id).ok
    assert store.is_pinned(parse_file_path("/memories/workspace/w.md"))


def test_unified_diffs_are_read_back_with_line_numbers() -> None:
    text = unified_diff("a\n-- b\nc\n", "a\nc\nd\n", before_name="x", after_name="y")
    diff = parse_unified_diff(text)
    kinds = [(line.kind, line.text, line.old_number, line.new_number) for line in diff.lines]
    assert kinds == [
        (LineKind.HUNK, "--- x", None, None),
        (LineKind.HUNK, "+++ y", None, None),
        (LineKind.HUNK, "@@ -1,3 +1,3 @@", None, None),
        (LineKind.CONTEXT, "a", 1, 1),
        (LineKind.REMOVED, "-- b", 2, None),  # not mistaken for a header
        (LineKind.CONTEXT, "c", 3, 2),
        (LineKind.ADDED, "d", None, 3),
    ]
    assert (diff.added, diff.removed) == (1, 1)
    created = parse_unified_diff(unified_diff("", "x\n", before_name="/dev/null", after_name="a"))
    assert [(line.kind, line.new_number) for line in created.lines][-1] == (LineKind.ADDED, 1)
    cut = join_diffs([text + "\n… (3 more lines)", text])
    assert cut.lines[7].kind is LineKind.HUNK and cut.lines[7].text == "… (3 more lines)"
    assert cut.added == 2 and cut.lines[8].text == "--- x"


def merge_replies() -> list[ModelReply]:
    return reading_first([
        ModelReply(
            "",
            (
                memory_call("1", command="insert", path="/memories/global/testing.md",
                            insert_line=2, insert_text="- use pytest --lf"),
                memory_call("2", command="delete", path="/memories/global/test-tips.md"),
                memory_call("3", command="delete", path="/memories/global/pinned.md"),
            ),
        ),
        ModelReply("merged test tips"),
    ])  # fmt: skip


def test_runs_are_listed_filtered_and_described(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/testing.md"), "# Testing\n- run make test\n")
    store.create_file(
        vpath("/memories/global/test-tips.md"), "- run make test\n- use pytest --lf\n"
    )
    store.create_file(vpath("/memories/global/pinned.md"), "keep\n")
    store.set_pinned(vpath("/memories/global/pinned.md"), True)
    ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(merge_replies())).run(WS)
    mux = {
        "lastRunAt": now_ms() - 86_400_000,  # a day before the run above: listed after it
        "trigger": "launch",
        "summary": "mux pruned",
        "ops": [{"command": "delete", "path": "/memories/global/x.md", "applied": True}],
    }
    home.journal_path.write_text(json.dumps({"workspaces": {"other": mux}}))
    runs = load_run_list(home, RunFilter()).runs
    assert [run_title(run) for run in runs] == [
        "Consolidation · manual",
        "Consolidation by mux · launch",
    ]
    assert run_outcome(runs[0]) == "2 files changed · 1 not applied"
    assert [run.id for run in load_run_list(home, RunFilter(workspace_id=WS)).runs] == [runs[0].id]
    assert [run.id for run in load_run_list(home, RunFilter(trigger="launch")).runs] == [runs[1].id]
    assert load_run_list(home, RunFilter(failed_only=True)).runs == []
    assert load_run_list(home, RunFilter(kind="writer")).runs == []

    detail = load_run_detail(home, runs[0])
    assert detail.revertible
    assert [(op.words, op.state) for op in detail.ops] == [
        ("Added 1 line to testing.md", OpState.APPLIED),
        ("Combined test-tips.md into testing.md", OpState.APPLIED),
        (
            "Not applied — delete pinned.md: /memories/global/pinned.md is pinned: pinned "
            "files may be edited but never deleted or renamed",
            OpState.REJECTED,
        ),
    ]
    assert [op.open_path for op in detail.ops] == [
        "/memories/global/testing.md",
        None,  # deleted: nothing to open
        "/memories/global/pinned.md",
    ]
    assert detail.ops[0].diff.added == 1 and detail.ops[1].diff.removed == 2
    assert detail.ops[2].diff.lines == ()
    mux_detail = load_run_detail(home, runs[1])
    assert not mux_detail.revertible and "mux made this run" in (mux_detail.revert_refusal or "")
    revert_run(home, runs[0].id)
    reverted = load_run_detail(home, runs[0])  # "Revert this run…" does not stay offered
    assert not reverted.revertible and reverted.reverted_at is not None
    assert (reverted.revert_refusal or "").startswith("reverted ")
