"""Gemini CLI 0.61 refuses `create` and `str_replace` on a path named like a build file before
the call reaches the server ("Modifying build configuration files requires explicit user
confirmation", denied outright by `gemini -p`, even with `--yolo`: its policy engine's "Build
File Protection"), so Memtab's tools tell a Gemini CLI session beforehand, and name what to do
(issue 96)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from memtab.agent_server.pages.gemini_build_files import name_gemini_takes, named_like_build_file
from memtab.agent_server.service import MemoryService
from memtab.agent_server.tools import tool_specs
from memtab.store.home import Home

from .stdio_client import drive

GEMINI = "gemini-cli-mcp-client"


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/memories/global/Makefile", True),
        ("/memories/project/package.json", True),
        ("/memories/project/deploy.mk", True),
        ("/memories/project/rules.BZL", True),  # an extension in any case
        ("/memories/project/Dockerfile.dev", True),
        ("/memories/project/pyproject.toml", True),
        ("/memories/project/makefile-notes.md", False),
        ("/memories/project/MAKEFILE", False),  # a name as Gemini CLI spells it, exactly
        ("/memories/project/Dockerfile-notes.md", False),
        ("/memories/project/deploy.md", False),
    ],
)
def test_a_path_is_named_like_a_build_file_as_gemini_cli_reads_it(path: str, refused: bool) -> None:
    assert named_like_build_file(path) is refused


@pytest.mark.parametrize(
    "path", ["/memories/global/Makefile", "/memories/p/package.json", "/memories/p/Dockerfile.ci"]
)
def test_the_name_proposed_is_no_build_files(path: str) -> None:
    assert not named_like_build_file(name_gemini_takes(path))


def test_only_a_gemini_cli_session_is_told_of_its_refusal_and_only_for_edits() -> None:
    told = {
        spec.name for spec in tool_specs("inbox", client=GEMINI) if "build file" in spec.description
    }
    assert told == {"create", "str_replace"}
    assert not any("build file" in spec.description for spec in tool_specs("inbox", client="x"))
    [create] = [spec for spec in tool_specs("direct", client=GEMINI) if spec.name == "create"]
    assert "Modifying build configuration files requires explicit user confirmation" in (
        create.description
    )
    assert "`rename` it first" in create.description


def test_viewing_a_note_named_like_a_build_file_says_how_gemini_cli_may_change_it(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "Makefile").write_text("ship: make ship deploys\n", encoding="utf-8")
    service = MemoryService(home, writes="inbox", other_agents=False)
    try:
        seen = service.call("view", {"path": "/memories/global/Makefile"}, GEMINI).text
        other = service.call("view", {"path": "/memories/global/Makefile"}, "claude-code").text
    finally:
        service.close()
    assert (
        "(Gemini CLI refuses `create` and `str_replace` on /memories/global/Makefile, named "
        'like a build file: "Modifying build configuration files requires explicit user '
        'confirmation". To change it, `rename` it first, e.g. to '
        "/memories/global/Makefile-notes.md.)"
    ) in seen
    assert "Gemini CLI" not in other


@pytest.mark.slow  # slow: starts `memtab mcp` as a child process
def test_a_gemini_cli_session_lists_the_tools_with_the_refusal_said(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    seen: dict[str, str] = {}

    async def session(client: Client) -> None:
        for tool in (await client.list_tools()).tools:
            seen[tool.name] = tool.description or ""

    drive(home.root, session, client_name=GEMINI)
    assert "requires explicit user confirmation" not in seen["view"]
    assert "requires explicit user confirmation" in seen["create"]
    assert "requires explicit user confirmation" in seen["str_replace"]
