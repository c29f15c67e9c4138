"""The files `memtab loads` finds an agent reads at a session's start, as `loaded` rows of its
recall."""

from __future__ import annotations

from memtab.loads.recall.records import RecallFile
from memtab.loads.records import AgentLoads, LoadedFile


def loaded_files(loads: AgentLoads) -> list[RecallFile]:
    """The files `loads` reads at the start, each `loaded` (with where it stops)."""
    return [_loaded(file) for file in loads.files if file.when == "start"]


def _loaded(file: LoadedFile) -> RecallFile:
    cut = file.cut_at_line is not None
    reason = "Read at the start of every session, whatever the prompt"
    if cut:
        reason += f" — up to line {file.loaded_lines}"
    return RecallFile(
        path=file.path,
        id=file.id,
        physical_path=file.physical_path,
        name=file.id or file.path or "",
        kind=file.kind,
        verdict="loaded",
        reason=reason,
        first_line=1 if cut else None,
        last_line=file.loaded_lines if cut else None,
        cut_reason=file.cut_reason,
    )
