"""Virtual memory paths, their validation, and where each scope lives on disk
(docs/formats.md §2.3–§3)."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

from memtab.fs.atomic import XUM_TEMP_HEX_DIGITS, encode_utf8, is_temp_name, is_xum_temp_name
from memtab.fs.lazy_re import LazyPattern

VIRTUAL_ROOT = "/memories"
MAX_PATH_DEPTH = 32
"""The most segments a memory path has below its scope (docs/formats.md §5): deeper
entries are not listed, searched or recorded, and nothing is created or moved there."""


class Scope(StrEnum):
    """The memory scopes, in the order they are shown everywhere (docs/formats.md §3.1)."""

    GLOBAL = "global"
    PROJECT = "project"
    WORKSPACE = "workspace"
    SESSION = "session"
    """xum's fourth scope: one agent's own checkpoint, of the acting workspace alone
    (ADR 0007); never consolidated or synced."""

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def virtual_root(self) -> str:
        return f"{VIRTUAL_ROOT}/{self.value}"

    @property
    def shared(self) -> bool:
        """Whether the scope's memory is shared beyond one agent's session: consolidated,
        synced, written by the writer, loaded at a session's start — every scope but the
        session scope."""
        return self is not Scope.SESSION


SCOPE_ORDER: tuple[Scope, ...] = (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE, Scope.SESSION)
SHARED_SCOPES: tuple[Scope, ...] = tuple(scope for scope in SCOPE_ORDER if scope.shared)
"""The scopes consolidation, sync, the writer and what agents load at a session's start
work on: all but xum's session scope (docs/formats.md §3.1)."""


class PathError(ValueError):
    """A virtual path that breaks a rule; the message names the path and the rule."""


class VirtualPath(NamedTuple):
    """A validated virtual path: `/memories`, a scope root, or an entry inside a scope.

    A NamedTuple: the tree keeps one a file (no `__dict__` each: ~0.5 MB with 3,000 files),
    hashed and compared in C on every scan, and no dataclass compiled at import before the
    window's first paint."""

    scope: Scope | None
    segments: tuple[str, ...] = ()

    @property
    def is_root(self) -> bool:
        """True for `/memories` itself."""
        return self.scope is None

    @property
    def is_scope_root(self) -> bool:
        return self.scope is not None and not self.segments

    @property
    def relative(self) -> str:
        """The path inside its scope, `/`-joined (empty for roots)."""
        return "/".join(self.segments)

    @property
    def name(self) -> str:
        return self.segments[-1] if self.segments else (self.scope.value if self.scope else "")

    @property
    def parent(self) -> VirtualPath:
        if self.segments:
            return VirtualPath(self.scope, self.segments[:-1])
        return VirtualPath(None)

    def child(self, name: str) -> VirtualPath:
        """The path of `name` inside this one (validated)."""
        return parse_virtual_path(f"{self}/{name}")

    def is_within(self, other: VirtualPath) -> bool:
        """True when this path equals `other` or lies inside it."""
        if other.is_root:
            return True
        return self.scope == other.scope and self.segments[: len(other.segments)] == other.segments

    def __str__(self) -> str:
        if self.scope is None:
            return VIRTUAL_ROOT
        if not self.segments:
            return self.scope.virtual_root
        return f"{self.scope.virtual_root}/{self.relative}"


_CONTROL_CHARS = LazyPattern(r"[\x00-\x1f\x7f]")
# A lone surrogate (JSON `"\ud800"`, or an undecodable byte of a file name) is not text:
# no file system can store it as given.
_SURROGATES = LazyPattern("[\ud800-\udfff]")
_ENCODED_SEPARATORS = LazyPattern(r"%2e|%2f|%5c", re.IGNORECASE)
_FORBIDDEN_CHARS = ("~", "\\", "<", ">", '"')
# What JavaScript's String.prototype.trim removes. Python's str.strip would also remove
# U+001C–U+001F and U+0085, silently accepting paths that end in those control chars.
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(chr(code) for code in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """`text` trimmed as JavaScript's `String.prototype.trim` does (not Python's `strip`)."""
    return text.strip(_JS_WHITESPACE)


# Most names are plain words with dots, dashes and spaces: accepted by one regex (a hot
# path in listings); anything else goes through every rule below.
_ORDINARY_SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9 _-]*(?:\.[A-Za-z0-9 _-]+)*")
# An ordinary segment ending in no blank and in no xum temp's `.<12 hex>` (and, no
# dotfile, no Memtab temp): a name every listing shows, told by one regex
# (`store.scope_walk.is_listable_name`'s hot path: a walk asks it of every entry).
PLAIN_LISTED_NAME = re.compile(
    _ORDINARY_SEGMENT.pattern + rf"(?<! )(?<!\.[0-9a-f]{{{XUM_TEMP_HEX_DIGITS}}})"
)


