"""Settings of the background memory writer: where it writes, how long a run may take, when runs are
dumped, and whether the app runs it at all (docs/formats.md §15.1, §2.1)."""

from __future__ import annotations

import enum
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
    settings_path,
)
from memtab.fs.records import Checked, Healed, Key, Record, RecordError
from memtab.store.paths import PathError, Scope, parse_file_path

logger = logging.getLogger(__name__)

SETTINGS_KEY = "writer"

DEFAULT_MEMORY_PATH = "/memories/workspace/notes.md"
# mux gives its (small, fast) model 10 s; real models behind a busy API need more.
DEFAULT_TIMEOUT_S = 60.0
LOCAL_TIMEOUT_S = 300.0
"""A run's limit on a model server on this machine, when the user sets none: the dream's (as
mux's); a CPU reads a short prompt in minutes, and each run is sized to it (§10.2, "Time")."""
MIN_TIMEOUT_S = 1.0
MAX_TIMEOUT_S = 900.0
DEFAULT_MAX_DUMPS = 50
MOST_DUMPS_KEPT = 10_000


class OfflineNotes(enum.StrEnum):
    """What the offline writer does with its notes."""

    SUGGEST = "suggest"
    WRITE = "write"


class WriterMode(enum.StrEnum):
    """Whether the app runs the writer."""

    AUTO = "auto"
    ALWAYS = "always"
    OFF = "off"


def memory_path_problem(raw: str) -> str | None:
    """Why `raw` cannot be the writer's target, or None: it must be a workspace-scope file."""
    try:
        path = parse_file_path(raw)
    except PathError as error:
        return str(error)
    if path.scope is not Scope.WORKSPACE:
        return f"The writer's memory file must be in the workspace scope, not {raw!r}"
    return None


def _any_case(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _whole_number(value: Any) -> Any:
    """A count written as 7.9 means 7 (hand-edited files, JSON writers that emit floats)."""
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value)
    return value


@dataclass(frozen=True)
class _Within:
    """A number from `least` to `most`, NaN refused; the Settings dialog's ranges too."""

    least: float
    most: float

    def __call__(self, value: float | None) -> float | None:
        if value is not None and not self.least <= value <= self.most:
            raise ValueError(f"not from {self.least:g} to {self.most:g}")
        return value


def _workspace_file(value: str) -> str:
    problem = memory_path_problem(value.strip())
    if problem:
        raise ValueError(problem)
    return value.strip()


class WriterSettings(Record):
    """How the writer runs: the `"writer"` object of settings.json (docs/formats.md §15.1;
    its keys are snake_case). `memory_path` is a file in the workspace scope. Built with a
    bad value it raises RecordError (a ValueError) naming the setting; read from the file,
    each bad value is left at its default (`check_writer_settings`)."""

    mode: Annotated[WriterMode, Healed(_any_case)] = WriterMode.AUTO
    timeout_s: Annotated[
        float | None, Checked(_Within(MIN_TIMEOUT_S, MAX_TIMEOUT_S)), Key("timeout_s")
    ] = None
    """A run's time limit; None (null): `limit_s`'s default for the run's model."""
    memory_path: Annotated[str, Checked(_workspace_file), Key("memory_path")] = DEFAULT_MEMORY_PATH
    dump_successful_runs: Annotated[bool, Key("dump_successful_runs")] = True
    """Every run leaves its trace, which Runs… links to (False: a failed run's alone)."""
    max_dumps: Annotated[
        int, Healed(_whole_number), Checked(_Within(1, MOST_DUMPS_KEPT)), Key("max_dumps")
    ] = DEFAULT_MAX_DUMPS
    offline_notes: Annotated[OfflineNotes, Healed(_any_case), Key("offline_notes")] = (
        OfflineNotes.SUGGEST
    )
    notify: bool = False

    def limit_s(self, *, local: bool) -> float:
        """A run's time limit: the user's, else `LOCAL_TIMEOUT_S` on a model server on this
        machine (`local`), `DEFAULT_TIMEOUT_S` otherwise."""
        if self.timeout_s is not None:
            return self.timeout_s
        return LOCAL_TIMEOUT_S if local else DEFAULT_TIMEOUT_S


# What a number's unit is, in the warning that its value was replaced.
_UNITS = {"timeout_s": " seconds"}


def number_range(key: str) -> tuple[float, float]:
    """The lowest and highest value a numeric setting takes (for spin boxes)."""
    declared = next(f for f in WriterSettings.fields() if f.name == key)
    within = next(
        m.check for m in declared.markers if isinstance(m, Checked) and isinstance(m.check, _Within)
    )
    return float(within.least), float(within.most)


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
    values, lines = dict(raw), []
    for problem in WriterSettings.read_problems(values):
        key = str(problem.where[0])
        lines.append(
            f"{source}: writer.{key} = {values.pop(key)!r} is invalid "
            f"({_expected(key, problem)}); using the default"
        )
    return WriterSettings.read_or_raise(values), lines


def _expected(key: str, problem: RecordError) -> str:
    """What `key` takes, in words, for the warning that its value was replaced."""
    kind = next(f.type for f in WriterSettings.fields() if f.key == key)
    if isinstance(kind, type) and issubclass(kind, WriterMode | OfflineNotes):
        names = [member.value for member in kind]
        return f"{', '.join(names[:-1])} or {names[-1]}"
    if kind is bool:
        return "true or false"
    if kind in (int, float, float | None):
        low, high = number_range(key)
        whole = "a whole number" if kind is int else "a number"
        return f"{whole} from {low:g} to {high:g}{_UNITS.get(key, '')}"
    return problem.reason if isinstance(problem.value, str) else "a string"
