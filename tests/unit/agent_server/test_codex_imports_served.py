"""Claude Code's memory as Codex 0.169.0 imports it, served to an agent through `memtab mcp`
(docs/formats.md §17.3, §22.2): each copy linked to its original in `list`, a fact found
once by `search` (the copy folded into its original's result), and `view` of a copy naming
its original. Before, Claude Code and Codex from npm got every imported memory twice from
`search` — the same description, the same score — and nothing in `list` or `view` said
which file was the copy and which the one to edit."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.agent_server.service import MemoryService
from memtab.demo import MAIN_ID, acme_api, claude_project_name
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from support.codex_home import import_claude_memory
from support.demo_homes import copied_demo_home

TOPIC = "project_token-refresh-race.md"


def _names(home: Home) -> tuple[str, str]:
    """Claude Code's memory of the demo's acme-api, and where Codex keeps its copies."""
    key = claude_project_name(acme_api(home))
    return (
        f"claude-code:memory-{key}",
        f"codex:memories:extensions/external_agent_import/resources/{key}",
    )


def _served(tmp_path: Path) -> tuple[Home, MemoryService]:
    home = copied_demo_home(tmp_path / "demo")
    agents = home.root / "other-agents"
    key = claude_project_name(acme_api(home))
    import_claude_memory(agents / "codex" / "memories", agents / "claude" / "projects" / key,
                         acme_api(home))  # fmt: skip
    workspace = load_registry(home).require_workspace(MAIN_ID)
    return home, MemoryService(home, workspace, writes="off")


def test_list_links_each_copy_to_its_original_and_back(tmp_path: Path) -> None:
    home, service = _served(tmp_path)
    claude, copied = _names(home)
    rows = json.loads(service.call("list", {"scope": "codex"}, "t").text)["files"]
    copies = {row["path"]: row for row in rows if row["path"].startswith(copied)}
    copy = copies[f"{copied}/{TOPIC}"]
    assert copy["importedFrom"] == f"{claude}:memory/{TOPIC}"
    assert copy["readOnlyReason"].startswith("imported from Claude Code")
    assert "importedFrom" not in copies[f"{copied}/scope.json"]  # Codex's, no copy of one
    originals = json.loads(service.call("list", {"scope": "claude-code"}, "t").text)["files"]
    (original,) = [row for row in originals if row["path"] == f"{claude}:memory/{TOPIC}"]
    assert original["importedAs"] == [f"{copied}/{TOPIC}"]
    service.catalog.close()


def test_search_finds_an_imported_memory_once_with_its_copy_named(tmp_path: Path) -> None:
    home, service = _served(tmp_path)
    claude, copied = _names(home)
    query = {"query": "two tabs refreshing rotated the same refresh token"}
    found = json.loads(service.call("search", query, "t").text)["results"]
    paths = [hit["path"] for hit in found]
    assert not any(path.startswith(copied) for path in paths)  # every copy folded
    best = found[0]
    assert best["path"] == f"{claude}:memory/{TOPIC}"
    assert best["importedAs"] == [f"{copied}/{TOPIC}"]
    index = next(hit for hit in found if hit["path"] == f"{claude}:memory/MEMORY.md")
    assert index["importedAs"] == [f"{copied}/MEMORY.md"]
    alone = json.loads(service.call("search", {**query, "scope": "codex"}, "t").text)["results"]
    assert alone[0]["path"] == f"{copied}/{TOPIC}"  # its original not searched: the copy,
    assert alone[0]["importedFrom"] == f"{claude}:memory/{TOPIC}"  # saying whose it is,
    assert alone[0]["imported"] == f"imported from Claude Code (cwd {acme_api(home)})"
    service.catalog.close()


def test_view_of_a_copy_names_its_original(tmp_path: Path) -> None:
    home, service = _served(tmp_path)
    claude, copied = _names(home)
    viewed = service.call("view", {"path": f"{copied}/{TOPIC}"}, "t").text
    assert (
        f"({copied}/{TOPIC} is Codex's copy of a Claude Code memory file, imported from "
        f"Claude Code (cwd {acme_api(home)}): its original, the file to edit, is "
        f"{claude}:memory/{TOPIC})"
    ) in viewed.splitlines()
    original = service.call("view", {"path": f"{claude}:memory/{TOPIC}"}, "t").text
    assert "Codex's copy" not in original
    service.catalog.close()
