"""The demo home has everything the issue promises, in the formats mux writes."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.demo import DARK_MODE_ID, DELETED_ID, MAIN_ID, MULTI_ID, create_demo_home
from memtab.store.journal import Journal
from memtab.store.memory import MemoryStore
from memtab.store.paths import Scope
from memtab.store.registry import load_registry, orphan_project_dirs


def test_demo_home_has_projects_workspaces_and_memories(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo", now_ms=1_800_000_000_000)
    registry = load_registry(home)
    assert len([p for p in registry.projects if p.path != "_multi"]) == 2
    workspaces = {ws.id: ws for ws in registry.workspaces}
    assert set(workspaces) == {MAIN_ID, DARK_MODE_ID, MULTI_ID}
    assert workspaces[DARK_MODE_ID].archived
    assert workspaces[MULTI_ID].multi_project
    assert orphan_project_dirs(home, registry)

    store = MemoryStore(home, workspaces[MAIN_ID])
    listings = {listing.scope: listing for listing in store.list_all()}
    for scope in Scope:
        assert listings[scope].files, f"no {scope} memories"
    assert any(len(f.path.segments) > 1 for f in listings[Scope.GLOBAL].files), "no nested dirs"
    entries = store.meta_entries()
    assert any(entry.pinned for entry in entries.values())
    assert any(entry.access_count > 0 for entry in entries.values())


def test_demo_journal_has_rejected_op_legacy_record_and_harvests(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo")
    data = Journal(home).load()
    assert not data.problems
    ops = [op for record in data.workspaces.values() for op in record.ops]
    assert any(not op.applied and op.note for op in ops)
    assert DELETED_ID in data.workspaces  # legacy: no project record alongside it
    assert all(record is not data.workspaces[DELETED_ID] for record in data.projects.values())
    assert {h.status for h in data.harvests[MAIN_ID].values()} == {"completed", "failed"}


def test_demo_transcript_and_trace_dump_are_valid_json(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo")
    lines = home.transcript_path(MAIN_ID).read_text().splitlines()
    messages = [json.loads(line) for line in lines]
    assert {m["role"] for m in messages} == {"user", "assistant"}
    dumps = list(home.trace_dir(MAIN_ID).glob("*.json"))
    assert len(dumps) == 1
    dump = json.loads(dumps[0].read_text())
    assert dump["workspaceId"] == MAIN_ID and dump["timedOut"] is True
