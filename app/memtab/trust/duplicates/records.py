"""What `memtab duplicates` finds, as records (docs/formats.md §19.5) — the CLI prints
them (`--json`, a stable contract), the window shows them.

A `DuplicateGroup` is memories that say the same thing: `kind` says how — `copy` (the
same text: a copy, Codex's import of a Claude Code memory, under other frontmatter or
other whitespace), `reworded` (the same note in other words) or `rule` (one rule written
in two memories or more, the line of each named) —, `similarity` how alike they are
(1.0 for copies), `why` in words, and `members` where each is (`MemoryPlace`: a line
for a rule). `key` names the group while its members hold what they hold (a digest of
their paths and texts), as the window's Keep remembers it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import OmitEmpty, Record
from memtab.trust.records import MemoryPlace

DuplicateKind = Literal["copy", "reworded", "rule"]


class DuplicateGroup(Record, checked_when_built=False):
    """Memories that say the same thing (see the module doc)."""

    kind: DuplicateKind
    similarity: float
    why: str
    members: tuple[MemoryPlace, ...]
    key: str = ""
    judged_by: str = "offline"
    """Who judged it: "offline" (the engine alone), or the name of the user's model that
    confirmed it — or, in `dismissed`, dismissed it (`trust.judge`)."""
    reason: Annotated[str, OmitEmpty] = ""
    """The model's one line on it."""


class DuplicatesReport(Record, checked_when_built=False):
    """`memtab duplicates --json`: every group found, over how many memories."""

    groups: tuple[DuplicateGroup, ...] = ()
    files_read: int = 0
    kept: int = 0
    """Groups the user chose to keep as they are (Keep in the window), left out."""
    problems: tuple[str, ...] = ()
    """What could not be read (a scope, a source), one line each."""
    dismissed: Annotated[tuple[DuplicateGroup, ...], OmitEmpty] = ()
    """Groups the words found and the user's model judged not the same, with its reason."""
    judged: Annotated[str, OmitEmpty] = ""
    """What the model's judging did, in words (empty: no model was asked)."""
