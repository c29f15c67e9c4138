"""The smaller `--json` outputs, key by key and in order (a stable contract: fields are
added, never renamed or removed): `memtab models`, `memtab traces`, the memory tool's
result, the conflict copies (`memtab conflicts`), sync's state file, `memtab workspaces`,
sync's `xumBackup`, another agent's files (`memtab list --source`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.background.model_commands import _settings_row
from memtab.cli.main import main
from memtab.cli.memory.store_commands import _workspace_row
from memtab.llm.local_servers import LocalServer
from memtab.llm.settings import ProviderSettings
from memtab.sources.listing import source_file_row
from memtab.sources.model import FileKind, SourceFile
from memtab.store.conflict_copies import ConflictCopy, CopyName
from memtab.store.paths import parse_file_path
from memtab.store.scopes.tool import ToolResult
from memtab.store.sidecars.registry import Workspace
from memtab.store.xum_backup import BackupOverlap
from memtab.sync.conflicts.copies import SidecarCopy, copy_row
from memtab.sync.records import Pending, SyncState
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary
from support.demo_homes import copied_demo_home


def test_a_local_server() -> None:
    server = LocalServer(kind="ollama", title="Ollama", host="::1", port=11434, models=("a",))
    assert json.dumps(server.to_json()) == (
        '{"kind": "ollama", "title": "Ollama", "baseUrl": "http://[::1]:11434/v1", '
        '"port": 11434, "models": ["a"]}'
    )


def test_a_trace_summary() -> None:
    summary = TraceSummary(
        path=Path("/d/trace.json"),
        workspace_id="w1",
        workspace_name=None,
        run_started_at=4,
        trigger_message_id="m",
        model_string=None,
        outcome=Outcome.TIMED_OUT,
        error="slow",
        problem=None,
        size_bytes=9,
        modified_at_ms=3,
    )
    assert json.dumps(summary.to_json()) == (
        '{"path": "/d/trace.json", "workspaceId": "w1", "workspaceName": null, '
        '"runStartedAt": 4, "triggerMessageId": "m", "modelString": null, "kind": "writer", '
        '"outcome": "timed out", "failed": true, "error": "slow", "problem": null, '
        '"sizeBytes": 9}'
    )


def test_a_tool_result() -> None:
    assert json.dumps(ToolResult(success=True, output="o", error="e").to_json()) == (
        '{"success": true, "output": "o"}'
    )
    assert json.dumps(ToolResult(success=False, output="o", error="e").to_json()) == (
        '{"success": false, "error": "e"}'
    )


def test_conflict_copies() -> None:
    name = CopyName(original="a.md", tool="syncthing", when="20260101-101010", by="ABC")
    copy = ConflictCopy(
        path=parse_file_path("/memories/global/a.sync-conflict.md"),
        original=parse_file_path("/memories/global/a.md"),
        name=name,
    )
    assert json.dumps(copy_row(copy).to_json()) == (
        '{"path": "/memories/global/a.sync-conflict.md", "conflictOf": "/memories/global/a.md", '
        '"tool": "syncthing", "when": "20260101-101010", "by": "ABC"}'
    )
    sidecar = SidecarCopy(
        path=Path("/h/memory-meta (conflict).json"),
        original=Path("/h/memory-meta.json"),
        name=name._replace(when=None),
    )
    assert json.dumps(sidecar.to_json()) == (
        '{"path": "/h/memory-meta (conflict).json", "conflictOf": "/h/memory-meta.json", '
        '"tool": "syncthing", "when": null, "by": "ABC", "mergeable": '
        f"{json.dumps(sidecar.mergeable)}}}"
    )


def test_sync_state_writes_its_pending_files_sorted() -> None:
    pending = {path: Pending(kind="conflict", since=1) for path in ("b.md", "a.md", "c.md")}
    written = SyncState(pending=pending).to_json()
    assert list(written["pending"]) == ["a.md", "b.md", "c.md"]
    assert list(written) == [
        "version", "head", "pending", "meta", "historyAt", "lastSyncAt", "lastAttemptAt",
        "offlineSince", "lastError", "unpushed",
    ]  # fmt: skip


def test_sync_state_keeps_each_scopes_meta_and_drops_what_is_no_entry() -> None:
    entry = {"pinned": True, "accessCount": 2, "lastAccessedAt": 5, "lastWriteAt": None}
    raw = {"meta": {"global": {"a.md": entry, "b.md": 3}, "projects/x": "no"}}
    state = SyncState.read(raw)
    assert state is not None
    assert state.to_json()["meta"] == {"global": {"a.md": entry}}


# The expected JSON below is what the hand-written builders gave before these rows became
# records (_workspace_json, _overlap_json, _settings_json, file_json), byte for byte.


def test_a_workspace_row() -> None:
    workspace = Workspace(
        id="w1",
        name="main",
        path="/src/app",
        project_path="/src/app",
        project_name="app",
        projects=("/src/app",),
        title="T",
        parent_id="p",
        created_at="2026",
    )
    assert json.dumps(_workspace_row(workspace).to_json()) == (
        '{"id": "w1", "name": "main", "title": "T", "path": "/src/app", '
        '"projectPath": "/src/app", "projectName": "app", "projects": ["/src/app"], '
        '"archived": false, "multiProject": false, "projectAvailable": true, '
        '"parentWorkspaceId": "p", "createdAt": "2026", "notebookWorkspaceId": "w1"}'
    )


def test_xum_backup_overlap() -> None:
    overlap = BackupOverlap(repo_url="git@x", scopes=("global",), owner="xum")
    assert json.dumps(overlap.to_json()) == (
        '{"repoUrl": "git@x", "scopes": ["global"], "owner": "xum", "message": '
        "\"xum's settings backup (git@x) also carries global; you chose xum's backup to own "
        'it: stop syncing it here (memtab sync remove NAME, then memtab sync init without it)"}'
    )


def test_the_provider_in_use() -> None:
    assert json.dumps(_settings_row(None, "bad file").to_json()) == '{"problem": "bad file"}'
    settings = ProviderSettings(provider="openai", model="m", base_url="http://127.0.0.1:1/v1")
    assert json.dumps(_settings_row(settings, None).to_json()) == (
        '{"provider": "openai", "model": "m", "baseUrl": "http://127.0.0.1:1/v1", '
        '"description": "openai \\u00b7 m \\u00b7 http://127.0.0.1:1/v1 \\u00b7 no key"}'
    )


def test_another_agents_file() -> None:
    file = SourceFile(
        source_id="claude",
        relative="a/MEMORY.md",
        physical=Path("/c/a/MEMORY.md"),
        kind=FileKind.INSTRUCTIONS,
        description="d",
        size_bytes=3,
        modified_at_ms=4,
        read_only_reason="r",
        topic_type="user",
        warning="w",
    )
    assert json.dumps(source_file_row(file).to_json()) == (
        '{"path": "claude:a/MEMORY.md", "scope": "claude", "description": "d", '
        '"pinned": false, "accessCount": 0, "lastAccessedAt": null, "sizeBytes": 3, '
        '"modifiedAt": 4, "conflictOf": null, "notEditable": "r", "adoptedFrom": null, '
        '"kind": "instructions", "writable": false, '
        '"readOnlyReason": "r", "type": "user", "warning": "w", '
        '"physicalPath": "/c/a/MEMORY.md"}'
    )


def test_memtab_list_rows_keep_their_keys_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    copied_demo_home(home)
    capsys.readouterr()
    assert main(["--home", str(home), "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["files"]
    assert rows and all(list(row) == FILE_ROW_KEYS for row in rows)
    first = rows[0]
    assert isinstance(first["pinned"], bool) and isinstance(first["accessCount"], int)


FILE_ROW_KEYS = [
    "path", "scope", "description", "pinned", "accessCount", "lastAccessedAt", "sizeBytes",
    "modifiedAt", "conflictOf", "notEditable", "adoptedFrom",
]  # fmt: skip


def test_memtab_sources_rows_keep_their_keys_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    copied_demo_home(home)
    capsys.readouterr()
    assert main(["--home", str(home), "sources", "--json"]) == 0
    mux = json.loads(capsys.readouterr().out)["sources"][0]
    assert list(mux) == [
        "id", "agent", "root", "project", "writable", "fileCount", "label", "readOnlyReason",
        "hasHistory", "note", "error", "lastConsolidatedAt", "shared",
    ]  # fmt: skip
    assert (mux["agent"], mux["writable"], mux["project"]) == ("mux", True, None)


def test_memtab_sources_says_where_it_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    copied_demo_home(home)
    capsys.readouterr()
    assert main(["--home", str(home), "sources", "--json"]) == 0
    looked = json.loads(capsys.readouterr().out)["lookedFor"]
    keys = ["agent", "path", "found", "how", "note"]
    assert looked and all(list(item) == keys for item in looked)
    assert all(isinstance(item["found"], bool) for item in looked)
