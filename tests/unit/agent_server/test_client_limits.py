"""Each known client's answers within what it shows whole (docs/formats.md §22.10): Codex
(`clientInfo` name `codex-mcp-client`, as Codex 0.169.0's binary names itself) keeps 12,000
bytes of a tool's text whole for a model outside its catalog (`TruncationPolicyConfig::
bytes(10_000)` × 1.2), or 4·N·1.2 with `tool_output_token_limit = N`; Claude Code
(`claude-code`, its 2.1.332 bundle) shows 2 × `MAX_MCP_OUTPUT_TOKENS` characters whole, at
most 50,000. Before, every session got 24,000 bytes, and Codex cut the middle out of every
answer past 12,000 ("…8 tokens truncated…")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.origin import SessionOrigin
from memtab.agent_server.pages.paging import framed_size
from memtab.agent_server.service import ClientBudget, MemoryService, client_budget
from memtab.store.home import Home

KOREAN = "메모리는 에이전트가 함께 쓰는 기억이다"


def _codex_home(tmp_path: Path, config: str | None) -> dict[str, str]:
    codex = tmp_path / "codex"
    codex.mkdir(exist_ok=True)
    if config is not None:
        (codex / "config.toml").write_text(config, encoding="utf-8")
    return {"CODEX_HOME": str(codex), "HOME": str(tmp_path)}


def test_codex_gets_its_fallback_cut_unless_its_config_says_more(tmp_path: Path) -> None:
    env = _codex_home(tmp_path, None)
    assert client_budget("codex-mcp-client", env, configured=None) == ClientBudget(
        11_900,
        "11900 bytes: Codex keeps 12000 bytes whole for a model outside its catalog, its own "
        "header included",
    )
    env = _codex_home(tmp_path, 'model = "local-model"\ntool_output_token_limit = 2000\n')
    assert client_budget("codex-mcp-client", env, configured=None).budget == 9_500
    env = _codex_home(tmp_path, "tool_output_token_limit = 50000\n")
    fitted = client_budget("codex-mcp-client", env, configured=None)
    assert fitted.budget == 24_000 and fitted.why.startswith("24000 bytes: the default, within")
    env = _codex_home(tmp_path, "tool_output_token_limit = [\n")  # not TOML: the fallback
    assert client_budget("codex-mcp-client", env, configured=None).budget == 11_900


def test_claude_code_within_twice_its_mcp_token_limit(tmp_path: Path) -> None:
    assert client_budget("claude-code", {}, configured=None).budget == 24_000
    low = client_budget("claude-code", {"MAX_MCP_OUTPUT_TOKENS": "5000"}, configured=None)
    assert low == ClientBudget(
        10_000, "10000 bytes: Claude Code shows 10000 characters whole (MAX_MCP_OUTPUT_TOKENS=5000)"
    )
    assert client_budget("claude-code", {"MAX_MCP_OUTPUT_TOKENS": "x"}, configured=None).budget == (
        24_000
    )


def test_the_install_budget_wins_and_an_unknown_client_has_the_default(tmp_path: Path) -> None:
    env = _codex_home(tmp_path, None)
    assert client_budget("codex-mcp-client", env, configured=40_000).budget == 40_000
    assert client_budget("some-agent", env, configured=None).budget == 24_000
    assert client_budget(None, env, configured=None).budget == 24_000


@pytest.fixture
def codex_session(tmp_path: Path) -> Iterator[MemoryService]:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(250):
        text = f'---\ndescription: "{KOREAN} \\"{number}\\""\n---\n{KOREAN} alpha {number}\n'
        (home.global_root / f"노트-{number:04d}.md").write_text(text, encoding="utf-8")
    (home.global_root / "big.md").write_text(f"{KOREAN} line\n" * 1500, encoding="utf-8")
    origin = SessionOrigin(
        argv=("mcp",), cwd="", env=_codex_home(tmp_path, None), pid=1, parent_pid=1
    )
    service = MemoryService(home, writes="off", other_agents=False, origin=origin)
    yield service
    service.close()


def test_a_codex_session_pages_every_answer_within_its_cut(
    codex_session: MemoryService,
) -> None:
    assert codex_session.budget == 24_000  # until the client says who it is
    page = json.loads(codex_session.call("list", {}, "codex-mcp-client").text)
    assert codex_session.budget == 11_900
    assert "(an answer holds at most 11900 bytes)" in page["more"]
    seen = len(page["files"])
    while "next" in page:
        answer = codex_session.call("list", {"cursor": page["next"]}, "codex-mcp-client")
        assert len(answer.text.encode("utf-8")) <= framed_size(answer.text) <= 11_900
        page = json.loads(answer.text)
        seen += len(page["files"])
    assert seen == 251
    view = codex_session.call("view", {"path": "/memories/global/big.md"}, "codex-mcp-client")
    assert framed_size(view.text) <= 11_900 and "an answer holds at most 11900 bytes" in view.text


def _gemini_home(tmp_path: Path, settings: str | None, where: Path | None = None) -> dict[str, str]:
    gemini = (where or tmp_path / "gemini home") / ".gemini"
    gemini.mkdir(parents=True, exist_ok=True)
    if settings is not None:
        (gemini / "settings.json").write_text(settings, encoding="utf-8")
    return {
        "GEMINI_CLI_HOME": str(tmp_path / "gemini home"),
        "HOME": str(tmp_path),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "no-system.json"),
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }


def test_gemini_cli_within_its_truncation_threshold_less_its_wrapper(tmp_path: Path) -> None:
    """Gemini CLI 0.61 (`gemini-cli-mcp-client`) wraps a tool's text in
    `<untrusted_context>` (41 characters) and cuts a longer text than its
    `tools.truncateToolOutputThreshold` (40,000 by default: the default budget fits) —
    its first 20 % and last 80 % kept, "[N characters omitted]" between."""
    env = _gemini_home(tmp_path, None)
    fitted = client_budget("gemini-cli-mcp-client", env, configured=None)
    assert fitted == ClientBudget(
        24_000,
        "24000 bytes: the default, within Gemini CLI keeps 40000 characters whole "
        "(tools.truncateToolOutputThreshold), its <untrusted_context> wrapper included",
    )
    env = _gemini_home(
        tmp_path, '{\n  // a short context\n  "tools": {"truncateToolOutputThreshold": 10000}\n}'
    )
    assert client_budget("gemini-cli-mcp-client", env, configured=None).budget == 9_959
    project = tmp_path / "shop"
    _gemini_home(tmp_path, '{"tools": {"truncateToolOutputThreshold": 6000}}', where=project)
    cwd = str(project)  # the session's directory: its workspace settings win
    assert client_budget("gemini-cli-mcp-client", env, configured=None, cwd=cwd).budget == 5_959
    env = _gemini_home(tmp_path, '{"tools": {"truncateToolOutputThreshold": 0}}')
    assert client_budget("gemini-cli-mcp-client", env, configured=None) == ClientBudget(
        24_000, "24000 bytes: the default (Gemini CLI cuts none)"
    )
    assert client_budget("gemini-cli-mcp-client", env, configured=30_000).budget == 30_000


def test_a_gemini_cli_session_fits_its_settings_from_its_origin(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    env = _gemini_home(tmp_path, '{"tools": {"truncateToolOutputThreshold": 8000}}')
    origin = SessionOrigin(argv=("mcp",), cwd=str(tmp_path), env=env, pid=1, parent_pid=1)
    service = MemoryService(home, writes="off", other_agents=False, origin=origin)
    try:
        assert service.meet_client("gemini-cli-mcp-client")
        assert service.budget == 7_959
    finally:
        service.close()
