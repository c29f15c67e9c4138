"""Where trace dumps live and what they are called (docs/formats.md §10.3). A dump is
`<home>/debug_obj/<workspaceId>/system1_memory_writer/<runStartedAt>_<id>.json`, where `<id>` is the
trigger message id with every run of characters outside `[a-zA-Z0-9_.-]` replaced by `_`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

MAX_MESSAGE_ID_CHARS = 120
_UNSAFE_NAME_CHARS = re.compile(r"[^a-zA-Z0-9_.-]+")
_TRACE_FILE_NAME = re.compile(r"(\d+)_(.*)\.json")


class TraceFileName(NamedTuple):
    """What a dump's file name says about the run."""

    run_started_at: int
    """ms since the epoch."""
    trigger: str | None
    """The trigger message id as sanitized into the name (None when empty)."""


def trace_file_name(run_started_at: int, message_id: str) -> str:
    """`<runStartedAt>_<message id, sanitized and cut to 120 characters>.json`."""
    safe = _UNSAFE_NAME_CHARS.sub("_", message_id)[:MAX_MESSAGE_ID_CHARS]
    return f"{run_started_at}_{safe}.json"


def parse_trace_file_name(name: str) -> TraceFileName | None:
    """The run start and trigger a dump's name holds, or None for any other name."""
    match = _TRACE_FILE_NAME.fullmatch(name)
    if match is None:
        return None
    return TraceFileName(int(match.group(1)), match.group(2) or None)


def trace_workspace_id(path: Path) -> str:
    """The workspace a dump belongs to, by its folder (`debug_obj/<id>/<writer folder>/`)."""
    return path.parent.parent.name
