"""The writer settings' values — defaults, ranges, the modes and the rule for the target file — that
`config.WriterSettings` declares its fields with, and that the writer's other modules and the
Settings dialog name without importing the settings' reader."""

from __future__ import annotations

import enum

from memtab.store.paths import PathError, Scope, parse_file_path

DEFAULT_MEMORY_PATH = "/memories/workspace/notes.md"
# mux gives its (small, fast) model 10 s; real models behind a busy API need more.
DEFAULT_TIMEOUT_S = 60.0
MIN_TIMEOUT_S = 1.0
MAX_TIMEOUT_S = 900.0
DEFAULT_MAX_DUMPS = 50
MOST_DUMPS_KEPT = 10_000


class OfflineNotes(enum.StrEnum):
    """What the offline writer does with its notes (see `writer.config`)."""

    SUGGEST = "suggest"
    WRITE = "write"


class WriterMode(enum.StrEnum):
    """Whether the app runs the writer (see `writer.config`)."""

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
