"""Settings of the background memory writer: where it writes, how long a run may take,
when runs are dumped, and whether the app runs it at all.

They live in Memtab's `settings.json` (the file `memtab.llm.settings` keeps the provider
in) under a `"writer"` object; every key is optional and a bad value falls back to its
default with a logged warning, so a typo never stops the writer (each setting's type and
range is declared once, in `config_model.WriterSection`; keys Memtab does not know are
kept when the section is saved)::

    {"provider": "anthropic", "writer": {"mode": "auto", "timeout_s": 60,
     "memory_path": "/memories/workspace/notes.md", "dump_successful_runs": false,
     "max_dumps": 50, "offline_notes": "suggest", "notify": false}}

The interval (every N assistant turns) is not here: it is mux's
`taskSettings.memoryWriterIntervalMessages` in the home's `config.json` (docs/formats.md §2.1).

`mode` decides what the app does when mux runs its own writer on the same home:
- `auto` (default): Memtab runs the writer for a workspace until it sees another process
  advance that workspace's state file; then it leaves that workspace to it (mux caches the
  state in memory and would overwrite Memtab's counts anyway, so both writing would
  double-run and double-write).
- `always`: Memtab runs regardless (for mux installs with System 1 turned off).
- `off`: the app never runs the writer; `memtab write` still works.

`offline_notes` decides what the offline writer (no model configured) does with its notes:
`suggest` (default) puts them in the workspace's review queue of suggested memories
(`memtab.writer.inbox.suggestions`); `write` writes them to the memory file directly. With a
model configured the writer always writes, as mux's does.

`notify` (off by default): the app shows a desktop notification when a run recorded or
suggested notes while its window was not in front.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
    settings_path,
)
from memtab.writer.config_values import (
    DEFAULT_MAX_DUMPS,
    DEFAULT_MEMORY_PATH,
    DEFAULT_TIMEOUT_S,
    OfflineNotes,
    WriterMode,
)

logger = logging.getLogger(__name__)

SETTINGS_KEY = "writer"


@dataclass(frozen=True)
class WriterSettings:
    """How the writer runs. `memory_path` is a file in the workspace scope.

    The values are checked against `config_model.WriterSection`, where each setting's
    type and range is declared (ValueError naming the setting otherwise).
    """

    mode: WriterMode = WriterMode.AUTO
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_path: str = DEFAULT_MEMORY_PATH
    dump_successful_runs: bool = False
    max_dumps: int = DEFAULT_MAX_DUMPS
    offline_notes: OfflineNotes = OfflineNotes.SUGGEST
    notify: bool = False

    def __post_init__(self) -> None:
        if all(getattr(self, f.name) == f.default for f in dataclasses.fields(self)):
            return  # the defaults are valid (a test checks it): pydantic need not load
        # lazy: pydantic (~9 MiB, ~150 ms): its models load with their first use
        from memtab.writer.config_model import problems_of  # pydantic: see config_model

        problems = problems_of(self.to_json())
        if problems:
            raise ValueError("; ".join(problems))

    def to_json(self) -> dict[str, Any]:
        """The settings as the `"writer"` object of settings.json holds them."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}


def load_writer_settings(env: Mapping[str, str] | None = None) -> WriterSettings:
    """The writer settings from `settings.json`; defaults for anything missing or invalid."""
    path = settings_path(env)
    try:
        stored = load_settings_file(path)
    except SettingsFileError as error:
        logger.warning("Memory writer: using default settings (%s)", error)
        return WriterSettings()
    return parse_writer_settings(stored.get(SETTINGS_KEY), source=str(path))


def save_writer_settings(settings: WriterSettings, env: Mapping[str, str] | None = None) -> Path:
    """Store the writer settings in `settings.json`, keeping keys of the section it does
    not know (the app re-reads them for each run)."""
    return save_settings_section(SETTINGS_KEY, settings.to_json(), env=env)


def parse_writer_settings(raw: Any, *, source: str = "settings") -> WriterSettings:
    """Settings from the `"writer"` object; each invalid value is logged and defaulted."""
    settings, problems = check_writer_settings(raw, source=source)
    for problem in problems:
        logger.warning("%s", problem)
    return settings


def check_writer_settings(
    raw: Any, *, source: str = "settings"
) -> tuple[WriterSettings, list[str]]:
    """Settings from the `"writer"` object, and one line per value replaced by its default."""
    if raw is None:
        return WriterSettings(), []
    if not isinstance(raw, dict):
        return WriterSettings(), [f"{source}: 'writer' must be an object; using defaults"]
    # lazy: pydantic (~9 MiB, ~150 ms): its models load with their first use
    from memtab.writer.config_model import read_writer_section  # pydantic: see config_model

    section, problems = read_writer_section(raw)
    settings = WriterSettings(**section.model_dump())
    return settings, [
        f"{source}: writer.{p.key} = {p.value!r} is invalid ({p.expected}); using the default"
        for p in problems
    ]
