"""Gemini CLI's unified diffs, parsed and applied rule for rule as its bundled jsdiff does (no
fuzz), so the Inbox does what `/memory inbox` does; a hunk without line numbers is refused
(`Hunk.numbered`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memtab.sources.gemini.hunk_places import HunkPlaces, PlacingWork

DEV_NULL = "/dev/null"

# JavaScript's `\s`: its whitespace and line terminators, which are not Python's.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_SPACE_CHARS = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
)
_FILE_OR_HUNK = re.compile(rf"^(---|\+\+\+|@@)[{_JS_SPACE}]")
_FILE_HEADER = re.compile(rf"^(---|\+\+\+)[{_JS_SPACE}]+")
_NEXT_FILE = re.compile(
    rf"^(Index:[{_JS_SPACE}]|diff[{_JS_SPACE}]|---[{_JS_SPACE}]|\+\+\+[{_JS_SPACE}]|={{67}})"
)
_HUNK_HEADER = re.compile(r"@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")
_GIT_PREFIX = re.compile(r"^[ab]/")
_WIN_LINE_END_INSIDE = re.compile(r"[^\r]\n")


class PatchError(ValueError):
    """The text is no patch jsdiff can parse (its own message: `Unknown line 3 "x"`)."""


@dataclass(frozen=True)
class Hunk:
    """One `@@` block: where it applies, each side's count, and its lines as written."""

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: tuple[str, ...]
    numbered: bool = True
    """False: its `@@` line had no line numbers (jsdiff reads NaN; Memtab refuses it)."""


@dataclass(frozen=True)
class FilePatch:
    """One file's part of a patch: its `---` and `+++` names (None: no such header)."""

    old_name: str | None
    new_name: str | None
    hunks: tuple[Hunk, ...]


def js_trim(text: str) -> str:
    """`String.prototype.trim`: JavaScript's whitespace off both ends."""
    start, end = 0, len(text)
    while start < end and text[start] in _JS_SPACE_CHARS:
        start += 1
    while end > start and text[end - 1] in _JS_SPACE_CHARS:
        end -= 1
    return text[start:end]


def parse_patch(text: str) -> list[FilePatch]:
    """Every file's part of `text` (jsdiff's `parsePatch`); PatchError as jsdiff throws."""
    return _Parser(text.split("\n")).parse()


class _Parser:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0

    def parse(self) -> list[FilePatch]:
        found: list[FilePatch] = []
        while self.i < len(self.lines):
            found.append(self._index())
        return found

    def _index(self) -> FilePatch:
        lines = self.lines
        while self.i < len(lines):
            if _FILE_OR_HUNK.match(lines[self.i]):
                break
            self.i += 1  # `Index:` and `diff -r` lines name the file; jsdiff keeps no more
        names: dict[str, str] = {}
        self._file_header(names)
        self._file_header(names)
        hunks: list[Hunk] = []
        while self.i < len(lines):
            line = lines[self.i]
            if _NEXT_FILE.match(line):
                break
            if line.startswith("@@"):
                hunks.append(self._hunk())
            elif line:
                raise PatchError(f"Unknown line {self.i + 1} {_js_string(line)}")
            else:
                self.i += 1
        return FilePatch(names.get("---"), names.get("+++"), tuple(hunks))

    def _file_header(self, names: dict[str, str]) -> None:
        if self.i >= len(self.lines):
            return
        line = self.lines[self.i]
        match = _FILE_HEADER.match(line)
        if match is None:
            return
        # `split("\t", 2)` in JavaScript keeps the first two pieces only.
        name = js_trim(line[3:]).split("\t")[0].replace("\\\\", "\\")
        if name.startswith('"') and name.endswith('"'):
            name = name[1:-1]
        names[match.group(1)] = name
        self.i += 1

    def _hunk(self) -> Hunk:
        lines = self.lines
        header_index = self.i
        header = _HUNK_HEADER.search(lines[self.i])
        self.i += 1
        numbered = header is not None
        old_start = int(header.group(1)) if header else 0
        new_start = int(header.group(3)) if header else 0
        old_lines = int(header.group(2)) if header and header.group(2) is not None else 1
        new_lines = int(header.group(4)) if header and header.group(4) is not None else 1
        if old_lines == 0:
            old_start += 1
        if new_lines == 0:
            new_start += 1
        body: list[str] = []
        added = removed = 0
        while self.i < len(lines) and (
            removed < old_lines or added < new_lines or lines[self.i].startswith("\\")
        ):
            line = lines[self.i]
            last = self.i == len(lines) - 1
            operation = " " if not line and not last else (line[0] if line else "")
            if operation not in ("+", "-", " ", "\\"):
                raise PatchError(f"Hunk at line {header_index + 1} contained invalid line {line}")
            body.append(line)
            if operation == "+":
                added += 1
            elif operation == "-":
                removed += 1
            elif operation == " ":
                added += 1
                removed += 1
            self.i += 1
        if not added and new_lines == 1:
            new_lines = 0
        if not removed and old_lines == 1:
            old_lines = 0
        if added != new_lines:
            raise PatchError(f"Added line count did not match for hunk at line {header_index + 1}")
        if removed != old_lines:
            raise PatchError(
                f"Removed line count did not match for hunk at line {header_index + 1}"
            )
        return Hunk(old_start, old_lines, new_start, new_lines, tuple(body), numbered)


