"""Each known client's own limit on what a tool answers, so no answer is cut by the agent
(docs/formats.md §22.10): Codex's truncation policy, Claude Code's `MAX_MCP_OUTPUT_TOKENS`, Gemini
CLI's `truncateToolOutputThreshold`; the install's `--answer-budget` wins. Budgets count as the
frame carries the text (`paging.framed_size`)."""

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
"""Room for Codex's own text before a tool's answer, in the same budget."""
CLAUDE_CODE_MCP_TOKENS = 25_000
"""Claude Code's default `MAX_MCP_OUTPUT_TOKENS`."""
CLAUDE_CODE_UNCOUNTED_SHARE = 2
"""Claude Code never counts a result under half its token limit at a quarter token a character."""
MIN_CLIENT_BUDGET = 2_000
"""The least a client's limit makes the budget; below it a limit is a mistake."""
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
    """The budget of a session of client `client` started with `env` in `cwd`: `configured` when
    set, else `default` lowered to the client's limit."""
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
    """The most characters Gemini CLI gives the model whole, and why; None when it cuts none."""
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
    # lazy: tomllib only for a Codex session with a config.toml
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
