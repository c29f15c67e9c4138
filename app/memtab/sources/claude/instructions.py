"""The instruction files Claude Code reads at the start of a session in a directory, in its
order (docs/formats.md §17.6).

Claude Code's memory documentation and its `utils/claudemd.ts` (`getMemoryFiles`): the
managed `CLAUDE.md` and managed rules, the user's `<config>/CLAUDE.md` and
`<config>/rules/**/*.md`, then for every directory from the filesystem root down to the
working directory its `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/**/*.md` and
`CLAUDE.local.md`, each file followed by what it `@`-imports (up to 5 hops deep, never
inside code). Rules with a `paths:` frontmatter load only when Claude works on a matching
file, so not at the start. Auto memory's `MEMORY.md` comes last (`claude_index` says how
much of it).

`AGENTS.md` comes in through Claude Code's built-in `agents-md` plugin (v2.1.277,
`mods/agents-md/README.md`), under the `instructionFiles` option (plugin option
`pluginConfigs["agents-md@builtin"].options.instructionFiles`, or `instructionFiles`, in
the managed or the user's settings; a project's own `.claude/settings.json` is not read):

- `claude-md`: no `AGENTS.md`;
- `claude-md-or-agents-md` (the default, and any value not one of the four): when no
  `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` is in any directory from the root
  down to the working directory, every `AGENTS.md` and `.claude/AGENTS.md` there instead;
- `claude-md-and-agents-md`: every `AGENTS.md` beside `CLAUDE.md`, except one a
  `CLAUDE.md` already imports or links to (same path, or same content);
- `managed-only`: the user's, the project's and the local files are dropped; the managed
  file and auto memory stay.
"""

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
        for match in _IMPORT.finditer(_CODE_SPAN.sub(" ", line)):
            target = _import_target(match.group(1), base, user_home)
            if target is not None:
                yield target, number


def import_spans(line: str) -> list[tuple[int, int, str]]:
    """Where one prose line `@`-imports: (start, end) of each `@path` in the line and the
    path as written — none inside a code span."""
    prose = _CODE_SPAN.sub(lambda code: " " * len(code.group(0)), line)
    return [(match.start(1) - 1, match.end(1), match.group(1)) for match in _IMPORT.finditer(prose)]


def import_target(raw: str, base: Path, user_home: Path) -> Path | None:
    """The file an `@`-import of `raw` in a file of folder `base` names, or None (not a
    path, or not a text file)."""
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
    """Rule files read at the start: `*.md` below `directory` (at most `MAX_PATH_DEPTH`
    deep: a walk with a stack, as os.walk's recursion would fail a thousand levels down),
    in os.walk's top-down sorted order, except those whose frontmatter names `paths`
    (read only when Claude works on a matching file)."""
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
    """The start of a file Claude Code reads, by the readability rule (`fs.readable`): a
    FIFO or a device put there is never waited for; "" when it cannot be read."""
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
