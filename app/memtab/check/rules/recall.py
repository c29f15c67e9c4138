"""Memory files their agent cannot find well (docs/formats.md §19.3): a topic file of Claude
Code's own auto memory without a `description:` (`sources.claude.recall`: Claude Code picks
the topic files it reads for a prompt by file name and description), and a note of Gemini
CLI's private memory its `MEMORY.md` names nowhere (Gemini CLI reads a note only when
`MEMORY.md` points to it: `sources.gemini.context_files`)."""

from __future__ import annotations

from memtab.check.documents import Document
from memtab.check.findings import Found, finding, found_in
from memtab.check.records import Finding
from memtab.sources.claude.recall import FRONTMATTER_LINES, RECALL_PICKS


def recall_found(document: Document) -> tuple[Found, ...]:
    """The finding of a topic file that has no description, if it is one (kept with the
    rules' findings of the file: worked out again only when its text changed)."""
    if document.recall_note is None:
        return ()
    return (
        found_in(
            "",
            (),
            None,
            "no-description",
            subject="description",
            message="Claude Code cannot recall this topic file well: it has no description",
            why="Claude Code reads only MEMORY.md at a session's start. For each prompt it "
            f"picks up to {RECALL_PICKS} topic files by their file name and the "
            f"`description:` of their frontmatter (in their first {FRONTMATTER_LINES} "
            "lines); this one has none, or an empty one, so only its name says what it "
            "holds. Give it a one-line `description:`.",
        ),
    )


def index_findings(document: Document) -> list[Finding]:
    """The finding of a Gemini CLI note no line of its `MEMORY.md` names, if it is one."""
    if document.index_note is None:
        return []
    return [
        finding(
            document,
            None,
            "not-in-index",
            subject="MEMORY.md",
            message="Gemini CLI never finds this note: MEMORY.md does not point to it",
            why="Gemini CLI loads only MEMORY.md of its private project memory at a "
            "session's start; its model reads a sibling note when a line of MEMORY.md "
            "points to it (by name or by path). No line names this one. Add a pointer line "
            "to MEMORY.md (`- See <path> for …`).",
        )
    ]
