"""Every change Memtab makes is recorded with its actor, run, content before and after."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply, ToolCall
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import BlobStore, sha256_of
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.registry import load_registry
from memtab.writer.job.run import run_writer
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider, reading_first

from .helpers import WS, disk, memory_call, new_home, store_for, versions


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def content(home: Home, sha: str) -> bytes:
    return BlobStore(home.history_blobs_dir).get(sha)


def test_user_save_create_and_delete_record_before_and_after(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    saved = store.save(vpath("/memories/global/a.md"), "two\n", sha256_of(b"one\n"))
    store.delete(vpath("/memories/global/a.md"))
    created, edited, deleted = versions(store)
    assert [v.op for v in (created, edited, deleted)] == ["create", "edit", "delete"]
    assert {v.actor for v in (created, edited, deleted)} == {"user"}
    assert created.prev_sha256 is None and content(home, created.sha256) == b"one\n"
    assert edited.prev_sha256 == created.sha256 and edited.sha256 == saved.sha256
    assert deleted.deleted and content(home, deleted.sha256) == b"two\n"
    assert all(v.workspace_id == WS and v.run_id is None for v in (created, edited, deleted))


def test_a_directory_delete_records_each_file_with_its_pins(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/project/d/x.md"), "x\n")
    store.create_file(vpath("/memories/project/d/sub/y.md"), "y\n")
    store.set_pinned(vpath("/memories/project/d/x.md"), True)
    store.delete(vpath("/memories/project/d"))
    gone = {v.path: v for v in versions(store, Scope.PROJECT) if v.deleted}
    assert set(gone) == {"/memories/project/d/x.md", "/memories/project/d/sub/y.md"}
    assert gone["/memories/project/d/x.md"].meta is not None
    assert gone["/memories/project/d/x.md"].meta["pinned"] is True
    assert content(home, gone["/memories/project/d/sub/y.md"].sha256) == b"y\n"


def test_moves_within_and_across_scopes_record_both_ends(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/workspace/a.md"), "a\n")
    store.move(vpath("/memories/workspace/a.md"), vpath("/memories/workspace/b.md"))
    store.move(vpath("/memories/workspace/b.md"), vpath("/memories/global/b.md"))
    workspace = versions(store, Scope.WORKSPACE)
    assert [(v.path, v.op, v.deleted) for v in workspace] == [
        ("/memories/workspace/a.md", "create", False),
        ("/memories/workspace/a.md", "move", True),
        ("/memories/workspace/b.md", "move", False),
        ("/memories/workspace/b.md", "move", True),
    ]
    assert workspace[1].moved_to == "/memories/workspace/b.md"
    (arrived,) = versions(store, Scope.GLOBAL)
    assert arrived.moved_from == "/memories/workspace/b.md"
    assert content(home, arrived.sha256) == b"a\n"


def test_agent_tool_edits_are_recorded_as_agent_tool(home: Home) -> None:
    store = store_for(home, actor="agent-tool")
    tool = MemoryTool(store)
    tool.execute({"command": "create", "path": "/memories/global/t.md", "file_text": "a\nb"})
    tool.execute({"command": "str_replace", "path": "/memories/global/t.md", "old_str": "b"})
    edit = versions(store)[-1]
    assert edit.actor == "agent-tool" and edit.op == "edit"
    assert content(home, edit.sha256) == b"a\n"
    assert content(home, edit.prev_sha256 or "") == b"a\nb"


def test_a_change_made_outside_memtab_is_kept_before_memtab_writes_over_it(home: Home) -> None:
    store = store_for(home)
    saved = store.create_file(vpath("/memories/global/n.md"), "mine\n")
    store.physical(parse_file_path("/memories/global/n.md")).write_text(
        "theirs\n"
    )  # mux or an editor, without Memtab
    store.save(vpath("/memories/global/n.md"), "ours again\n", sha256_of(b"theirs\n"))
    made, external, edit = versions(store)
    assert made.sha256 == saved.sha256
    assert external.actor == "external" and content(home, external.sha256) == b"theirs\n"
    assert edit.actor == "user" and edit.prev_sha256 == external.sha256


def test_consolidator_ops_are_recorded_under_the_run_and_logged(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/keep.md"), "# Keep\n- a\n")
    store.create_file(vpath("/memories/global/dup.md"), "- b\n")
    replies = [
        ModelReply(
            "",
            (
                memory_call("1", command="insert", path="/memories/global/keep.md",
                            insert_line=2, insert_text="- b"),
                memory_call("2", command="delete", path="/memories/global/dup.md"),
            ),
        ),
        ModelReply("merged dup into keep"),
    ]  # fmt: skip
    service = ConsolidationService(
        home, provider_factory=lambda _: ScriptedProvider(reading_first(replies))
    )
    service.run(WS, run_id="run-test-1")
    in_run = [v for v in versions(store) if v.run_id == "run-test-1"]
    assert [(v.path, v.actor, v.deleted) for v in in_run] == [
        ("/memories/global/keep.md", "consolidator", False),
        ("/memories/global/dup.md", "consolidator", True),
    ]
    (run,) = RunsLog(home).runs()
    assert run.id == "run-test-1" and run.kind == "consolidation" and run.status == "ok"
    assert run.provider == "scripted" and run.model == "test-model"
    insert, delete = run.ops
    assert insert.files[0].after_version == in_run[0].id
    assert delete.files[0].deleted and delete.files[0].before_sha256 == sha256_of(b"- b\n")


def test_a_writer_run_records_its_write_and_logs_the_run(home: Home) -> None:
    write = ToolCall("w", "memory_write", {"old_string": "", "new_string": "- remembered\n"})
    provider = ScriptedProvider([ModelReply("", (write,))])
    workspace = load_registry(home).require_workspace(WS)
    result = run_writer(home, workspace, [], provider)
    assert result.outcome == "wrote" and result.run_id is not None
    store = store_for(home)
    (version,) = versions(store, Scope.WORKSPACE)
    assert version.actor == "writer" and version.run_id == result.run_id
    (run,) = RunsLog(home).runs()
    assert run.kind == "writer" and run.id == result.run_id
    assert run.ops[0].command == "memory_write" and run.ops[0].files[0].after_version == version.id


def test_external_changes_are_recorded_by_sync(home: Home) -> None:
    store = store_for(home)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    (root / "seen.md").write_text("first\n")
    first = record_external(store)
    assert first.recorded == 1
    assert not record_external(store).changed
    (root / "seen.md").write_text("second, longer\n")
    assert record_external(store).recorded == 1
    baseline, changed = versions(store)
    assert (baseline.op, baseline.actor, changed.op) == ("seen", "external", "edit")
    assert content(home, changed.sha256) == b"second, longer\n"


def test_memtabs_own_writes_are_not_seen_again_as_external(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    store.move(vpath("/memories/global/a.md"), vpath("/memories/global/b.md"))
    report = record_external(store)
    assert not report.changed
    assert [v.actor for v in versions(store)] == ["user", "user", "user"]


@pytest.mark.expect_log(
    "memtab.store.history.recorder",
    "WARNING",
    r"^Could not record the history of /memories/global/a\.md: \[Errno 20\] Not a directory",
)
def test_a_recording_failure_never_fails_the_change(home: Home) -> None:
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    home.history_dir.write_text("not a directory")
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    assert disk(store, "/memories/global/a.md") == b"a\n"