def _js_string(text: str) -> str:
    """`JSON.stringify` of a string, as jsdiff's message quotes the line."""
    escapes = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}
    escapes["\t"] = "\\t"
    out = []
    for char in text:
        if char in escapes:
            out.append(escapes[char])
        elif ord(char) < 0x20 or 0xD800 <= ord(char) <= 0xDFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


# --- applying ---------------------------------------------------------------------------


def apply_patch(source: str, patch: FilePatch, work: PlacingWork | None = None) -> str | None:
    """`source` with `patch` applied as jsdiff's `applyPatch`, or None where it returns false;
    PatchTooCostlyError past `work`'s bound."""
    hunks = _endings_as(source, patch.hunks)
    lines: list[str | None] = list(source.split("\n"))
    if not hunks:
        return source
    remove_end_newline = add_end_newline = False
    previous = ""
    for line in hunks[-1].lines:
        if line[:1] == "\\":
            if previous[:1] == "+":
                remove_end_newline = True
            elif previous[:1] == "-":
                add_end_newline = True
        previous = line
    if remove_end_newline:
        if add_end_newline:
            if lines[-1] == "":
                return None
        elif lines[-1] == "":
            lines.pop()
        else:
            return None
    elif add_end_newline:
        if lines[-1] != "":
            lines.append("")
        else:
            return None
    result: list[str | None] = []
    min_line = 0
    offset = 0
    places = HunkPlaces(lines, [hunk.lines for hunk in hunks], work or PlacingWork())
    for hunk in hunks:
        max_line = len(lines) - hunk.old_lines
        position = places.place(hunk.lines, hunk.old_start + offset - 1, min_line, max_line)
        placed = _apply_hunk(lines, hunk.lines, position) if position is not None else None
        if placed is None or position is None:
            return None
        patched, last_old = placed
        result.extend(_at(lines, i) for i in range(min_line, position))
        result.extend(patched)
        min_line = last_old + 1
        offset = position + 1 - hunk.old_start
    result.extend(_at(lines, i) for i in range(min_line, len(lines)))
    return "\n".join("" if line is None else line for line in result)  # `join`: undefined is ""


def _at(lines: Sequence[str | None], index: int) -> str | None:
    """`lines[index]` as JavaScript reads it: undefined (None) outside the array."""
    return lines[index] if 0 <= index < len(lines) else None


