"""Which files Gemini CLI reads into a session as it starts, in its `flattenMemory` order, with
the files they `@`-import (docs/formats.md §17.7): global, private project memory, and in a
trusted folder the project's, each read whole."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.readable import read_readable_path

MAX_IMPORT_DEPTH = 5
READ_LIMIT = 4 * 1024 * 1024
_URL = re.compile(r"^(file|https?)://")
_BACKTICKS = re.compile(r"`+")
_BLANKS = " \t\n\r"


@dataclass(frozen=True)
class ContextFile:
    """A file Gemini CLI reads at the start: where, its list, and which file imports it where."""

    path: Path
    tier: str
    """`global`, `memory` (the private index), `project`, or the importer's for imports."""
    imported_by: Path | None = None
    imported_at_line: int | None = None


def global_files(gemini_dir: Path, names: Sequence[str]) -> list[Path]:
    """The global context files that are readable, in the names' order."""
    return [gemini_dir / name for name in names if _readable(gemini_dir / name)]


def private_index(memory_dir: Path, names: Sequence[str]) -> list[Path]:
    """The private memory's `MEMORY.md`, else its context-named files (the older layout)."""
    index = memory_dir / "MEMORY.md"
    if _readable(index):
        return [index]
    return [memory_dir / name for name in names if _readable(memory_dir / name)]


def project_files(
    workspace_dirs: Sequence[Path], names: Sequence[str], markers: Sequence[str], gemini_dir: Path
) -> list[Path]:
    """The project's context files: each folder's upward walk, once each, sorted."""
    found: list[Path] = []
    for directory in workspace_dirs:
        start = Path(os.path.abspath(directory))
        ceiling = boundary_root(start, markers) or start
        found.extend(_upward(start, ceiling, names, gemini_dir))
    unique: list[Path] = []
    seen: set[tuple[int, int]] = set()
    for path in dict.fromkeys(found):
        try:
            info = os.stat(path)
        except OSError:
            unique.append(path)
            continue
        if (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            unique.append(path)
    return sorted(unique, key=str)


def boundary_root(start: Path, markers: Sequence[str]) -> Path | None:
    """The nearest folder from `start` up holding one of `markers`, or None."""
    usable = [m for m in markers if not os.path.isabs(m) and ".." not in m]
    if not markers:
        return None
    for directory in (start, *start.parents):
        if any(os.path.lexists(directory / marker) for marker in usable):
            return directory
    return None


def _upward(start: Path, ceiling: Path, names: Sequence[str], gemini_dir: Path) -> list[Path]:
    found: list[Path] = []
    for directory in (start, *start.parents):
        if directory == gemini_dir:
            break
        found[:0] = [directory / name for name in names if _readable(directory / name)]
        if directory == ceiling:
            break
    return found


def _readable(path: Path) -> bool:
    return os.access(path, os.R_OK) and not os.path.isdir(path)


# --- imports -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One `@path` of a text: the path as written, and the line it is on (1-based)."""

    path: str
    line: int
    start: int


def find_imports(text: str) -> list[Import]:
    """The `@path` imports of `text` outside code (`findImports`, `findCodeRegions`)."""
    regions = code_regions(text)
    found: list[Import] = []
    i = 0
    while True:
        i = text.find("@", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] not in _BLANKS:
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j] not in _BLANKS:
            j += 1
        path = text[i + 1 : j]
        shaped = path and (path[0] in "./" or "A" <= path[0] <= "Z" or "a" <= path[0] <= "z")
        if shaped and not any(start <= i < end for start, end in regions):
            found.append(Import(path, text.count("\n", 0, i) + 1, i))
        i = j + 1
    return found


