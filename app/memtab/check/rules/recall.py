"""Topic files Claude Code cannot recall well (docs/formats.md §19.3): one of the user's
own auto memory without a `description:` (`sources.claude.recall`: Claude Code picks the
topic files it reads for a prompt by file name and description)."""

from __future__ import annotations

from memtab.check.documents import Document
from memtab.check.findings import finding
from memtab.check.records import Finding
from memtab.sources.claude.recall import FRONTMATTER_LINES, RECALL_PICKS


def recall_findings(document: Document) -> list[Finding]:
    """The finding of a topic file that has no description, if it is one."""
    if document.recall_note is None:
        return []
    return [
        finding(
            document,
            None,
            "no-description",
            subject="description",
            message="Claude Code cannot recall this topic file well: it has no description",
            why="Claude Code reads only MEMORY.md at a session's start. For each prompt it "
            f"picks up to {RECALL_PICKS} topic files by their file name and the "
            f"`description:` of their frontmatter (in their first {FRONTMATTER_LINES} "
            "lines); this one has none, or an empty one, so only its name says what it "
            "holds. Give it a one-line `description:`.",
        )
    ]
