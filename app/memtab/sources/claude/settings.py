"""Where Claude Code keeps its auto memory (its `autoMemoryDirectory` setting, read as it reads
it) and the `.consolidate-lock` whose mtime is its last consolidation (docs/formats.md §17.2)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Key, Lenient, Record
from memtab.fs.user_files import read_regular_file
from memtab.sources.claude.memory_dir import MemoryStore, memory_stores, stores_setting

logger = logging.getLogger(__name__)

SETTING = "autoMemoryDirectory"
AGENTS_MD_PLUGIN = "agents-md@builtin"
CONSOLIDATE_LOCK = ".consolidate-lock"
_SETTINGS_MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class AutoMemoryDirectory:
    """An `autoMemoryDirectory` in effect, and which settings file set it."""

    path: Path
    settings_file: Path

    @property
    def how(self) -> str:
        return f"autoMemoryDirectory in {self.settings_file}"


def managed_settings_files() -> tuple[Path, ...]:
    """Claude Code's managed (policy) settings file on this system."""
    if sys.platform == "darwin":
        return (Path("/Library/Application Support/ClaudeCode/managed-settings.json"),)
    if sys.platform == "win32":
        return (Path(r"C:\Program Files\ClaudeCode\managed-settings.json"),)
    return (Path("/etc/claude-code/managed-settings.json"),)


def user_auto_memory_directory(
    config_root: Path, managed: Sequence[Path] = ()
) -> AutoMemoryDirectory | None:
    """The directory every project's auto memory goes to, when the managed or user settings set
    one."""
    files = (*managed, config_root / "settings.json")
    return next((found for file in files if (found := _setting_in(file)) is not None), None)


def auto_memory_setting(
    config_root: Path, project: str, managed: Sequence[Path] = (), local_root: str | None = None
) -> AutoMemoryDirectory | None:
    """The `autoMemoryDirectory` in effect for sessions in `project`: managed, local, then the
    user's (first set wins)."""
    managed_one = next(
        (found for file in managed if (found := _setting_in(file)) is not None), None
    )
    local = managed_one or local_auto_memory_directory(local_root or project)
    return local or user_auto_memory_directory(config_root)


def local_auto_memory_directory(project: str) -> AutoMemoryDirectory | None:
    """The directory a project's local settings choose for its auto memory."""
    return _setting_in(Path(project) / ".claude" / "settings.local.json")


def _setting_in(settings_file: Path) -> AutoMemoryDirectory | None:
    settings = read_settings_file(settings_file)
    raw = settings.auto_memory_directory if settings is not None else None
    path = memory_path(raw)
    if raw is not None and path is None:
        logger.info(
            "Claude Code: %s in %s is not a usable directory: %r", SETTING, settings_file, raw
        )
    return AutoMemoryDirectory(path, settings_file) if path is not None else None


class _AgentsMdOptions(Record):
    instruction_files: Any = None


class _AgentsMdPlugin(Record):
    options: Annotated[_AgentsMdOptions | None, Lenient(None)] = None


class _PluginConfigs(Record):
    agents_md: Annotated[_AgentsMdPlugin | None, Key(AGENTS_MD_PLUGIN), Lenient(None)] = None


class ClaudeSettings(Record):
    """A Claude Code settings file, the keys Memtab reads as written (docs/formats.md §17.2,
    §17.6): `autoMemoryDirectory`, `instructionFiles`, `env`, `autoMemoryEnabled`."""

    auto_memory_directory: Any = None
    auto_memory_enabled: Any = None
    instruction_files: Any = None
    plugin_configs: Annotated[_PluginConfigs | None, Lenient(None)] = None
    env: Any = None

    @property
    def instruction_files_option(self) -> Any:
        """The plugin's `instructionFiles`, else the top-level one (None: neither)."""
        plugin = self.plugin_configs.agents_md if self.plugin_configs else None
        options = plugin.options if plugin else None
        chosen = options.instruction_files if options else None
        return chosen if chosen is not None else self.instruction_files


def auto_memory_turned_off(
    config_root: Path, project: str, managed: Sequence[Path] = (), local_root: Path | None = None
) -> Path | None:
    """The settings file whose `autoMemoryEnabled: false` turns auto memory off for sessions in
    `project` (managed, local, shared, user: first set wins), or None."""
    project_settings = Path(project) / ".claude"
    local_settings = (local_root or Path(project)) / ".claude" / "settings.local.json"
    for settings_file in (
        *managed,
        local_settings,
        project_settings / "settings.json",
        config_root / "settings.json",
    ):
        settings = read_settings_file(settings_file)
        value = settings.auto_memory_enabled if settings is not None else None
        if isinstance(value, bool):
            return None if value else settings_file
    return None


def session_memory_stores(config_root: Path, env: Mapping[str, str]) -> tuple[MemoryStore, ...]:
    """The team memory mounts a session would take from `CLAUDE_MEMORY_STORES`."""
    settings = read_settings_file(config_root / "settings.json")
    settings_env = settings.env if settings is not None and isinstance(settings.env, dict) else {}
    return memory_stores(stores_setting(env, settings_env))


def read_settings_file(settings_file: Path) -> ClaudeSettings | None:
    """A Claude Code settings file, or None (missing, over 1 MiB, not a JSON object)."""
    try:  # without blocking: a FIFO named settings.json is refused at once
        data = read_regular_file(settings_file, limit=_SETTINGS_MAX_BYTES + 1, truncate=True)
    except OSError:
        return None
    if len(data) > _SETTINGS_MAX_BYTES:
        logger.info("Claude Code: %s is over 1 MiB; not read", settings_file)
        return None
    try:
        settings = parse_json(data)
    except JsonError as error:
        logger.info("Claude Code: cannot read %s: %s", settings_file, error)
        return None
    return ClaudeSettings.read(settings)


def memory_path(raw: object, home: str | None = None) -> Path | None:
    """A setting's value as Claude Code takes it (`~/` expanded), or None when it ignores it."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    value = raw
    if value.startswith(("~/", "~\\")):
        value = os.path.join(home or os.path.expanduser("~"), value[2:])
    normalized = os.path.normpath(value).rstrip("/\\")
    if (
        not os.path.isabs(normalized)
        or len(normalized) < 3
        or (len(normalized) == 2 and normalized[1] == ":")
        or normalized.startswith(("\\\\", "//"))
        or "\0" in normalized
    ):
        return None
    return Path(normalized)


def last_consolidated_ms(memory_dir: Path) -> int | None:
    """When Claude Code last consolidated the auto memory in `memory_dir` (ms), or None."""
    try:
        info = os.stat(memory_dir / CONSOLIDATE_LOCK, follow_symlinks=False)
    except OSError:
        return None
    return info.st_mtime_ns // 1_000_000
