"""What `memtab leaks` finds, as records (docs/formats.md §19.7) — the CLI prints them
(`--json`, a stable contract), the window shows them.

A `Leak` is a line of a memory that does not belong where it is: `kind` says why —
`other-project` (a project's memory naming another project's path, repository or host),
`project-in-global` (global memory, which every session loads, naming one project's),
`personal-path` (memory shared with collaborators naming a person's home folder),
`secret` (a secret-like value, anywhere) —, `names` what it names (a secret's value is
never written: its kind is), `belongs` where the memory belongs in words and
`belongs_to` the project whose memory it belongs in (null: nowhere it is written now —
a secret belongs in no memory), and `elsewhere` the other places of the same leak: the
memory's other lines naming the same project, Codex's imports of the memory holding the
same line (`MemoryPlace.imported`). A line's `text` has its secrets redacted.
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import Inlined, OmitEmpty, OmitNone, Record
from memtab.trust.records import MemoryPlace

LeakKind = Literal["other-project", "project-in-global", "personal-path", "secret"]


class Leak(Record, write_only=True):
    """A line of a memory that does not belong where it is (see the module doc)."""

    kind: LeakKind
    place: Annotated[MemoryPlace, Inlined]
    names: str
    belongs: str
    belongs_to: Annotated[str | None, OmitNone] = None
    why: str = ""
    elsewhere: Annotated[tuple[MemoryPlace, ...], OmitEmpty] = ()
    """The other places of the same leak (see the module doc)."""


class LeaksReport(Record, write_only=True):
    """`memtab leaks --json`: every leak found, over how many memories and projects."""

    leaks: tuple[Leak, ...] = ()
    files_read: int = 0
    projects: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
