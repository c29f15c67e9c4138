"""The instruction files Claude Code reads at the start of a session in a directory, in its
order, with their `@`-imports and `AGENTS.md` as its `instructionFiles` option says
(docs/formats.md §17.6)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.fs.readable import read_readable_path
from memtab.markdown import LineKind, classify
from memtab.sources.claude.settings import read_settings_file
from memtab.store.paths import MAX_PATH_DEPTH
from memtab.store.text.frontmatter import frontmatter_block

InstructionMode = Literal[
    "claude-md", "claude-md-or-agents-md", "claude-md-and-agents-md", "managed-only"
]
MODES: tuple[InstructionMode, ...] = (
    "claude-md",
    "claude-md-or-agents-md",
    "claude-md-and-agents-md",
    "managed-only",
)
DEFAULT_MODE: InstructionMode = "claude-md-or-agents-md"
MAX_IMPORT_DEPTH = 5
_MAX_READ_BYTES = 1024 * 1024

Kind = Literal["managed", "user", "project", "local", "memory"]
_OWN_INSTRUCTIONS = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
_AGENTS_FILES = ("AGENTS.md", ".claude/AGENTS.md")
_PATHS_KEY = re.compile(r"(?m)^paths\s*:")
_IMPORT = re.compile(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_RELATIVE_IMPORT = re.compile(r"[A-Za-z0-9._-]")
_TEXT_SUFFIX_WORDS = """
    .md .markdown .txt .text .rst .adoc .json .yaml .yml .toml .ini .cfg .conf .xml .csv
    .py .js .ts .tsx .jsx .sh .go .rs .java .rb .sql .html .css