def segment_problem(segment: str) -> str | None:
    """Why `segment` is not allowed in a virtual path, or None when it is fine."""
    if _ORDINARY_SEGMENT.fullmatch(segment):
        return None
    if segment == "":
        return "empty path segments are not allowed"
    if segment == ".":
        return "'.' segments are not allowed"
    if segment == "..":
        return "'..' is not allowed"
    if ".." in segment:  # mux's rule (parseMemoryPath): not only a whole `..`
        return "'..' is not allowed, inside a name either (mux refuses such a name)"
    for char in _FORBIDDEN_CHARS:
        if char in segment:
            return f"the character {char!r} is not allowed"
    if _ENCODED_SEPARATORS.search(segment):
        return "percent-encoded dots and slashes are not allowed"
    if _CONTROL_CHARS.search(segment):
        return "control characters are not allowed"
    if _SURROGATES.search(segment):
        return "it holds text that is not valid Unicode (a lone surrogate)"
    if is_temp_name(segment):  # a leftover of this pattern is removed when found
        return "names like '.<name>.<8 hex digits>.tmp' are Memtab's temporary files"
    return None


def is_addressable_name(name: str) -> bool:
    """Whether an entry called `name` can be reached by a virtual path.

    The name must be a valid segment that trimming leaves alone: `a.md ` (trailing space)
    would be addressed as `.../a.md`, another file, and deleting it would delete that one.
    """
    if _ORDINARY_SEGMENT.fullmatch(name):  # a listing's hot path: one regex, one test
        return not name.endswith(" ")  # the only blank an ordinary name may hold
    return segment_problem(name) is None and name.rstrip(_JS_WHITESPACE) == name


