"""Codex's `memory_summary.md` without its first line `v1` (docs/formats.md §19.3).

Codex's consolidation reads its summary only when the first line is exactly `v1`; without
it, it writes the whole summary again from scratch — what it says now is lost — and counts
the run as failed (`sources.codex.summary`, §17.3). Memtab never saves one so; Codex, a
text editor or another program may. The finding is on line 1 (none in an empty file), and
its fix makes that line `v1` when it nearly is (a BOM, spaces, `V1`), else puts `v1` above.
"""

from __future__ import annotations

from dataclasses import dataclass

from memtab.check.documents import Document
from memtab.sources.codex.summary import (
    SUMMARY_FILE_ID,
    VERSION_LINE,
    first_line,
    has_version_line,
)


@dataclass(frozen=True)
class MissingVersionLine:
    line: int | None
    fix: tuple[str, str] | None


def missing_version_line(document: Document) -> MissingVersionLine | None:
    """Whether `document` is Codex's summary without its `v1` line, and the fix."""
    if document.path != SUMMARY_FILE_ID:
        return None
    text = document.text
    if has_version_line(text):
        return None
    line = first_line(text)
    if line is None:
        return MissingVersionLine(None, None)
    if line.strip().lstrip("\ufeff").strip().casefold() == VERSION_LINE:
        return MissingVersionLine(1, ("Make the first line exactly `v1`", VERSION_LINE))
    return MissingVersionLine(1, ("Put the line `v1` above it", f"{VERSION_LINE}\n{line}"))


MESSAGE = "Codex's memory_summary.md does not begin with the line `v1`"
WHY = (
    "Codex's consolidation reads its summary only when the first line is exactly `v1`; "
    "without it, it writes the whole summary again from scratch, so what this one says is "
    "lost, and counts the run as failed. Sessions read the file as it is until then."
)
