"""Each known client's own limit on what a tool answers, so that no answer is ever cut by the
agent (docs/formats.md §22.10). A client is known by the `clientInfo` name it gives in
`initialize`; its budget is the server's default, lowered to what it shows whole; the
install's `--answer-budget` wins over both.

- **Codex** (`codex-mcp-client`, title "Codex"; Codex 0.169.0's binary strings hold
  `codex-mcp-client/0.169.0`): it turns an MCP result's text blocks into the tool output the
  model reads (`CallToolResult::as_function_call_output_payload`) and records it in the
  thread's history truncated to its model's policy with a 20 % allowance
  (`context_manager/history.rs`: `with_serialization_allowance(policy)` as a token budget;
  `truncate_function_output_items_with_policy`). A model outside Codex's catalog gets the
  fallback policy `TruncationPolicyConfig::bytes(10_000)` (`models-manager/src/
  model_info.rs`, `model_info_from_slug`): 12,000 bytes ≈ 3,000 tokens of 4 bytes, and a
  text over that loses its middle (`truncate_middle_with_token_budget`: "…N tokens
  truncated…"). A catalog model's own policy is larger, but which model a session uses is
  not said in `initialize`, so the fallback is the bound. `tool_output_token_limit` in
  Codex's `config.toml` replaces the policy (`with_config_overrides`: N tokens, or 4·N
  bytes), for every model alike: then the bound is 4·N·1.2 bytes.
- **Claude Code** (`claude-code`, title "Claude Code"; read in the 2.1.332 bundle): a
  result of more than `MAX_MCP_OUTPUT_TOKENS` tokens (its environment's, else 25,000) is
  truncated to 4 characters a token; one whose estimate (a character ≈ ¼ token) is at most
  half of that is never counted, so `2 × MAX_MCP_OUTPUT_TOKENS` characters are always whole;
  and one over 50,000 characters is saved to a file the model is shown a preview of (a tool
  may declare more: `anthropic/maxResultSizeChars`, `paging.max_result_size_chars`).
- **Gemini CLI** (`gemini-cli-mcp-client`; its 0.61.0 bundle, `connectToMcpServer`): an MCP
  result of one text block reaches the model wrapped in `<untrusted_context>\n…\n
  </untrusted_context>` (`wrapUntrusted`, 41 characters), and a text longer than its
  threshold is cut (`truncateOutputIfNeeded`: the first 20 % and the last 80 % kept, "...
  [N characters omitted] ...", the whole saved to a file): `tools.truncateToolOutputThreshold`
  of its settings (merged as Gemini CLI merges them, the session's directory's own
  included: `sources/gemini/settings.py`), 40,000 characters by default, never cut when 0
  or less. (It is also held under 4 × the tokens left in the model's context, which no
  `initialize` says.)

Budgets are counted as the frame carries the text (`paging.framed_size`): never fewer bytes
than Codex's UTF-8 bytes or Claude Code's UTF-16 units of the same text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.agent_server.pages.paging import CLAUDE_CODE_WHOLE_CHARS, DEFAULT_ANSWER_BUDGET
from memtab.fs.user_files import read_regular_file
from memtab.sources.gemini.settings import SettingsReader
from memtab.sources.gemini.source import GEMINI_DIR, HOME_VARIABLE

CODEX_CLIENT = "codex-mcp-client"
CLAUDE_CODE_CLIENT = "claude-code"
GEMINI_CLI_CLIENT = "gemini-cli-mcp-client"
GEMINI_WRAPPER_CHARS = len("<untrusted_context>\n") + len("\n</untrusted_context>")
"""What Gemini CLI wraps a tool's text in before it measures it (`wrapUntrusted`)."""
CODEX_FALLBACK_POLICY_BYTES = 10_000
"""The truncation policy of a model outside Codex's catalog (`model_info_from_slug`)."""
CODEX_SERIALIZATION_ALLOWANCE = 1.2
"""`with_serialization_allowance`: the policy × 1.2 when a tool's output is recorded."""
CODEX_BYTES_PER_TOKEN = 4
CODEX_OUTPUT_HEADER_BYTES = 100
"""Codex puts a text of its own before a tool's answer, in the same budget ("Wall time:
0.0411 seconds\nOutput:", seen in the requests of Codex 0.169.0): room kept for it."""
CLAUDE_CODE_MCP_TOKENS = 25_000
"""Claude Code's default `MAX_MCP_OUTPUT_TOKENS`."""
CLAUDE_CODE_UNCOUNTED_SHARE = 2
"""Claude Code never counts a result whose estimate is at most half its token limit, at a
quarter token a character: the limit × 2 characters are always whole."""
MIN_CLIENT_BUDGET = 2_000
"""The least a client's own limit makes the budget: below it a page holds too little to be
of use, and such a limit is a setting's mistake."""
_CONFIG_MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class ClientBudget:
    """The budget a session's answers get, and why, in words."""

    budget: int
    why: str


