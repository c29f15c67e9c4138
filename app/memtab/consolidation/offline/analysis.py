"""One memory file as the offline consolidator's planner sees it (`FileAnalysis`: its units, size,
coverage, description, note type and keeper rank, each computed once), and which files other memory
files link to or name (`referenced_paths`: never deleted)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from memtab.consolidation.offline.combine import keeper_rank
from memtab.consolidation.offline.inputs import MemoryFile
from memtab.consolidation.offline.units import (
    Coverage,
    compared_lines,
    coverage_of,
    split_units,
    text_size,
)
from memtab.store.text.frontmatter import description_from_text, description_prefix

_FRONTMATTER_TYPE = re.compile(r"^type:\s*+(\S.*)", re.MULTILINE)  # the rest of its line
# Markdown links, wiki links and bare `name.md` mentions: files named this way are never
# deleted (an index such as Claude Code's MEMORY.md would point at nothing). A wiki link
# names a page without its extension.
# A mention is looked for from where its run of name characters begins only (from each of
# them, a long run was read to its end again: quadratic).
_REFERENCE = re.compile(r"\]\(\s*<?([^)>\s#?]+)|\[\[([^\]|#]+)|(?<![\w.\-/])([\w.\-/]+\.md)\b")


def short(path: str) -> str:
    """A virtual path as the summary names it: `project/testing.md`."""
    return path.removeprefix("/memories/")


class FileAnalysis:
    """One readable Markdown file as the planner sees it."""

    def __init__(self, file: MemoryFile) -> None:
        assert file.lines is not None
        self.file = file
        self.lines: tuple[str, ...] = file.lines
        self.units = split_units(file.lines)

    @property
    def path(self) -> str:
        return self.file.path

    @cached_property
    def size(self) -> int:
        return text_size(self.lines)

    @cached_property
    def coverage(self) -> Coverage:
        return coverage_of(self.units)

    @cached_property
    def content_count(self) -> int:
        return sum(1 for unit in self.units if unit.substantive)

    @property
    def empty(self) -> bool:
        return all(not line.strip() for line in self.lines)

    @property
    def changeable(self) -> bool:
        """May the offline consolidator edit or delete it at all."""
        return not self.file.pinned

    @cached_property
    def description(self) -> str:
        return description_from_text(description_prefix("\n".join(self.lines)))

    @cached_property
    def note_type(self) -> str:
        """The frontmatter `type:` (Claude Code: feedback, project, reference…), or ""."""
        frontmatter = [unit for unit in self.units if unit.kind == "frontmatter"]
        if not frontmatter:
            return ""
        block = "\n".join(self.lines[frontmatter[0].start : frontmatter[0].end])
        match = _FRONTMATTER_TYPE.search(block)
        return match.group(1).rstrip().strip("'\"").lower() if match else ""

    @cached_property
    def body_lines(self) -> set[str]:
        """Its non-blank lines outside frontmatter, as compared."""
        return compared_lines(self.lines, self.units)

    def rank(self) -> tuple[Any, ...]:
        return keeper_rank(
            path=self.path,
            pinned=self.file.pinned,
            described=bool(self.description),
            uses=self.file.uses,
            content_count=self.content_count,
        )


def referenced_paths(analyses: Iterable[FileAnalysis]) -> set[str]:
    """Virtual paths that some other memory file links to or names: a link or a bare
    `name.md` resolves against the folder of the file that mentions it, and against its
    scope root (`rollout_summaries/x.md` in Codex's MEMORY.md)."""
    found: set[str] = set()
    for analysis in analyses:
        scope_root = analysis.file.scope.virtual_root
        folder = analysis.path.rsplit("/", 1)[0]
        text = "\n".join(analysis.lines)
        if "](" not in text and "[[" not in text and ".md" not in text:
            continue  # nothing the pattern could match: skip its slow scan
        for match in _REFERENCE.finditer(text):
            link, wiki, mention = match.groups()
            target = (link or mention or f"{wiki}.md").strip()
            for base in (folder, scope_root):
                resolved = posixpath.normpath(posixpath.join(base, target))
                if resolved != analysis.path and resolved.startswith(scope_root + "/"):
                    found.add(resolved)
    return found
