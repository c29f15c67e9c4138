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

import hashlib
from collections.abc import Sequence
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
    confirmed it — or, in `dismissed`, dismissed it (`trust.judging`)."""
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
    candidates: Annotated[tuple[DuplicateGroup, ...], OmitEmpty] = ()
    """Groups the words only suspect (a rewording, one rule said in other words): shown
    apart from `groups`, never counted as findings, never acted on in one click — the
    user's model judges them (`trust.judging`), or the user compares them."""
    dismissed: Annotated[tuple[DuplicateGroup, ...], OmitEmpty] = ()
    """Groups the words found and the user's model judged not the same, with its reason."""
    judged: Annotated[str, OmitEmpty] = ""
    """What the model's judging did, in words (empty: no model was asked)."""


def group_key(places: Sequence[MemoryPlace], contents: Sequence[bytes | str]) -> str:
    """A group's `key`: a digest of its members' places and what each holds."""
    digest = hashlib.blake2b(digest_size=12)
    for place, content in sorted(
        zip(places, contents, strict=True), key=lambda pair: (pair[0].path, pair[0].line or 0)
    ):
        digest.update(f"{place.path}\0{place.line or 0}\0".encode("utf-8", "surrogatepass"))
        digest.update(content if isinstance(content, bytes) else content.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def listed(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"
