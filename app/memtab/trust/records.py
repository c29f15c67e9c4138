"""Where a memory is, as every trust command's `--json` names it (docs/formats.md §19.5).

A `MemoryPlace` names a memory file as `memtab check` names it — a virtual path for mux's
files, another agent's file id — with its agent, scope, project and workspace, when it was
last changed (`modifiedAt`, ms since the epoch), for a place in a file its line and the
line's text, and for Codex's copy of a Claude Code memory file what it is (`imported`:
"imported from Claude Code (cwd …)"). The commands' own records (`trust.duplicates.records`,
`trust.contradictions.records`, `trust.leaks.records`) are built of it.
"""

from __future__ import annotations

from typing import Annotated

from memtab.check.records import Agent, FindingScope
from memtab.fs.records import OmitEmpty, OmitNone, Record


class MemoryPlace(Record, checked_when_built=False):
    """A memory file, or a line of one (see the module doc)."""

    path: str
    agent: Agent
    scope: FindingScope
    line: Annotated[int | None, OmitNone] = None
    text: Annotated[str, OmitEmpty] = ""
    project: Annotated[str | None, OmitNone] = None
    workspace: Annotated[str | None, OmitNone] = None
    modified_at: int = 0
    imported: Annotated[str, OmitEmpty] = ""
