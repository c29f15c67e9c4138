"""The demo home has everything the issue promises, in the formats mux writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import (
    DARK_MODE_ID,
    DELETED_ID,
    DEMO_AGENT_DIRS,
    DEMO_AGENTS_DIR,
    DEMO_GEMINI_DIR,
    MAIN_ID,
    MULTI_ID,
    acme_api,
    claude_project_name,
    create_demo_home,
    webapp,
)
from memtab.sources.config import (
    HOME_OVERRIDES_NAME,
    AgentSettings,
    HomeSources,
    load_home_overrides,
)
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.blobs import sha256_of
from memtab.store.history.records import ProvenanceRecord, RunEntry
from memtab.store.history.runs import RunsLog
from memtab.store.paths import SHARED_SCOPES, Scope
from memtab.store.restore.from_history import file_history, trash
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import load_registry, orphan_project_dirs
from support.memory_paths import vpath


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
    for scope in SHARED_SCOPES:  # no agent of the demo keeps a session scope
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
    dumps = [json.loads(path.read_text()) for path in home.trace_dir(MAIN_ID).glob("*.json")]
    assert all(dump["workspaceId"] == MAIN_ID for dump in dumps)
    # A run that timed out, and the run that wrote the notes' two lines from the transcript.
    assert sorted((dump["timedOut"], dump["didWriteMemory"]) for dump in dumps) == [
        (False, True),
        (True, False),
    ]


def test_demo_history_was_made_through_the_store_and_its_logs_are_the_schemas(
    tmp_path: Path,
) -> None:
    home = create_demo_home(tmp_path / "demo")
    store = MemoryStore(home, load_registry(home).require_workspace(MAIN_ID))
    notes = file_history(store, vpath("/memories/workspace/notes.md"))
    assert [(v.actor, v.op) for v in notes] == [
        ("writer", "edit"),
        ("consolidator", "edit"),
        ("external", "seen"),
    ]
    assert notes[0].sha256 == sha256_of(
        store.read_whole(vpath("/memories/workspace/notes.md")) or b""
    )
    assert [item.path for item in trash(store)] == ["/memories/workspace/refresh-race.md"]
    # The journal's record for the workspace is Memtab's run: it is not imported again.
    added = catch_up_runs(home)
    assert {run.source for run in added} == {"mux"} and len(added) == 3
    runs = {run.kind: run for run in RunsLog(home).runs() if run.source == "memtab"}
    assert runs["consolidation"].journal_fingerprint is not None
    assert [op.note is not None for op in runs["consolidation"].ops] == [True, True, True]
    assert runs["writer"].ops[0].files[0].after_version == notes[0].id
    for run_line in home.runs_log_path.read_text().splitlines():  # written without pydantic
        run_document = json.loads(run_line)
        written = RunEntry.read(run_document)
        assert written is not None and written.to_json() == run_document
    (line,) = home.provenance_log_path.read_text().splitlines()
    document = json.loads(line)
    assert ProvenanceRecord.read_or_raise(document).to_json() == document
    assert document["versions"] == [notes[0].id]
    assert (home.trace_dir(MAIN_ID) / document["traceDump"]).is_file()


def test_demo_inbox_holds_the_completed_harvest_with_its_evidence(tmp_path: Path) -> None:
    from memtab.writer.inbox.inbox import Inbox

    home = create_demo_home(tmp_path / "demo")
    completed = [
        key for key, h in Journal(home).load().harvests[MAIN_ID].items() if h.status == "completed"
    ]
    workspace = load_registry(home).require_workspace(MAIN_ID)
    items = Inbox(home, workspace).items(with_evidence=True)
    harvested = [i for i in items if i.kind == "harvest"]
    assert [i.source for i in harvested] == [f"/memories/workspace/harvest/{completed[0]}.md"] * 3
    assert all(e.text for item in harvested for e in item.evidence)  # in the demo transcript
    # Gemini CLI's auto memory ran in the worktree: its two patches wait beside them.
    patches = [(i.kind, i.category, i.problem) for i in items if i not in harvested]
    assert patches == [("gemini", "private", None), ("gemini", "global", None)]


def test_demo_sources_are_the_home_sources_record_and_isolate_the_home(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo", now_ms=1_800_000_000_000)
    path = home.memtab_dir / HOME_OVERRIDES_NAME
    agents = {
        agent: AgentSettings(path=f"{DEMO_AGENTS_DIR}/{folder}")
        for agent, folder in {**DEMO_AGENT_DIRS, "gemini": DEMO_GEMINI_DIR}.items()
    }
    record = HomeSources.of(agents, isolated=True)
    assert path.read_text(encoding="utf-8") == json.dumps(record.to_json(), indent=2) + "\n"
    assert HomeSources.read(json.loads(path.read_text(encoding="utf-8"))) == record
    overrides = load_home_overrides(home)
    assert overrides.isolated and overrides.problems == ()
    assert overrides.agents["codex"].path == str(home.root / DEMO_AGENTS_DIR / "codex")


def test_the_demo_s_projects_are_on_its_disk_so_it_shows_only_the_findings_it_was_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 81 point 8: the demo flagged itself — its projects "not on this disk" — ahead
    of what it means to show. Its projects are checkouts in the demo home, and the check
    finds what the demo was given on purpose: a path moved, a script gone, a port two
    memories disagree on, a Gemini CLI note its MEMORY.md does not point to."""
    home = create_demo_home(tmp_path / "demo")
    projects = [p.path for p in load_registry(home).projects if p.path != "_multi"]
    assert projects == [acme_api(home), webapp(home)]
    for project in projects:
        assert Path(project).is_dir() and Path(project).is_relative_to(home.root)
        assert home.project_root(project).is_dir()  # its memory, under its path's name
    assert main(["--home", str(home.root), "check", "--json"]) == 1
    claude = f"claude-code:memory-{claude_project_name(acme_api(home))}"
    found = json.loads(capsys.readouterr().out)["findings"]
    assert sorted((f["kind"], f["path"], f["line"]) for f in found) == [
        ("disagreement", f"{claude}:memory/reference_local-services.md", 9),
        ("missing-path", "/memories/workspace/dev-setup.md", 6),
        ("missing-script", "/memories/workspace/dev-setup.md", 7),
        ("not-in-index", "gemini:memory-fix-token-refresh:review-checklist.md", None),
    ]