def code_regions(text: str) -> list[tuple[int, int]]:
    """Where `text`'s code is, as Gemini CLI's ``/(`+)([\\s\\S]*?)\\1/g`` finds it, in linear
    time (the pattern itself is quadratic on a long run of backticks)."""
    runs = [(m.start(), m.end() - m.start()) for m in _BACKTICKS.finditer(text)]
    longest_after = [0] * (len(runs) + 1)
    for n in range(len(runs) - 1, -1, -1):
        longest_after[n] = max(runs[n][1], longest_after[n + 1])
    regions: list[tuple[int, int]] = []
    position, n = 0, 0
    while n < len(runs):
        start, length = runs[n]
        if start + length <= position:
            n += 1
            continue
        start = max(start, position)  # what is left of a run a region ended inside
        length = runs[n][0] + runs[n][1] - start
        opening = min(length, longest_after[n + 1])
        if opening * 2 > length:
            later = n + 1
            while runs[later][1] < opening:
                later += 1
            end = runs[later][0] + opening
        elif length >= 2:
            end = start + (length // 2) * 2
        else:
            break  # a lone backtick with none after it: no more code
        regions.append((start, end))
        position = end
    return regions


def with_imports(
    files: Sequence[ContextFile], markers: Sequence[str], import_format: str
) -> list[ContextFile]:
    """Each file followed by what it imports: `tree` depth first (5 levels, no cycles), or
    `flat` (`processFlat`)."""
    listed: list[ContextFile] = []
    for file in files:
        listed.append(file)
        root = boundary_root(file.path.parent, markers) or file.path.parent
        if import_format == "flat":
            listed.extend(_flat_imports(file, root, {file.path}))
        else:
            listed.extend(_tree_imports(file, root, set(), 0))
    return listed


def _imported(file: ContextFile, root: Path) -> list[tuple[Import, Path]]:
    """The imports of `file` Gemini CLI follows, with the path each resolves to."""
    text = read_text(file.path)
    if text is None:
        return []
    found = []
    for item in find_imports(text):
        target = Path(os.path.normpath(file.path.parent / item.path))
        if not _URL.match(item.path) and _inside(root, target) and target.is_file():
            found.append((item, target))
    return found


def _tree_imports(file: ContextFile, root: Path, chain: set[Path], depth: int) -> list[ContextFile]:
    if depth >= MAX_IMPORT_DEPTH:
        return []
    found: list[ContextFile] = []
    for item, target in _imported(file, root):
        if target in chain:
            continue
        imported = ContextFile(target, file.tier, file.path, item.line)
        found.append(imported)
        found.extend(_tree_imports(imported, root, {*chain, target}, depth + 1))
    return found


def _flat_imports(file: ContextFile, root: Path, seen: set[Path]) -> list[ContextFile]:
    found: list[ContextFile] = []
    for item, target in reversed(_imported(file, root)):
        if target in seen:
            continue
        seen.add(target)
        imported = ContextFile(target, file.tier, file.path, item.line)
        found.append(imported)
        found.extend(_flat_imports(imported, root, seen))
    return found


def _inside(root: Path, target: Path) -> bool:
    real_root, real = os.path.realpath(root), os.path.realpath(target)
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def read_text(path: Path) -> str | None:
    """A context file's text as Gemini CLI reads it, None when unreadable by the readability
    rule."""
    try:
        data = read_readable_path(path, limit=READ_LIMIT, follow_link=True)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace")


NOT_IN_INDEX_LABEL = "not in index"
NOT_IN_INDEX = (
    "no line of MEMORY.md names it: Gemini CLI reads a note of its private memory only when "
    "MEMORY.md points to it, so it never finds this one. Add a pointer line to MEMORY.md "
    "(`- See <path> for …`)"
)


def named_in_index(index_text: str, name: str) -> bool:
    """Whether a `MEMORY.md` text names the sibling note `name` (by name or path)."""
    return name in index_text


def named_notes(index_text: str, memory_dir: Path) -> list[Path]:
    """The sibling notes a `MEMORY.md` text names, in the folder's order."""
    return [note for note in sibling_notes(memory_dir) if named_in_index(index_text, note.name)]


def sibling_notes(memory_dir: Path) -> list[Path]:
    """Every sibling note of the private memory (`*.md` but `MEMORY.md`, no dot name)."""
    try:
        with os.scandir(memory_dir) as entries:
            return sorted(
                memory_dir / e.name
                for e in entries
                if e.name.lower().endswith(".md")
                and e.name != "MEMORY.md"
                and not e.name.startswith(".")
                and e.is_file(follow_symlinks=False)
            )
    except OSError:
        return []
