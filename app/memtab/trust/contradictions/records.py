"""What `memtab contradictions` finds, as records (docs/formats.md §19.6) — the CLI prints
them (`--json`, a stable contract), the window shows them.

A `Contradiction` is two lines, in two memories a session sees together, that state
different values for one thing: `kind` (`port`, `version`, `setting`, `command`, `path`,
`tool`, `always-never`), `about` what in words, each side (`ClaimedLine`: where it is,
its line and text, the value it states, when the line was written) and which is newer
(`newer`: `first`, `second`, or null when history cannot tell them apart).
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import Inlined, OmitNone, Record
from memtab.trust.records import MemoryPlace

ClaimKind = Literal["port", "version", "setting", "command", "path", "tool", "always-never"]


class ClaimedLine(Record, write_only=True):
    """One side of a contradiction: the memory and line, and what it states."""

    place: Annotated[MemoryPlace, Inlined]
    value: str
    written_at: int = 0
    """When the line was written (ms since the epoch): blame's time for it (history),
    else when the file last changed."""


class Contradiction(Record, write_only=True):
    """Two lines stating different values for one thing (see the module doc)."""

    kind: ClaimKind
    about: str
    first: ClaimedLine
    second: ClaimedLine
    newer: Annotated[Literal["first", "second"] | None, OmitNone] = None
    why: str = ""


class ContradictionsReport(Record, write_only=True):
    """`memtab contradictions --json`: every pair found, over how many memories."""

    contradictions: tuple[Contradiction, ...] = ()
    files_read: int = 0
    problems: tuple[str, ...] = ()
    """What could not be read (a scope, a source), one line each."""
