"""Codex's `[memories]` settings in its `config.toml`, as they change what a session loads and
what Codex remembers (docs/formats.md §17.6); a file it cannot read is the defaults, saying why."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from memtab.fs.user_files import read_regular_file

CONFIG_NAME = "config.toml"
CONFIG_MAX_BYTES = 1024 * 1024
V1_ROOT = "memories"
V2_ROOT = "memories_v2"
V2_SUMMARY_MAX_BYTES = 10_000
V2_SUMMARY_HEADINGS = (
    "## User Profile",
    "## User preferences",
    "## General Tips",
    "## What's in Memory",
)


@dataclass(frozen=True)
class CodexMemorySettings:
    """What `config.toml` says of Codex's memory; the defaults when it says nothing."""

    feature: bool | None = None
    """`[features] memories`: None when the file does not say."""
    use_memories: bool = True
    version: Literal["v1", "v2"] = "v1"
    dual_write: bool = False
    dedicated_tools: bool = False
    disable_on_external_context: bool = False
    mcp_servers: tuple[str, ...] = ()
    """The MCP servers `[mcp_servers.<name>]` declares (Memtab's is `memtab`)."""
    problem: str | None = None
    """Why the file's settings could not be read (they are then the defaults)."""

    @property
    def root_name(self) -> str:
        """The memory root a session reads: `memories` or `memories_v2`."""
        return V2_ROOT if self.version == "v2" else V1_ROOT


def read_memory_settings(codex_root: Path) -> CodexMemorySettings:
    """The memory settings of the Codex home `codex_root` (its `config.toml`)."""
    path = codex_root / CONFIG_NAME
    try:  # without blocking: a FIFO named config.toml is refused at once
        data = read_regular_file(path, limit=CONFIG_MAX_BYTES + 1, truncate=True)
    except FileNotFoundError:
        return CodexMemorySettings()
    except OSError as error:
        return CodexMemorySettings(problem=f"{path} cannot be read ({error.strerror or error})")
    if len(data) > CONFIG_MAX_BYTES:
        return CodexMemorySettings(problem=f"{path} is over 1 MiB: not read")
    # lazy: tomllib only where Codex has a config.toml
    import tomllib

    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return CodexMemorySettings(problem=f"{path} is not TOML Codex can read ({error})")
    return _settings(config)


def _settings(config: dict[str, Any]) -> CodexMemorySettings:
    features = config.get("features")
    feature = features.get("memories") if isinstance(features, dict) else None
    memories = config.get("memories")
    table: dict[str, Any] = memories if isinstance(memories, dict) else {}

    def flag(key: str, default: bool, *aliases: str) -> bool:
        for name in (key, *aliases):
            value = table.get(name)
            if isinstance(value, bool):
                return value
        return default

    version = table.get("version")
    servers = config.get("mcp_servers")
    return CodexMemorySettings(
        mcp_servers=tuple(sorted(servers)) if isinstance(servers, dict) else (),
        feature=feature if isinstance(feature, bool) else None,
        use_memories=flag("use_memories", True),
        version="v2" if version == "v2" else "v1",
        dual_write=flag("dual_write", False),
        dedicated_tools=flag("dedicated_tools", False),
        disable_on_external_context=flag(
            "disable_on_external_context", False, "no_memories_if_mcp_or_web_search"
        ),
    )


def is_valid_v2_summary(text: str) -> bool:
    """Whether Codex uses `text` as a v2 memory summary (`is_valid_v2_summary`)."""
    if len(text.encode("utf-8", "surrogatepass")) >= V2_SUMMARY_MAX_BYTES:
        return False
    lines = text.split("\n")
    lines = [line.removesuffix("\r") for line in lines]
    if not lines or lines[0] != "v1":
        return False
    stripped = {line.strip() for line in lines}
    return all(heading in stripped for heading in V2_SUMMARY_HEADINGS)


def external_context_note(settings: CodexMemorySettings) -> str | None:
    """What `disable_on_external_context` does to threads using Memtab, in words (None: off)."""
    if not settings.disable_on_external_context:
        return None
    return (
        "[memories] disable_on_external_context is on: a Codex thread that calls an MCP "
        "server — Memtab's included — or searches the web is marked polluted and never "
        "becomes part of Codex's own memory"
    )
