"""Settings of the background memory writer: where it writes, how long a run may take,
when runs are dumped, and whether the app runs it at all.

They live in Memtab's `settings.json` (the file `memtab.llm.settings` keeps the provider
in) under a `"writer"` object; every key is optional and a bad value falls back to its
default with a logged warning, so a typo never stops the writer::

    {"provider": "anthropic", "writer": {"mode": "auto", "timeout_s": 60,
     "memory_path": "/memories/workspace/notes.md", "dump_successful_runs": false,
     "max_dumps": 50, "offline_notes": "suggest"}}

The interval (every N assistant turns) is not here: it is mux's
`taskSettings.memoryWriterIntervalMessages` in the home's `config.json` (SPEC §1).

`mode` decides what the app does when mux runs its own writer on the same home:
- `auto` (default): Memtab runs the writer for a workspace until it sees another process
  advance that workspace's state file; then it leaves that workspace to it (mux caches the
  state in memory and would overwrite Memtab's counts anyway, so both writing would
  double-run and double-write).
- `always`: Memtab runs regardless (for mux installs with System 1 turned off).
- `off`: the app never runs the writer; `memtab write` still works.

`offline_notes` decides what the offline writer (no model configured) does with its notes:
`suggest` (default) puts them in the workspace's review queue of suggested memories
(`memtab.writer.suggestions`); `write` writes them to the memory file directly. With a
model configured the writer always writes, as mux's does.
"""

from __future__ import annotations

import enum
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.llm.settings import load_settings_file, save_settings_section, settings_path
from memtab.llm.types import ProviderError
from memtab.store.paths import PathError, Scope, parse_file_path

logger = logging.getLogger(__name__)

DEFAULT_MEMORY_PATH = "/memories/workspace/notes.md"
# mux gives its (small, fast) model 10 s; real models behind a busy API need more.
DEFAULT_TIMEOUT_S = 60.0
MIN_TIMEOUT_S = 1.0
MAX_TIMEOUT_S = 900.0
DEFAULT_MAX_DUMPS = 50
SETTINGS_KEY = "writer"


class OfflineNotes(enum.StrEnum):
    """What the offline writer does with its notes (see the module docstring)."""

    SUGGEST = "suggest"
    WRITE = "write"


class WriterMode(enum.StrEnum):
    """Whether the app runs the writer (see the module docstring)."""

    AUTO = "auto"
    ALWAYS = "always"
    OFF = "off"


@dataclass(frozen=True)
class WriterSettings:
    """How the writer runs. `memory_path` is a file in the workspace scope."""

    mode: WriterMode = WriterMode.AUTO
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_path: str = DEFAULT_MEMORY_PATH
    dump_successful_runs: bool = False
    max_dumps: int = DEFAULT_MAX_DUMPS
    offline_notes: OfflineNotes = OfflineNotes.SUGGEST

    def __post_init__(self) -> None:
        problem = memory_path_problem(self.memory_path)
        if problem:
            raise ValueError(problem)
        if not MIN_TIMEOUT_S <= self.timeout_s <= MAX_TIMEOUT_S:
            raise ValueError(
                f"timeout_s must be between {MIN_TIMEOUT_S:g} and {MAX_TIMEOUT_S:g} seconds"
            )
        if self.max_dumps < 1:
            raise ValueError("max_dumps must be at least 1")


def memory_path_problem(raw: str) -> str | None:
    """Why `raw` cannot be the writer's target, or None: it must be a workspace-scope file."""
    try:
        path = parse_file_path(raw)
    except PathError as error:
        return str(error)
    if path.scope is not Scope.WORKSPACE:
        return f"The writer's memory file must be in the workspace scope, not {raw!r}"
    return None


def load_writer_settings(env: Mapping[str, str] | None = None) -> WriterSettings:
    """The writer settings from `settings.json`; defaults for anything missing or invalid."""
    path = settings_path(env)
    try:
        stored = load_settings_file(path)
    except ProviderError as error:
        logger.warning("Memory writer: using default settings (%s)", error.message)
        return WriterSettings()
    return parse_writer_settings(stored.get(SETTINGS_KEY), source=str(path))


def save_writer_settings(settings: WriterSettings, env: Mapping[str, str] | None = None) -> Path:
    """Store the writer settings in `settings.json` (the app re-reads them for each run)."""
    return save_settings_section(
        SETTINGS_KEY,
        {
            "mode": settings.mode.value,
            "timeout_s": settings.timeout_s,
            "memory_path": settings.memory_path,
            "dump_successful_runs": settings.dump_successful_runs,
            "max_dumps": settings.max_dumps,
            "offline_notes": settings.offline_notes.value,
        },
        env=env,
    )


def parse_writer_settings(raw: Any, *, source: str = "settings") -> WriterSettings:
    """Settings from the `"writer"` object; each invalid value is logged and defaulted."""
    if raw is None:
        return WriterSettings()
    if not isinstance(raw, dict):
        logger.warning("%s: 'writer' must be an object; using defaults", source)
        return WriterSettings()
    defaults = WriterSettings()
    values: dict[str, Any] = {}

    mode = raw.get("mode")
    if mode is not None:
        try:
            values["mode"] = WriterMode(str(mode).strip().lower())
        except ValueError:
            _warn(source, "mode", mode, "auto, always or off")

    timeout = raw.get("timeout_s")
    if timeout is not None:
        if _is_number(timeout) and MIN_TIMEOUT_S <= timeout <= MAX_TIMEOUT_S:
            values["timeout_s"] = float(timeout)
        else:
            _warn(source, "timeout_s", timeout, f"{MIN_TIMEOUT_S:g}–{MAX_TIMEOUT_S:g} seconds")

    memory_path = raw.get("memory_path")
    if memory_path is not None:
        problem = (
            memory_path_problem(memory_path) if isinstance(memory_path, str) else "not a string"
        )
        if problem is None:
            values["memory_path"] = memory_path.strip()
        else:
            _warn(source, "memory_path", memory_path, problem)

    dump = raw.get("dump_successful_runs")
    if dump is not None:
        if isinstance(dump, bool):
            values["dump_successful_runs"] = dump
        else:
            _warn(source, "dump_successful_runs", dump, "true or false")

    max_dumps = raw.get("max_dumps")
    if max_dumps is not None:
        if _is_number(max_dumps) and max_dumps >= 1:
            values["max_dumps"] = math.floor(max_dumps)
        else:
            _warn(source, "max_dumps", max_dumps, "a number of at least 1")

    offline_notes = raw.get("offline_notes")
    if offline_notes is not None:
        try:
            values["offline_notes"] = OfflineNotes(str(offline_notes).strip().lower())
        except ValueError:
            _warn(source, "offline_notes", offline_notes, "suggest or write")

    return WriterSettings(**{**defaults.__dict__, **values})


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _warn(source: str, key: str, value: Any, expected: str) -> None:
    logger.warning(
        "%s: writer.%s = %r is invalid (%s); using the default", source, key, value, expected
    )