"""
_TEXT_SUFFIXES = frozenset(_TEXT_SUFFIX_WORDS.split())


@dataclass(frozen=True)
class InstructionFile:
    """One file Claude Code reads, why, and (for an import) which file imported it."""

    path: Path
    kind: Kind
    imported_by: Path | None = None
    imported_at_line: int | None = None
    """The line of `imported_by` that imports it (1-based)."""


def instruction_mode(settings_files: Sequence[Path]) -> tuple[InstructionMode, Path | None]:
    """The `instructionFiles` value in effect (first set wins) and the file that set it."""
    for settings_file in settings_files:
        settings = read_settings_file(settings_file)
        if settings is None:
            continue
        raw = settings.instruction_files_option
        if raw is not None:
            return next((m for m in MODES if m == raw), DEFAULT_MODE), settings_file
    return DEFAULT_MODE, None


def instruction_files(
    *,
    cwd: Path | None,
    config_root: Path | None,
    managed_dir: Path | None,
    user_home: Path,
    mode: InstructionMode,
) -> list[InstructionFile]:
    """The instruction files (not auto memory) read at a session start in `cwd`, in order."""
    found: list[InstructionFile] = []
    seen: set[str] = set()

    def add(path: Path, kind: Kind) -> None:
        if _is_file(path) and _key(path) not in seen:
            _add_with_imports(found, seen, path, kind, None, user_home, 0)

    if managed_dir is not None:
        add(managed_dir / "CLAUDE.md", "managed")
        for rule in _rules(managed_dir / ".claude" / "rules"):
            add(rule, "managed")
    if mode != "managed-only" and config_root is not None:
        add(config_root / "CLAUDE.md", "user")
        for rule in _rules(config_root / "rules"):
            add(rule, "user")
    if mode == "managed-only" or cwd is None:
        return found
    directories = [*reversed(cwd.parents), cwd][1:]  # root excluded, down to cwd
    own = any(_is_file(d / name) for d in directories for name in _OWN_INSTRUCTIONS)
    with_agents = mode == "claude-md-and-agents-md" or (mode == DEFAULT_MODE and not own)
    for directory in directories:
        add(directory / "CLAUDE.md", "project")
        add(directory / ".claude" / "CLAUDE.md", "project")
        for rule in _rules(directory / ".claude" / "rules"):
            add(rule, "project")
        add(directory / "CLAUDE.local.md", "local")
        if with_agents:
            for name in _AGENTS_FILES:
                agents = directory / name
                if not _same_as_loaded(agents, found):
                    add(agents, "project")
    return found


def _add_with_imports(
    found: list[InstructionFile],
    seen: set[str],
    path: Path,
    kind: Kind,
    parent: tuple[Path, int] | None,
    user_home: Path,
    depth: int,
) -> None:
    seen.add(_key(path))
    found.append(InstructionFile(path, kind, *(parent or (None, None))))
    if depth >= MAX_IMPORT_DEPTH:
        return
    for target, line in imports_with_lines(_read(path), path.parent, user_home):
        if _is_file(target) and _key(target) not in seen:
            _add_with_imports(found, seen, target, kind, (path, line), user_home, depth + 1)


_NOT_PROSE = (LineKind.FRONTMATTER, LineKind.FENCE, LineKind.CODE)


def imports_of(text: str, base: Path, user_home: Path) -> Iterator[Path]:
    """The files `text` `@`-imports, resolved (`imports_with_lines`)."""
    for target, _line in imports_with_lines(text, base, user_home):
        yield target


def imports_with_lines(text: str, base: Path, user_home: Path) -> Iterator[tuple[Path, int]]:
    """The files `text` `@`-imports, resolved, each with its 1-based line; never in frontmatter,
    code or a code span; text files only."""
    lines = text.splitlines()
    for number, (line, found) in enumerate(zip(lines, classify(lines), strict=True), 1):
        if found.kind in _NOT_PROSE:
            continue
        for _start, _end, written in import_spans(line):
            target = import_target(written, base, user_home)
            if target is not None:
                yield target, number


def import_spans(line: str) -> list[tuple[int, int, str]]:
    """Where one prose line `@`-imports: (start, end) of each `@path` and the path, outside code
    spans."""
    prose = _CODE_SPAN.sub(lambda code: " " * len(code.group(0)), line)
    return [(match.start(1) - 1, match.end(1), match.group(1)) for match in _IMPORT.finditer(prose)]


def import_target(raw: str, base: Path, user_home: Path) -> Path | None:
    """The file an `@`-import of `raw` in folder `base` names, or None."""
    return _import_target(raw, base, user_home)


def _import_target(raw: str, base: Path, user_home: Path) -> Path | None:
    spec = raw.replace("\\ ", " ").split("#", 1)[0]
    if not spec or spec.startswith("@") or spec == "/":
        return None
    if spec.startswith("~/"):
        path = user_home / spec[2:]
    elif spec.startswith("/"):
        path = Path(spec)
    elif _RELATIVE_IMPORT.match(spec):
        path = base / spec
    else:
        return None
    if path.suffix and path.suffix.lower() not in _TEXT_SUFFIXES:
        return None
    return Path(os.path.normpath(path))


def _same_as_loaded(agents: Path, found: list[InstructionFile]) -> bool:
    """Whether `agents` is a file already loaded, by path (links resolved) or content."""
    if not _is_file(agents):
        return False
    real = os.path.realpath(agents)
    text = _read(agents)
    return any(
        os.path.realpath(f.path) == real or (f.kind != "managed" and _read(f.path) == text)
        for f in found
    )


def _rules(directory: Path) -> list[Path]:
    """Rule files read at the start: `*.md` below `directory` (at most `MAX_PATH_DEPTH` deep),
    top-down sorted, but those whose frontmatter names `paths`."""
    found: list[Path] = []
    pending: list[tuple[Path, int]] = [(directory, 0)]
    while pending:
        folder, depth = pending.pop()
        try:
            with os.scandir(folder) as iterator:
                entries = sorted(iterator, key=lambda entry: entry.name)
        except OSError:
            continue
        below: list[Path] = []
        for entry in entries:
            try:
                # os.walk's own tests: a link to a folder is a folder, never gone into
                is_dir, is_link = entry.is_dir(), entry.is_symlink()
            except OSError:
                continue
            if is_dir:
                if not (entry.name.startswith(".") or is_link) and depth + 1 < MAX_PATH_DEPTH:
                    below.append(Path(entry.path))
            elif entry.name.endswith(".md"):
                path = Path(entry.path)
                if not _PATHS_KEY.search(frontmatter_block(_read(path)) or ""):
                    found.append(path)
        pending.extend((child, depth + 1) for child in reversed(below))
    return found


def _read(path: Path) -> str:
    """The start of a file Claude Code reads, by the readability rule; "" when unreadable."""
    try:
        data = read_readable_path(path, limit=_MAX_READ_BYTES, follow_link=True)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _key(path: Path) -> str:
    return os.path.realpath(path)