_NAMED_CONTROLS = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shown_name(name: str) -> str:
    """A name no virtual path can address (`is_addressable_name` is false) as Memtab shows
    it and history records it: one line of valid text in which a control character, a
    byte that is not UTF-8 (read as a lone surrogate), a backslash and white space at the
    end are written as escapes (`\\n`, `\\xff`, `\\\\`, `\\x20`). The escapes hold a
    backslash and the rest a forbidden character or `..`, so no virtual path parses to it
    (docs/formats.md §4.2)."""
    kept = name.rstrip(_JS_WHITESPACE)
    shown = []
    for index, char in enumerate(name):
        code = ord(char)
        if char == "\\":
            shown.append("\\\\")
        elif char in _NAMED_CONTROLS:
            shown.append(_NAMED_CONTROLS[char])
        elif 0xDC80 <= code <= 0xDCFF:  # an undecodable byte (surrogateescape)
            shown.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF or code < 0x20 or code == 0x7F or index >= len(kept):
            shown.append(f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
        else:
            shown.append(char)
    return "".join(shown)


def unaddressable_reason(name: str) -> str:
    """Why no virtual path can name `name`, for the warning that shows it."""
    if _SURROGATES.search(name):
        return "its name is not valid UTF-8"
    if _CONTROL_CHARS.search(name):
        return "its name holds a control character (a line break, a tab…)"
    if "\\" in name:
        return "its name holds a backslash"
    problem = segment_problem(name)
    if problem is not None:
        return f"no memory path can name it: {problem}"
    return "its name ends with white space"


def is_too_deep(segments: tuple[str, ...]) -> bool:
    """Whether an entry this many segments below its scope is past `MAX_PATH_DEPTH`."""
    return len(segments) > MAX_PATH_DEPTH


def entries_too_deep(folder: tuple[str, ...]) -> bool:
    """Whether what a folder this many segments below its scope holds is past the depth
    (the folder itself is not: it is at it)."""
    return len(folder) >= MAX_PATH_DEPTH


def too_deep_words(path: VirtualPath | str) -> str:
    """`the contents of <path> are more than 32 levels deep`, for a folder at the depth
    that holds entries, its path shortened (a tree a program made may be a thousand
    levels deep)."""
    return f"the contents of {short_path(str(path))} are more than {MAX_PATH_DEPTH} levels deep"


def short_path(text: str, *, keep: int = 4) -> str:
    """A long path as a message shows it: its first and last `keep` segments around `…`."""
    parts = text.split("/")
    if len(parts) <= 2 * keep + 1:
        return text
    return "/".join([*parts[: keep + 1], f"…({len(parts) - 2 * keep - 1} more)…", *parts[-keep:]])


def hidden_name_problem(path: VirtualPath) -> str | None:
    """Why no listing would show a file or folder created at `path`, or None.

    Paths may name dotfiles (mux's tool reads them), but listings skip them, Memtab's and
    mux's alike (docs/formats.md §4.2): a new file there could never be seen, so creating
    or renaming to one is refused. `.md` is the likeliest: a name left empty. Nor is
    anything listed past `MAX_PATH_DEPTH` (docs/formats.md §5), or named like xum's temp
    files (§16)."""
    if is_too_deep(path.segments):
        return (
            f"it would be {len(path.segments)} levels deep, and memory paths go at most "
            f"{MAX_PATH_DEPTH} levels below their scope"
        )
    for segment in path.segments:
        if segment.startswith("."):
            if "." not in segment[1:]:
                return (
                    f"{segment!r} has no name before the extension, and a name starting "
                    "with '.' is hidden: no listing would show it"
                )
            return f"{segment!r} starts with '.', and hidden names are never listed"
        if is_xum_temp_name(segment):
            return (
                f"{segment!r} is named like xum's temporary files (<name>.<12 hex digits>), "
                "which are never listed"
            )
    return None


def require_listed(path: VirtualPath, doing: str) -> None:
    """PathError when a file or folder made at `path` would be hidden from every listing
    (`hidden_name_problem`); `doing` says what was refused (`create`, `move a.md to`)."""
    problem = hidden_name_problem(path)
    if problem is not None:
        choose = "a shallower place" if is_too_deep(path.segments) else "another name"
        raise PathError(f"Cannot {doing} {short_path(str(path))}: {problem}; choose {choose}")


def require_depth_room(path: VirtualPath, below: int, doing: str) -> None:
    """PathError when a directory moved to `path` with files `below` levels under it
    would put them past `MAX_PATH_DEPTH` (`doing` as for `require_listed`)."""
    depth = len(path.segments) + below
    if depth > MAX_PATH_DEPTH:
        raise PathError(
            f"Cannot {doing} {short_path(str(path))}: files in it would be {depth} levels "
            f"deep, and memory paths go at most {MAX_PATH_DEPTH} levels below their scope; "
            "choose a shallower place"
        )


def parse_virtual_path(raw: str) -> VirtualPath:
    """Validate `raw` against docs/formats.md §3 and return it parsed, or raise PathError."""
    if not isinstance(raw, str):
        raise PathError(f"Invalid memory path {raw!r}: it must be a string")
    text = js_trim(raw)
    while len(text) > 1 and text.endswith("/"):
        text = text[:-1]
    if text == VIRTUAL_ROOT:
        return VirtualPath(None)
    if not text.startswith(VIRTUAL_ROOT + "/"):
        raise PathError(f"Invalid memory path {raw!r}: paths must start with {VIRTUAL_ROOT}/")
    parts = text[len(VIRTUAL_ROOT) + 1 :].split("/")
    try:
        scope = Scope(parts[0])
    except ValueError:
        raise PathError(
            f"Invalid memory path {raw!r}: unknown scope {parts[0]!r} "
            "(expected global, project, workspace or session)"
        ) from None
    segments = tuple(parts[1:])
    for segment in segments:
        problem = segment_problem(segment)
        if problem:
            raise PathError(f"Invalid memory path {raw!r}: {problem}")
    return VirtualPath(scope, segments)


def parse_file_path(raw: str) -> VirtualPath:
    """Like `parse_virtual_path`, but rejects `/memories` and scope roots (commands on files)."""
    return require_file_path(parse_virtual_path(raw), raw)


def require_file_path(path: VirtualPath, raw: str | None = None) -> VirtualPath:
    """`path` when it names something inside a scope; PathError for `/memories` and the
    scope roots, which commands on files refuse (`raw`: the path as it was given)."""
    if path.scope is None or not path.segments:
        shown = str(path) if raw is None else raw
        raise PathError(f"Invalid memory path {shown!r}: expected a path inside a scope")
    return path


_DIR_NAME_UNSAFE = LazyPattern(r"[^A-Za-z0-9._-]")
_DIR_NAME_BASE_UNITS = 40
_TRAILING_SEPARATORS = LazyPattern(r"(?<![/\\])[/\\]+$")  # from a run's start only
# mux splits a path on `/` only, except on Windows where `\` separates too
# (src/common/utils/paths.ts PlatformPaths.basename).
_SEPARATORS = re.compile(r"[/\\]" if sys.platform == "win32" else "/")


def normalize_project_path(project_path: str) -> str:
    """A project path as mux's config loader keys it: trailing `/` and `\\` stripped.

    mux applies this to every registry key on load (src/node/config.ts
    loadConfigOrDefault → src/node/utils/pathUtils.ts stripTrailingSlashes), before the
    path is hashed into a project dir name or used in memory-meta and journal keys. On
    every platform; `/` alone becomes "" (mux then drops the project).
    """
    return _TRAILING_SEPARATORS.sub("", project_path)


def project_basename(project_path: str) -> str:
    """The last component of a project path as mux reads it ("" when it ends in `/`).

    On POSIX a `\\` is an ordinary character of a name, as for mux.
    """
    return _SEPARATORS.split(project_path)[-1]


def project_dir_name(project_path: str) -> str:
    """The directory under `memory/project/` for a project: `<base>-<hash12>`
    (docs/formats.md §2.3).

    As mux's projectMemoryDirName (src/node/services/memoryService.ts): `base` is the
    basename with every UTF-16 code unit outside `[A-Za-z0-9._-]` replaced by `_` (so an
    astral character becomes `__`), cut to 40 UTF-16 units, "unknown" when empty; the
    hash is over the path exactly as given — pass it through `normalize_project_path`
    first, as the registry does.
    """
    base = project_basename(project_path) or "unknown"
    # Each astral character is two UTF-16 units; mirror that by doubling its replacement.
    sanitized = "".join(
        ("__" if ord(char) > 0xFFFF else "_") if _DIR_NAME_UNSAFE.match(char) else char
        for char in base
    )
    # Like JavaScript's UTF-8 encoder, a lone surrogate hashes as U+FFFD.
    digest = hashlib.sha256(encode_utf8(project_path)).hexdigest()[:12]
    return f"{sanitized[:_DIR_NAME_BASE_UNITS]}-{digest}"


def is_within_directory(candidate: str, root: str) -> bool:
    """True when the absolute path `candidate` is `root` or inside it (both already real)."""
    return candidate == root or candidate.startswith(root.rstrip(os.sep) + os.sep)


def real_path(path: Path | str, display: str) -> str:
    """`os.path.realpath`, with a PathError when a link on the way changes under it."""
    try:
        return os.path.realpath(path)
    except OSError:  # a link removed between realpath's lstat and readlink
        raise PathError(
            f"Invalid memory path {display!r}: it changed while it was being checked"
        ) from None


def resolve_inside_root(
    root: Path, segments: tuple[str, ...], display: str, *, real_root: str | None = None
) -> Path:
    """The physical path for `segments` under `root`, refusing symlink escapes.

    Existing components are resolved through symlinks; the result must stay inside the
    real scope root (`real_root`, when the caller resolved it already), else
    PathError("path escapes the memory root").
    """
    physical = root.joinpath(*segments)
    if real_root is None:
        real_root = real_path(root, display)
    # realpath resolves the existing prefix (dangling links too) and appends the rest; the
    # segments were validated, so the appended part holds no `..`.
    real_target = real_path(physical, display)
    if not is_within_directory(real_target, real_root):
        raise PathError(f"Invalid memory path {display!r}: path escapes the memory root")
    return physical
