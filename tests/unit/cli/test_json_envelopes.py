"""The CLI's `--json` envelopes, key by key and in order (a stable contract: fields are
added, never renamed or removed): what each command prints around its rows, and the rows'
keys one level down. Pinned while they were dicts built by hand in `cli/`, kept as the
write-only records that replaced them (docs/ARCHITECTURE.md "Records")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from support.agent_machine import Machine
from support.demo_homes import copied_demo_home
from support.fake_model_server import FakeModelServer

WORKSPACE = "a1b2c3d4e5"  # the demo's first workspace


def outline(value: Any, depth: int = 2) -> Any:
    """The shape of a JSON value: an object's keys in order with their values' shapes, a
    list's first item's, a scalar's type (objects and lists below `depth`: their kind)."""
    if isinstance(value, dict):
        return {k: outline(v, depth - 1) for k, v in value.items()} if depth else "object"
    if isinstance(value, list):
        return ([outline(value[0], depth - 1)] if value else []) if depth else "list"
    return type(value).__name__


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def same(found: Any, expected: Any) -> bool:
    return json.dumps(outline(found)) == json.dumps(expected)  # the order counts


@pytest.fixture
def demo(tmp_path: Path) -> str:
    home = tmp_path / "demo"
    copied_demo_home(home)
    return str(home)


