"""What `memtab contradictions` finds, as records (docs/formats.md §19.6) — the CLI prints
them (`--json`, a stable contract), the window shows them.

A `Contradiction` is one disagreement: memories a session sees together that state
different values for one thing — `kind` (`port`, `version`,
`setting`, `command`, `path`, `tool`, `always-never`), `about` what in words, each side
(`ClaimedLine`: the value it states, the newest place it is said — its memory, line and
text, when the line was written — and `elsewhere` every other place the same value is
said, copies of one memory, one rule in three projects), which is newer (`newer`:
`first`, `second`, or null when history cannot tell them apart), and `others` every
other value said of it. Copies of a side are one side, never a pair each; a thing said
three ways is one contradiction, never three.
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import Inlined, OmitEmpty, OmitNone, Record
from memtab.trust.records import MemoryPlace

ClaimKind = Literal[
    "port", "version", "setting", "command", "path", "tool", "always-never", "value"
]


class SaidAt(Record, write_only=True):
    """Another place a side of a contradiction is said: the memory and line, and when
    the line was written (as `ClaimedLine.written_at`)."""

    place: Annotated[MemoryPlace, Inlined]
    written_at: int = 0


class ClaimedLine(Record, write_only=True):
    """One side of a contradiction: its newest place, what it states, and every other
    place the same line is said (newest first)."""

    place: Annotated[MemoryPlace, Inlined]
    value: str
    written_at: int = 0
    """When the line was written (ms since the epoch): blame's time for it (history),
    else when the file last changed."""
    elsewhere: Annotated[tuple[SaidAt, ...], OmitEmpty] = ()
    more_places: Annotated[int | None, OmitNone] = None
    """Places that say it past the `MAX_PLACES` listed (None: every place is listed)."""

    @property
    def places(self) -> tuple[MemoryPlace, ...]:
        """Every place the side is said, its newest first."""
        return (self.place, *(said.place for said in self.elsewhere))


class Contradiction(Record, write_only=True):
    """Two statements of different values for one thing (see the module doc)."""

    kind: ClaimKind
    about: str
    first: ClaimedLine
    second: ClaimedLine
    newer: Annotated[Literal["first", "second"] | None, OmitNone] = None
    why: str = ""
    others: Annotated[tuple[ClaimedLine, ...], OmitEmpty] = ()
    """The other values said of the same thing, in memories seen with a place of the
    first or second (a thing said three ways or more is one contradiction)."""
    more_values: Annotated[int | None, OmitNone] = None
    """Values said past those listed (None: every value is listed)."""
    judged_by: str = "offline"
    """Who judged it: "offline" (the engine alone), or the name of the user's model that
    confirmed it — or, in `dismissed`, dismissed it (`trust.judging`)."""
    reason: Annotated[str, OmitEmpty] = ""
    """The model's one line on it."""


class ContradictionsReport(Record, write_only=True):
    """`memtab contradictions --json`: every disagreement found, over how many memories."""

    contradictions: tuple[Contradiction, ...] = ()
    files_read: int = 0
    problems: tuple[str, ...] = ()
    """What could not be read (a scope, a source), one line each."""
    cut: Annotated[str, OmitEmpty] = ""
    """Why the answer is not whole, in words: the search stopped at its time bound, or
    more contradictions were found than are listed."""
    candidates: Annotated[tuple[Contradiction, ...], OmitEmpty] = ()
    """Disagreements the words only suspect (an always/never rule, a tool choice they
    cannot pin to one thing): shown apart, never counted as findings — the user's model
    judges them (`trust.judging`), or the user compares them."""
    dismissed: Annotated[tuple[Contradiction, ...], OmitEmpty] = ()
    """Contradictions the claims found and the user's model judged no contradiction."""
    judged: Annotated[str, OmitEmpty] = ""
    """What the model's judging did, in words (empty: no model was asked)."""
