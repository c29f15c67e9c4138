"""Whether Claude Code's sessions have auto memory at all, as `CLAUDE_CODE_DISABLE_AUTO_MEMORY`
decides before any setting, and where a session's local settings are (docs/formats.md §17.2,
§17.6)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.sources.claude.settings import read_settings_file

DISABLE_AUTO_MEMORY = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
_OFF = ("1", "true", "yes", "on")
_ON = ("0", "false", "no", "off")


@dataclass(frozen=True)
class AutoMemorySwitch:
    """`CLAUDE_CODE_DISABLE_AUTO_MEMORY` as a session has it (`off` or `on`), and where set."""

    state: Literal["off", "on"]
    value: str
    where: str

    @property
    def words(self) -> str:
        return f"{DISABLE_AUTO_MEMORY}={self.value} ({self.where})"

    @property
    def off_note(self) -> str:
        return f"Claude Code neither reads nor writes auto memory: {self.words}"


def auto_memory_switch(config_root: Path, env: Mapping[str, str]) -> AutoMemorySwitch | None:
    """The switch a session started with `env` has (the user's settings' `env` first), or None
    when it leaves auto memory to the settings."""
    settings_file = config_root / "settings.json"
    settings = read_settings_file(settings_file)
    settings_env = settings.env if settings is not None and isinstance(settings.env, dict) else {}
    from_settings = settings_env.get(DISABLE_AUTO_MEMORY)
    if isinstance(from_settings, str):
        value, where = from_settings, f"env of {settings_file}"
    elif DISABLE_AUTO_MEMORY in env:
        value, where = env[DISABLE_AUTO_MEMORY], "in the environment"
    else:
        return None
    word = value.strip().lower()
    if word in _OFF:
        return AutoMemorySwitch("off", value, where)
    if word in _ON:
        return AutoMemorySwitch("on", value, where)
    return None


def local_settings_root(cwd: Path, canonical_root: Path, user_home: Path) -> Path:
    """Where a session in `cwd` keeps its local settings: its canonical git root when another,
    not the home and the user's own; else `cwd`."""
    if canonical_root in (cwd, user_home):
        return cwd
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is None:  # no uid to check ownership with: the session directory
        return cwd
    try:
        owners = [os.stat(canonical_root).st_uid, os.lstat(canonical_root / ".git").st_uid]
        claude = canonical_root / ".claude"
        if os.path.lexists(claude):
            owners.append(os.lstat(claude).st_uid)
    except OSError:
        return cwd
    return canonical_root if all(owner == uid for owner in owners) else cwd
