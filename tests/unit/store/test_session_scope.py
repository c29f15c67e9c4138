"""xum's session scope, `/memories/session/` (docs/formats.md §3.1).

coder/xum `docs/adr/0007-session-memory-is-the-rollover-checkpoint.md` (commit b755f9a7):
in token-budget mode each agent keeps its rollover checkpoint in a scope of its own, which
"belongs to the acting workspace, not to the parent notebook, so no other agent reads or
overwrites it", "is deleted with the workspace, and is excluded from the memory hot set and
intuition recall". The homes below are laid out as issue 57 places it:
`sessions/<acting workspace id>/session-memory/`, beside the notebook
`sessions/<owner>/memory/`, never inside it. Memtab shows it as the fourth scope and never
consolidates or syncs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import NodeKind, SectionId, section_key
from memtab.components.tree.scan import ScanRequest
from memtab.components.tree.text import row_tooltip
from memtab.components.tree.tree import build_tree
from memtab.consolidation.engine.prompts import run_message
from memtab.consolidation.guard import ConsolidationGuard
from memtab.fs.locking.lease_lock import LeaseLock
from memtab.store import xum_locks
from memtab.store.errors import ScopeBusyError
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home, PathKind
from memtab.store.paths import SCOPE_ORDER, SHARED_SCOPES, Scope, parse_virtual_path
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import load_registry
from memtab.store.xum_locks import (
    WorkspaceRemovedError,
    removal_tombstone_path,
    target_lock_paths,
)
from memtab.sync.repository.layout import SyncSetupError, parse_scope
from memtab.watch.events import Targets
from memtab.writer.inbox.targets import target_problem
from support.memory_paths import vpath

from .helpers import PROJECT, FakeClock, write, write_config

OWNER, CHILD = "a1b2c3d4e5", "c0c0c0c0c0"
CHECKPOINT = "/memories/session/checkpoint.md"
TEXT = "# Checkpoint\n- window w2, item 14: wire the parser\n"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """A task tree as xum lays it out: the owner's notebook, a sub-agent acting in it, each
    with its own session scope beside the notebook."""
    home = Home(tmp_path / "home")
    workspaces = [
        {"id": OWNER, "name": "main", "path": "/w/main"},
        {"id": CHILD, "name": "explore", "path": "/w/main", "parentWorkspaceId": OWNER},
    ]
    write_config(home, {"projects": [[PROJECT, {"workspaces": workspaces}]]})
    write(home.workspace_root(OWNER) / "notes.md", "# Notes\n- use pnpm\n")
    write(home.root / "sessions" / CHILD / "session-memory" / "checkpoint.md", TEXT)
    write(home.root / "sessions" / OWNER / "session-memory" / "mine.md", "owner's own\n")
    return home


def _store(home: Home, workspace_id: str = CHILD) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(workspace_id), clock=FakeClock())


def test_it_is_the_fourth_scope_of_the_acting_workspace_beside_the_notebook(home: Home) -> None:
    assert SCOPE_ORDER[-1] is Scope.SESSION and Scope.SESSION not in SHARED_SCOPES
    assert parse_virtual_path(CHECKPOINT).scope is Scope.SESSION
    store = _store(home)
    assert store.root(Scope.WORKSPACE) == home.workspace_root(OWNER)  # the owner's notebook
    assert store.root(Scope.SESSION) == home.root / "sessions" / CHILD / "session-memory"
    assert store.read(vpath(CHECKPOINT)).content == TEXT
    assert home.classify(store.root(Scope.SESSION) / "checkpoint.md").kind is (
        PathKind.SESSION_SCOPE
    )
    assert store.scopes() == SCOPE_ORDER
    write_config(home, {"projects": [[PROJECT, {"workspaces": [{"id": "f0f0f0f0f0"}]}]]})
    assert _store(home, "f0f0f0f0f0").scopes() == SHARED_SCOPES  # keeps none: not shown


def test_memtab_list_and_view_show_it_for_a_workspace_that_keeps_one(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home.root), "list", "--workspace", CHILD, "--json"]) == 0
    rows = {row["path"]: row["scope"] for row in json.loads(capsys.readouterr().out)["files"]}
    assert rows == {"/memories/workspace/notes.md": "workspace", CHECKPOINT: "session"}

    assert main(["--home", str(home.root), "list", "--workspace", CHILD]) == 0
    out = capsys.readouterr().out
    assert "/memories/session is xum's session scope" in out
    assert "never consolidated or synced" in out

    view = MemoryTool(_store(home)).execute({"command": "view", "path": "/memories"})
    assert view.output.endswith("- session/\n  - checkpoint.md")


def test_agents_write_it_with_usage_keyed_by_the_acting_workspace(home: Home) -> None:
    meta = MetaStore(home)
    meta.record_write(f"session:{OWNER}:mine.md")  # the owner's session: not the child's
    tool = MemoryTool(_store(home))
    edited = tool.execute(
        {"command": "str_replace", "path": CHECKPOINT, "old_str": "wire", "new_str": "test"}
    )
    assert edited.success, edited.error
    assert tool.execute({"command": "view", "path": CHECKPOINT}).success
    entries = meta.load()
    assert entries[f"session:{CHILD}:checkpoint.md"].access_count == 2
    assert f"workspace:{OWNER}:checkpoint.md" not in entries

    # Every other write of the sidecar keeps both session entries as they are.
    kept = {k: v for k, v in entries.items() if k.startswith("session:")}
    store = _store(home)
    store.set_pinned(vpath("/memories/workspace/notes.md"), True)
    store.create_file(vpath("/memories/global/prefs.md"), "tabs\n")
    store.move(vpath("/memories/workspace/notes.md"), vpath("/memories/workspace/checkpoint.md"))
    store.delete(vpath("/memories/workspace/checkpoint.md"))
    assert {k: v for k, v in meta.load().items() if k.startswith("session:")} == kept

    store.move(vpath(CHECKPOINT), vpath("/memories/session/done.md"))
    moved = meta.load()
    assert f"session:{CHILD}:checkpoint.md" not in moved
    assert moved[f"session:{CHILD}:done.md"].access_count == 3


def test_history_and_the_recorder_keep_its_versions(home: Home) -> None:
    store = _store(home)
    store.edit_text(vpath(CHECKPOINT), lambda text: text + "- next: the lexer\n")
    key = store.history_key(Scope.SESSION)
    assert key == f"session-{CHILD}"
    assert [v.path for v in ScopeHistory(home, key).versions()][-1] == CHECKPOINT
    assert file_history(store, vpath(CHECKPOINT))[0].op == "edit"

    targets = Targets.find(home)
    assert f"session-{CHILD}" in targets.scopes
    changed = home.root / "sessions" / CHILD / "session-memory" / "checkpoint.md"
    assert targets.concerned(str(changed)) == f"session-{CHILD}"


def test_a_removed_workspace_takes_no_more_session_writes(home: Home) -> None:
    tombstone = removal_tombstone_path(home, CHILD)
    write(tombstone, json.dumps({"workspaceId": CHILD, "removedAt": 1, "attemptId": "x"}))
    with pytest.raises(WorkspaceRemovedError):
        _store(home).create_file(vpath("/memories/session/more.md"), "x\n")
    assert _store(home).read(vpath(CHECKPOINT)).content == TEXT  # reads stay


def test_a_session_write_holds_xums_lock_of_that_scope(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xum_locks, "TARGET_WAIT_S", 0.05)
    session_root = home.root / "sessions" / CHILD / "session-memory"
    held = LeaseLock(target_lock_paths(home, [session_root])[0], "xum")  # as xum holds it
    held.acquire(1.0)
    try:
        with pytest.raises(ScopeBusyError):
            _store(home).create_file(vpath("/memories/session/more.md"), "x\n")
        _store(home).create_file(vpath("/memories/workspace/other.md"), "x\n")  # another lock
    finally:
        held.release()


def test_consolidation_never_reads_or_changes_it(home: Home) -> None:
    store = _store(home)
    message = run_message(store, trigger="manual", budget=8, dry_run=False)
    assert "/memories/workspace/notes.md ·" in message
    assert "session" not in message

    guard = ConsolidationGuard(store)
    view = guard.execute({"command": "view", "path": CHECKPOINT})
    assert not view.success and "consolidation never reads or changes it" in view.error
    root = guard.execute({"command": "view", "path": "/memories"})
    assert "session/" not in root.output
    delete = guard.execute({"command": "delete", "path": CHECKPOINT})
    assert not delete.success
    assert [(op.applied, op.note) for op in guard.ops] == [
        (False, "/memories/session is an agent's own checkpoint: consolidation never reads or "
         "changes it"),
    ]  # fmt: skip
    assert store.read(vpath(CHECKPOINT)).content == TEXT


def test_sync_never_carries_it_and_the_writer_never_files_into_it(home: Home) -> None:
    with pytest.raises(SyncSetupError, match="session scope is never synced"):
        parse_scope(f"session:{CHILD}")
    problem = target_problem(_store(home), "/memories/session/notes.md")
    assert problem is not None and "session scope" in problem


def test_the_tree_and_search_show_it_as_the_fourth_section(home: Home) -> None:
    scan = scan_home(ScanRequest(home, CHILD))
    tree = build_tree(scan)
    sections = [node.section for node in tree.children]
    assert sections[:4] == [
        SectionId.GLOBAL,
        SectionId.PROJECT,
        SectionId.WORKSPACE,
        SectionId.SESSION,
    ]
    session = next(node for node in tree.children if node.key == section_key(SectionId.SESSION))
    assert [child.name for child in session.children] == ["checkpoint.md"]
    assert session.children[0].kind is NodeKind.FILE
    tip = row_tooltip(session, None) or ""
    assert "Session memory · explore" in tip and "never consolidated or synced" in tip
    assert "\nxum's session scope: " in tip  # xum's name in lower case
    assert scan.shows_session

    matches = find_matches(scan, SearchQuery.parse("wire parser"), IndexedTexts())
    assert [key for key in matches if "session" in key] != []

    write_config(home, {"projects": [[PROJECT, {"workspaces": [{"id": "f0f0f0f0f0"}]}]]})
    plain = scan_home(ScanRequest(home, "f0f0f0f0f0"))
    assert SectionId.SESSION not in [node.section for node in build_tree(plain).children]
    assert not plain.shows_session