def _apply_hunk(
    lines: Sequence[str | None], hunk_lines: Sequence[str], position: int
) -> tuple[list[str | None], int] | None:
    """jsdiff's `applyHunk`: the new lines and the last old line consumed, or None at `position`."""
    patched: list[str | None] = []
    trailing_context = 0
    for hunk_line in hunk_lines:
        operation = hunk_line[0] if hunk_line else " "
        content = hunk_line[1:] if hunk_line else hunk_line
        if operation == "-":
            if _at(lines, position) != content:
                return None
            position += 1
            trailing_context = 0
        elif operation == "+":
            patched.append(content)
            trailing_context = 0
        elif operation == " ":
            trailing_context += 1
            if _at(lines, position) != content:
                return None
            patched.append(_at(lines, position))
            position += 1
    if trailing_context:
        del patched[len(patched) - trailing_context :]
    return patched, position - trailing_context - 1


def _endings_as(source: str, hunks: tuple[Hunk, ...]) -> tuple[Hunk, ...]:
    """jsdiff's `applyPatch`: a patch's lines made to end as `source`'s do (`isUnix`, `isWin`,
    `unixToWin`, `winToUnix`)."""
    every = [line for hunk in hunks for line in hunk.lines]
    if "\r\n" in source and not source.startswith("\n") and not _WIN_LINE_END_INSIDE.search(source):
        if any(not line.startswith("\\") and line.endswith("\r") for line in every):
            return hunks
        ended = (
            tuple(
                line if _ends_as_windows(hunk.lines, at) else line + "\r"
                for at, line in enumerate(hunk.lines)
            )
            for hunk in hunks
        )
    elif (
        "\r\n" not in source
        and "\n" in source
        and any(line.endswith("\r") for line in every)
        and all(_ends_as_windows(hunk.lines, at) for hunk in hunks for at in range(len(hunk.lines)))
    ):
        ended = (tuple(line.removesuffix("\r") for line in hunk.lines) for hunk in hunks)
    else:
        return hunks
    return tuple(replace(hunk, lines=lines) for hunk, lines in zip(hunks, ended, strict=True))


def _ends_as_windows(lines: tuple[str, ...], at: int) -> bool:
    """Whether line `at` needs no `\\r` for Windows: a marker, ended so, or before a marker."""
    line = lines[at]
    return (
        line.startswith("\\")
        or line.endswith("\r")
        or (at + 1 < len(lines) and lines[at + 1].startswith("\\"))
    )


# --- Gemini CLI's rules over a parsed patch (`memoryPatchUtils.js`) ----------------------


def strip_git_prefix(name: str) -> str:
    """A header's name without git's `a/` or `b/` (`stripGitDiffPrefix`)."""
    return _GIT_PREFIX.sub("", name, count=1)


@dataclass(frozen=True)
class Target:
    """A file a patch changes: its path as the header gives it, and whether created."""

    path: str
    new_file: bool


def patch_targets(patches: Sequence[FilePatch]) -> tuple[Target, ...] | str:
    """Each part's target, or why Gemini CLI refuses the headers, in its words."""
    targets: list[Target] = []
    for patch in patches:
        old = strip_git_prefix(patch.old_name) if patch.old_name else patch.old_name
        new = strip_git_prefix(patch.new_name) if patch.new_name else patch.new_name
        if not old or not new:
            return "missing target file path in patch header"
        if old == DEV_NULL:
            if not _absolute(new):
                return f"invalid diff headers: {new}"
            targets.append(Target(new, True))
            continue
        if not _absolute(old) or not _absolute(new) or old != new:
            return f"invalid diff headers: {new}"
        targets.append(Target(new, False))
    return tuple(targets)


def _absolute(path: str) -> bool:
    return path != DEV_NULL and path.startswith("/")


def has_hunks(patches: Sequence[FilePatch]) -> bool:
    """Gemini CLI's `hasParsedPatchHunks`: at least one part, and a hunk in every part."""
    return bool(patches) and all(patch.hunks for patch in patches)


def unnumbered_hunk(patches: Sequence[FilePatch]) -> str | None:
    """Why Memtab will not apply a patch Gemini CLI would misplace (see the module doc)."""
    if all(hunk.numbered for patch in patches for hunk in patch.hunks):
        return None
    return (
        "a hunk's @@ line has no line numbers: Gemini CLI would put its lines in place of the "
        "whole file"
    )
