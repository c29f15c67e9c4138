"""Which files Gemini CLI reads into a session as it starts, in its order, with the files they
`@`-import (docs/formats.md §17.7; its bundle's `memoryDiscovery.js`,
`memoryImportProcessor.js`, `MemoryContextManager`).

At its start Gemini CLI finds four lists of files, and puts them in its prompt as
`flattenMemory` orders them:

1. *Global*: each context file name (`context.fileName`, then `GEMINI.md`) in
   `~/.gemini/`, when readable (`getGlobalMemoryPaths`);
2. *Private Project Memory*: the project's `MEMORY.md` in its private memory folder, else
   each context file name there (an older layout: `getUserProjectMemoryPaths`);
3. *Extension*: the context files of the active extensions (not read here);
4. *Project*, only in a trusted folder: for each workspace folder, the context files of
   that folder and of each folder above it up to the first holding a boundary marker
   (`.git` by default; none found: the folder alone; never `~/.gemini` itself), all the
   folders' files taken once by file identity and sorted by path (`getEnvironmentMemoryPaths`).

Each file is read whole — Gemini CLI cuts nothing — and its `@path` imports are inlined
(`processImports`, format `tree`): an `@` at the text's start or after a blank, followed by
a path starting with `.`, `/` or a letter up to the next blank; not inside a code span or
block (a run of backticks up to the same run); a URL, or a file outside the project root
of the importing file (the nearest folder above it with a boundary marker, else its own
folder; links resolved) is refused; a file is not imported again inside its own import
chain; at most 5 levels deep. `flat` lists every file once.

Sibling notes of the private memory are read only when `MEMORY.md` points to them (the
model reads them on demand), and subfolders' context files when Gemini CLI works there.
"""

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
    """A file Gemini CLI reads at the start: where, which list it is in, and (an import)
    which file imports it and at which line."""

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
    """The nearest folder from `start` up holding one of `markers` (`findProjectRoot`),
    or None (no marker, or none given)."""
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
    time (the pattern tries every shorter opening, each reading on to the end: quadratic on a
    long run of backticks). At a run of `r` backticks the pattern takes the longest opening
    `k ≤ r` that closes: with `k > r / 2` the first later run of at least `k` closes it (its
    first `k`); else `k = r // 2` closes inside the run itself; a lone backtick closes at the
    next one."""
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
    """Each file followed by what it imports: `tree`, depth first, a file not again inside
    its own chain, 5 levels at most; `flat`, each file once per importing context file, the
    imports of a file taken last first (`processFlat`), with no depth limit."""
    listed: list[ContextFile] = []
    for file in files:
        listed.append(file)
        root = boundary_root(file.path.parent, markers) or file.path.parent
        if import_format == "flat":
            seen = {file.path}
            listed.extend(_flat_imports(file, root, seen))
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
    """A context file's text as Gemini CLI reads it (UTF-8, a bad byte U+FFFD), None when
    it cannot be read by the readability rule (a FIFO is never waited for)."""
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
    """Whether a `MEMORY.md` text names the sibling note `name` (by name, or by the path
    its pointer lines give, which ends in it)."""
    return name in index_text


def named_notes(index_text: str, memory_dir: Path) -> list[Path]:
    """The sibling notes of the private memory a `MEMORY.md` text names (by name or by
    path, as its pointer lines do), in the order the folder lists them."""
    try:
        with os.scandir(memory_dir) as entries:
            names = sorted(
                e.name
                for e in entries
                if e.name.lower().endswith(".md")
                and e.name != "MEMORY.md"
                and not e.name.startswith(".")
                and e.is_file(follow_symlinks=False)
            )
    except OSError:
        return []
    return [memory_dir / name for name in names if named_in_index(index_text, name)]


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
