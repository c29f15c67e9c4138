"""A `--home` that is no folder is said, never served as an empty home in silence
(docs/formats.md §22.1): a typo in an agent's hand-written settings, or a home deleted
since install, reaches the agent in the `initialize` instructions and in every `list` and
`search` answer's notes, and `memtab doctor` names the agent whose settings start Memtab
on it. Before, the session answered `"files": []` and never said why. Nothing is
created."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.sdk_server import build_server
from memtab.diagnostics.setup import check_agent_server
from memtab.store.home import Home

SAID = "does not exist, so nothing is listed or found in it"


def notes_of(service: MemoryService, tool: str, arguments: dict[str, object]) -> list[str]:
    answer = service.call(tool, arguments, "test")
    assert answer.error is None, answer.error
    notes: list[str] = json.loads(answer.text).get("notes", [])
    return notes


@pytest.mark.parametrize("shape", ["missing", "file"])
def test_a_home_that_is_no_folder_is_said_in_the_instructions_and_every_answer(
    tmp_path: Path, shape: str
) -> None:
    root = tmp_path / "no" / "such-home"
    if shape == "file":
        root.parent.mkdir()
        root.write_text("not a home")
    service = MemoryService(Home(root), None, writes="inbox", other_agents=False)
    try:
        said = SAID if shape == "missing" else "is not a folder, so nothing is listed"
        instructions = build_server(service).instructions or ""
        assert f"The memory home {root} {said}" in instructions
        assert "memtab doctor" in instructions
        for tool, arguments in (("list", {}), ("search", {"query": "kestrel"}), ("list", {})):
            notes = notes_of(service, tool, arguments)
            assert any(note.startswith(f"The memory home {root} {said}") for note in notes)
    finally:
        service.catalog.close()
    if shape == "missing":
        assert not root.parent.exists()  # nothing made


def test_a_home_that_exists_says_nothing_of_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "birds.md").write_text("the kestrel hovers\n")
    service = MemoryService(home, None, writes="inbox", other_agents=False)
    try:
        assert "The memory home" not in (build_server(service).instructions or "")
        for tool, arguments in (("list", {}), ("search", {"query": "kestrel"})):
            assert not any("memory home" in note for note in notes_of(service, tool, arguments))
    finally:
        service.catalog.close()


def test_doctor_names_an_agent_registered_with_a_home_that_does_not_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_MCP_SHARED", "off")
    home = Home(tmp_path / "home")
    home.root.mkdir()
    typo = tmp_path / "hoem"
    claude = Path(os.environ["HOME"]) / ".claude.json"
    entry = {"command": "memtab", "args": ["mcp", "--home", str(typo), "--writes", "inbox"]}
    claude.write_text(json.dumps({"mcpServers": {"memtab": entry}}))
    _, found = check_agent_server(home, os.environ)
    messages = [item.message for item in found.items]
    assert messages == [
        f"Claude Code's Memtab server serves the home {typo}, which does not exist: its "
        "sessions list and find nothing (a typo in --home, or a home moved or deleted "
        f"since). Fix --home in {claude}, or run `memtab mcp install` again with the home "
        "meant"
    ]
    assert not typo.exists()

    entry["args"] = ["mcp", f"--home={home.root}"]  # the home meant: nothing to say
    claude.write_text(json.dumps({"mcpServers": {"memtab": entry}}))
    assert check_agent_server(home, os.environ)[1].items == []