def client_budget(
    client: str | None,
    env: Mapping[str, str],
    *,
    configured: int | None,
    default: int = DEFAULT_ANSWER_BUDGET,
    cwd: str = "",
) -> ClientBudget:
    """The budget of a session whose client gave the `clientInfo` name `client`, started
    with `env` (the agent's environment) in `cwd` ("": none known): `configured` (the
    install's `--answer-budget`) when set, else `default` lowered to the client's own
    limit."""
    if configured is not None:
        return ClientBudget(configured, f"{configured} bytes: set with --answer-budget")
    if client == CODEX_CLIENT:
        limit, why = codex_limit(env)
    elif client == CLAUDE_CODE_CLIENT:
        limit, why = claude_code_limit(env)
    elif client == GEMINI_CLI_CLIENT:
        gemini = gemini_cli_limit(env, cwd)
        if gemini is None:
            return ClientBudget(default, f"{default} bytes: the default (Gemini CLI cuts none)")
        limit, why = gemini
    else:
        return ClientBudget(default, f"{default} bytes: the default")
    if limit >= default:
        return ClientBudget(default, f"{default} bytes: the default, within {why}")
    budget = max(MIN_CLIENT_BUDGET, limit)
    return ClientBudget(budget, f"{budget} bytes: {why}")


def codex_limit(env: Mapping[str, str]) -> tuple[int, str]:
    """The most of an answer's text Codex keeps whole, in bytes, and why."""
    tokens = _tool_output_token_limit(_codex_home(env))
    if tokens is not None:
        kept = int(tokens * CODEX_BYTES_PER_TOKEN * CODEX_SERIALIZATION_ALLOWANCE)
        why = f"Codex keeps {kept} bytes whole (tool_output_token_limit = {tokens})"
    else:
        kept = int(CODEX_FALLBACK_POLICY_BYTES * CODEX_SERIALIZATION_ALLOWANCE)
        why = f"Codex keeps {kept} bytes whole for a model outside its catalog"
    return kept - CODEX_OUTPUT_HEADER_BYTES, f"{why}, its own header included"


def claude_code_limit(env: Mapping[str, str]) -> tuple[int, str]:
    """The most characters of an answer Claude Code shows whole, and why."""
    tokens = _positive_int(env.get("MAX_MCP_OUTPUT_TOKENS"))
    named = tokens is not None
    tokens = tokens or CLAUDE_CODE_MCP_TOKENS
    limit = min(CLAUDE_CODE_WHOLE_CHARS, tokens * CLAUDE_CODE_UNCOUNTED_SHARE)
    setting = f"MAX_MCP_OUTPUT_TOKENS={tokens}" if named else f"{tokens} tokens"
    return limit, f"Claude Code shows {limit} characters whole ({setting})"


def gemini_cli_limit(env: Mapping[str, str], cwd: str = "") -> tuple[int, str] | None:
    """The most characters of an answer Gemini CLI gives the model whole (its wrapper
    left out), and why; None when its settings say it cuts none."""
    named = env.get(HOME_VARIABLE, "").strip()
    base = Path(named).expanduser() if named else Path(env.get("HOME") or Path.home())
    reader = SettingsReader(base / GEMINI_DIR, env)
    threshold = reader.settings(Path(cwd) if cwd else None).truncate_threshold
    if threshold <= 0:
        return None
    limit = int(threshold) - GEMINI_WRAPPER_CHARS
    return limit, (
        f"Gemini CLI keeps {threshold:g} characters whole (tools.truncateToolOutputThreshold), "
        "its <untrusted_context> wrapper included"
    )


def _codex_home(env: Mapping[str, str]) -> Path:
    named = env.get("CODEX_HOME")
    if named:
        return Path(named).expanduser()
    return Path(env.get("HOME") or Path.home()) / ".codex"


def _tool_output_token_limit(codex_home: Path) -> int | None:
    """`tool_output_token_limit` of Codex's `config.toml` (None: not set, or unreadable)."""
    try:  # without blocking: a FIFO named config.toml is refused at once
        data = read_regular_file(codex_home / "config.toml", limit=_CONFIG_MAX_BYTES)
    except OSError:
        return None
    # lazy: tomllib (~0.13 MiB traced) only for a Codex session with a config.toml
    import tomllib

    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    value = config.get("tool_output_token_limit")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _positive_int(text: str | None) -> int | None:
    try:
        value = int(text) if text else 0
    except ValueError:
        return None
    return value if value > 0 else None
