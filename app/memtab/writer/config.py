"""Settings of the background memory writer: where it writes, how long a run may take, when runs are
dumped, and whether the app runs it at all (docs/formats.md §15.1, §2.1)."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.config.declared import DeclaredSection, Setting
from memtab.fs.records import Checked, Healed
from memtab.store.paths import PathError, Scope, parse_file_path

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


def _workspace_file(value: str) -> str:
    problem = memory_path_problem(value.strip())
    if problem:
        raise ValueError(problem)
    return value.strip()


class WriterSettings(DeclaredSection):
    """How the writer runs: the `"writer"` object of settings.json (docs/formats.md §15.1). Built
    with a bad value it raises RecordError (a ValueError) naming the setting; read from the file,
    each bad value is left at its default (`DeclaredSection.load`)."""

    SECTION = "writer"

    mode: Annotated[
        WriterMode,
        Healed(_any_case),
        Setting(
            "mode",
            "&Runs:",
            "mux can run its own memory writer (System 1) on the same home. In Automatic mode, "
            "when Memtab sees mux advance a workspace's writer state it stops writing that "
            "workspace, so notes are not written twice and mux's counts are not overwritten.",
            choices={
                "auto": "Automatic — step aside where mux runs its own writer",
                "always": "Always — also on workspaces mux writes",
                "off": "Off — only `memtab write` runs it",
            },
            title="Writer mode",
        ),
    ] = WriterMode.AUTO
    timeout_s: Annotated[
        float | None,
        Setting(
            "timeout_s",
            "&Timeout per run:",
            "How long one run may take (null: sized to the model, 60 s; 300 s on this machine)",
            within=(MIN_TIMEOUT_S, MAX_TIMEOUT_S),
            unit="s",
            unset=f"Automatic ({DEFAULT_TIMEOUT_S:g} s; {LOCAL_TIMEOUT_S:g} s with a model on this "
            "machine)",
            title="Writer timeout",
        ),
    ] = None
    """A run's time limit; None (null): `limit_s`'s default for the run's model."""
    memory_path: Annotated[
        str,
        Checked(_workspace_file),
        Setting(
            "memory_path",
            "Memory &file:",
            "The workspace-scope file the writer adds its notes to",
            title="Writer memory file",
        ),
    ] = DEFAULT_MEMORY_PATH
    dump_successful_runs: Annotated[
        bool,
        Setting(
            "dump_successful_runs",
            "Also keep trace dumps of successful runs",
            "Every run leaves its trace, which Runs… links to (false: a failed run's alone)",
        ),
    ] = True
    max_dumps: Annotated[
        int,
        Healed(_whole_number),
        Setting(
            "max_dumps",
            "Trace dumps &kept:",
            "How many runs' trace dumps a workspace keeps",
            within=(1, MOST_DUMPS_KEPT),
            title="Trace dumps kept per workspace",
            row=1,  # under Offline notes
        ),
    ] = DEFAULT_MAX_DUMPS
    offline_notes: Annotated[
        OfflineNotes,
        Healed(_any_case),
        Setting(
            "offline_notes",
            "&Offline notes:",
            "What the writer does with its notes when no model is configured",
            choices={
                "suggest": "Suggest — queue them for review (the Inbox, `memtab inbox`)",
                "write": "Write — add them to the memory file directly",
            },
            title="Offline writer notes",
        ),
    ] = OfflineNotes.SUGGEST
    notify: Annotated[
        bool,
        Setting(
            "notify",
            "Notify me when it records notes while Memtab is not in front",
            "A desktop notification when a run records or suggests notes",
        ),
    ] = False

    def limit_s(self, *, local: bool) -> float:
        """A run's time limit: the user's, else `LOCAL_TIMEOUT_S` on a model server on this
        machine (`local`), `DEFAULT_TIMEOUT_S` otherwise."""
        if self.timeout_s is not None:
            return self.timeout_s
        return LOCAL_TIMEOUT_S if local else DEFAULT_TIMEOUT_S


def load_writer_settings(env: Mapping[str, str] | None = None) -> WriterSettings:
    """The writer settings from `settings.json`; defaults for anything missing or invalid."""
    return WriterSettings.load(env)


def save_writer_settings(settings: WriterSettings, env: Mapping[str, str] | None = None) -> Path:
    """Store the writer settings (the app re-reads them for each run)."""
    return settings.save(env)
