"""A home whose sessions hold the real shared transcripts lists and resolves cleanly."""

from __future__ import annotations

import shutil
from pathlib import Path

from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.registry import add_workspace, load_registry, orphan_project_dirs

from .helpers import ok, write, write_config


def test_home_with_real_transcripts_lists_and_resolves(fixtures_dir: Path, home: Home) -> None:
    transcripts = sorted(fixtures_dir.rglob("*.jsonl"))
    assert transcripts, "no shared fixtures found"
    workspace_ids = []
    for number, transcript in enumerate(transcripts):
        workspace_id = f"{number:010x}"
        project = f"/work/{transcript.parent.name}"
        add_workspace(home, project, transcript.stem[:40], workspace_id=workspace_id)
        session = home.workspace_dir(workspace_id)
        session.mkdir(parents=True)
        shutil.copyfile(transcript, session / "chat.jsonl")
        write(session / "memory" / "notes.md", f"---\ndescription: notes {number}\n---\nbody\n")
        workspace_ids.append(workspace_id)
    write(home.global_root / "prefs.md", "---\ndescription: global prefs\n---\n")

    registry = load_registry(home)
    assert registry.problems == ()
    assert [w.id for w in registry.workspaces] == workspace_ids
    assert orphan_project_dirs(home, registry) == []
    for workspace_id in workspace_ids:
        store = MemoryStore.open(home, workspace_id, registry)
        assert store.home.transcript_path(workspace_id).is_file()
        listings = store.list_all()
        assert [listing.error for listing in listings] == [None, None, None]
        assert [[f.description for f in listing.files] for listing in listings] == [
            ["global prefs"],
            [],
            [f"notes {int(workspace_id, 16)}"],
        ]
        # The transcript lives beside the workspace scope, never inside it.
        view = ok(MemoryTool(store).execute({"command": "view", "path": "/memories"}))
        assert "chat.jsonl" not in view
        assert store.root(Scope.WORKSPACE) == home.workspace_dir(workspace_id) / "memory"


def test_legacy_entries_resolve_against_session_dirs_holding_transcripts(
    fixtures_dir: Path, home: Home
) -> None:
    transcript = next(iter(sorted((fixtures_dir / "mux").glob("*.jsonl"))))
    write_config(
        home, {"projects": [["/work/legacy", {"workspaces": [{"path": "/w/legacy-main"}]}]]}
    )
    session = home.workspace_dir("legacy-main")
    session.mkdir(parents=True)
    shutil.copyfile(transcript, session / "chat.jsonl")
    store = MemoryStore.open(home, "legacy-main")
    assert store.workspace is not None and store.workspace.id == "legacy-main"
    assert store.list_scope(Scope.WORKSPACE).files == ()