def test_the_inbox_and_its_decisions(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    listed = printed(capsys, "--home", demo, "inbox", "--json")
    assert list(listed) == ["items"] and list(listed["items"][0]) == INBOX_ITEM
    first, second = (item["id"] for item in listed["items"][:2])
    rejected = printed(capsys, "--home", demo, "inbox", "reject", first, "--json")
    assert list(rejected) == ["rejected"] and list(rejected["rejected"][0]) == INBOX_ITEM
    accepted = printed(capsys, "--home", demo, "inbox", "accept", second, "--json")
    assert list(accepted) == ["accepted"] and list(accepted["accepted"][0]) == INBOX_ITEM


INBOX_ITEM = [
    "id", "kind", "workspaceId", "text", "section", "memoryPath", "source", "category",
    "evidence", "confidence", "rationale", "createdAt", "targetReason", "retargetable",
    "sourceName",
]  # fmt: skip


def test_declined_and_forgetting(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    declined = printed(capsys, "--home", demo, "declined", "--workspace", WORKSPACE, "--json")
    assert list(declined) == ["declined"] and isinstance(declined["declined"], list)
    forget = ["--home", demo, "declined", "--workspace", WORKSPACE, "--forget", "--json"]
    assert outline(printed(capsys, *forget)) == {"forgotten": "int"}


def test_models_and_settings(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    row = {"provider": "str", "model": "str", "baseUrl": "str", "description": "str"}
    assert same(printed(capsys, "models", "--json"), {"configured": row, "local": []})
    saved = printed(capsys, "settings", "use-offline", "--json")
    assert same(saved, {"saved": row, "settingsFile": "str"})


def test_the_mux_listings(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    listed = printed(capsys, "--home", demo, "list", "--json")
    assert list(listed) == ["files", "unaddressable"]
    (workspaces) = printed(capsys, "--home", demo, "workspaces", "--json")
    assert list(workspaces) == ["home", "projects", "workspaces", "orphanProjectDirs"]
    assert outline(workspaces["projects"]) == [{"path": "str", "name": "str", "dirName": "str"}]
    assert list(printed(capsys, "--home", demo, "trash", "--json")) == ["files"]
    assert list(printed(capsys, "--home", demo, "conflicts", "--json")) == ["copies", "sidecars"]
    traces = printed(capsys, "--home", demo, "traces", "--json")
    assert list(traces) == ["traces"] and traces["traces"]
    path = "/memories/global/preferences.md"
    history = printed(capsys, "--home", demo, "history", path, "--json")
    assert list(history) == ["versions"]
    shown = printed(capsys, "--home", demo, "show", path, "--json")
    assert outline(shown) == {"path": "str", "content": "str", "sha256": "str"}


def test_the_runs(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    runs = printed(capsys, "--home", demo, "runs", "--json")
    assert list(runs) == ["runs"]
    assert list(runs["runs"][0]) == [
        "id", "at", "kind", "trigger", "workspaceId", "projectPath", "summary", "status",
        "error", "source", "provider", "model", "startedAt", "journalFingerprint", "planId",
        "usage", "ops", "traceDump", "revertedBy", "filesChanged",
    ]  # fmt: skip


def test_another_agents_files(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    sources = printed(capsys, "sources", "--json")
    assert list(sources) == ["sources", "lookedFor"]
    assert list(printed(capsys, "list", "--source", "codex:memories", "--json")) == ["files"]
    shown = printed(capsys, "show", "claude-code:user:CLAUDE.md", "--json")
    assert list(shown)[-6:] == ["physicalPath", "content", "sha256", "rendered", "overCap", "note"]
    copied = printed(
        capsys, "copy", "claude-code:user:CLAUDE.md", "--to", "/memories/global/c.md", "--json"
    )
    assert outline(copied) == {"from": "str", "to": "str", "sha256": "str"}
    log = printed(capsys, "source-log", "codex:memories", "--json")
    assert outline(log) == {"source": "str", "note": "str", "commits": []}
    note = printed(capsys, "codex-note", "Prefer small diffs.", "--json")
    assert outline(note) == {"id": "str", "path": "str"}


def test_the_recorders_status(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = printed(capsys, "watch", "--status", "--home", demo, "--json")
    assert list(status)[-3:] == ["installed", "entry", "home"]
    assert list(status)[:2] == ["running", "pid"]
    assert list(printed(capsys, "events", "--home", demo, "--json")) == ["events"]


def test_duplicates_contradictions_and_leaks(demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    def found(*argv: str) -> Any:
        capsys.readouterr()
        assert main(["--home", demo, *argv, "--no-sources", "--json"]) == 1
        return json.loads(capsys.readouterr().out)

    duplicates = found("duplicates")
    assert list(duplicates) == ["groups", "filesRead", "kept", "problems"]
    assert list(duplicates["groups"][0]) == [
        "kind",
        "similarity",
        "why",
        "members",
        "key",
        "judgedBy",
    ]
    assert list(duplicates["groups"][0]["members"][0]) == PLACE
    contradictions = printed_or_found(capsys, demo, "contradictions")
    assert list(contradictions) == ["contradictions", "filesRead", "problems"]
    [found] = contradictions["contradictions"]
    assert list(found) == ["kind", "about", "first", "second", "newer", "why", "judgedBy"]
    assert list(found["first"]) == [*LINE_PLACE, "value", "writtenAt"]
    # A copy of a side's line (here in global memory, newer): the side is said in two
    # places, its newest first, the others in `elsewhere` (added; nothing else changes).
    Path(demo, "memory", "global", "ports.md").write_text(
        "# Ports\n\n- The API runs on port 8000.\n"
    )
    [copied] = printed_or_found(capsys, demo, "contradictions")["contradictions"]
    side = copied["first"] if copied["first"]["value"] == "8000" else copied["second"]
    assert list(side) == [*LINE_PLACE[:3], "line", "text", "modifiedAt", "value", "writtenAt",
                          "elsewhere"]  # fmt: skip
    assert (side["path"], side["elsewhere"][0]["path"]) == (
        "/memories/global/ports.md",
        "/memories/workspace/dev-setup.md",
    )
    assert list(side["elsewhere"][0]) == [*LINE_PLACE, "writtenAt"]
    leaks = printed_or_found(capsys, demo, "leaks")
    assert list(leaks) == ["leaks", "filesRead", "projects", "problems"]


def printed_or_found(capsys: pytest.CaptureFixture[str], demo: str, command: str) -> Any:
    capsys.readouterr()
    assert main(["--home", demo, command, "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


PLACE = ["path", "agent", "scope", "project", "modifiedAt"]
LINE_PLACE = ["path", "agent", "scope", "line", "text", "project", "workspace", "modifiedAt"]


def test_why_recalled(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["recall", "vercel env newline", "--workspace", "a1b2c3d4e5", "--json"]
    found = printed(capsys, *argv)
    assert list(found) == ["prompt", "agents", "unrecallable", "workspace", "directory"]
    claude, codex, xum, gemini = found["agents"]
    assert [a["agent"] for a in (claude, codex, xum, gemini)] == [
        "claude",
        "codex",
        "xum",
        "gemini",
    ]
    assert list(claude) == ["agent", "how", "files", "sent", "notes"]
    assert list(codex) == ["agent", "how", "files", "notes"]  # `sent`: Claude Code's alone
    assert list(gemini) == ["agent", "how", "files", "notes"]
    recalled = next(f for f in claude["files"] if f["verdict"] == "recalled")
    assert list(recalled) == [
        "id", "physicalPath", "name", "kind", "verdict", "rank", "score", "matched", "reason",
        "firstLine", "lastLine",
    ]  # fmt: skip
    loaded = claude["files"][0]
    assert list(loaded) == ["id", "physicalPath", "name", "kind", "verdict", "score", "matched",
                            "reason"]  # fmt: skip
    assert list(found["unrecallable"][0]) == ["agent", "id", "physicalPath", "reason"]


def test_why_recalled_with_the_models_pick(
    machine: Machine,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fake_model_server: FakeModelServer,
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.anthropic_base_url)
    monkeypatch.setenv("MEMTAB_API_KEY", "sk-ant-test-key")
    fake_model_server.add_anthropic_reply('{"selected_memories": ["nowhere.md"]}')
    argv = ["recall", "vercel env newline", "--workspace", "a1b2c3d4e5", "--model", "--json"]
    claude, codex, _xum, _gemini = printed(capsys, *argv)["agents"]
    assert list(claude) == ["agent", "how", "files", "sent", "notes", "modelPick"]
    assert list(claude["modelPick"]) == [
        "model", "provider", "picks", "notListed", "agreement", "inputTokens", "outputTokens",
        "elapsedMs",
    ]  # fmt: skip
    assert list(codex) == ["agent", "how", "files", "notes"]  # a note says it asks no model
