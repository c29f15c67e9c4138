"""Claude Code's `@`-imports as links in the editor and its preview, no Qt: in the files it
follows them in (`reads_imports`), each `@path` is highlighted and followed by Ctrl+click
(`import_at`, `with_import_links`), by Claude Code's rule (`sources.claude.instructions`,
docs/formats.md §17.6)."""

from __future__ import annotations

import posixpath
from pathlib import Path

from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.markdown import LineKind, classify
from memtab.sources.claude.instructions import import_spans, import_target

IMPORT_HREF = "@"
"""How a link of the preview says it is an `@`-import (`@docs/style.md`)."""
_READERS = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"})
_NOT_PROSE = (LineKind.FRONTMATTER, LineKind.FENCE, LineKind.CODE)


def reads_imports(ref: MemoryFileRef | None) -> bool:
    """Whether Claude Code follows the `@`-imports of the file `ref` names: one of its
    instruction files or rules."""
    if ref is None or ref.agent != "claude-code":
        return False
    parts = posixpath.normpath(ref.path).split("/")
    return ref.name in _READERS or ("rules" in parts[:-1] and ref.name.endswith(".md"))


def import_at(line: str, column: int) -> str | None:
    """The `@`-import of a prose `line` at `column` (0-based), as written, or None."""
    for start, end, written in import_spans(line):
        if start <= column <= end:
            return written
    return None


def with_import_links(text: str) -> str:
    """`text` with each `@path` of its prose a Markdown link to `@path` (for the preview;
    code and the frontmatter as they are)."""
    lines = text.split("\n")
    for number, (line, found) in enumerate(zip(lines, classify(lines), strict=True)):
        if found.kind in _NOT_PROSE or "@" not in line:
            continue
        linked = line
        for start, end, written in reversed(import_spans(line)):
            link = f"[{line[start:end]}](<{IMPORT_HREF}{written}>)"
            linked = linked[:start] + link + linked[end:]
        lines[number] = linked
    return "\n".join(lines)


def import_file(written: str, importer: Path, user_home: Path) -> Path | None:
    """The file an `@`-import written `written` in the file at `importer` names (None: no
    text file it could be)."""
    return import_target(written, importer.parent, user_home)
