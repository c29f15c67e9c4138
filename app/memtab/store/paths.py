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
"""The most segments a memory path has below its scope (docs/formats.md §5): nothing deeper is
listed, searched, recorded, created or moved there."""


class Scope(StrEnum):
    """The memory scopes, in the order they are shown everywhere (docs/formats.md §3.1)."""

    GLOBAL = "global"
    PROJECT = "project"
    WORKSPACE = "workspace"
    SESSION = "session"
    """xum's fourth scope: one agent's own checkpoint, of the acting workspace alone; never
    consolidated or synced."""

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def virtual_root(self) -> str:
        return f"{VIRTUAL_ROOT}/{self.value}"

    @property
    def shared(self) -> bool:
        """Whether the scope is shared beyond one agent's session: all but the session scope."""
        return self is not Scope.SESSION


SCOPE_ORDER: tuple[Scope, ...] = (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE, Scope.SESSION)
SHARED_SCOPES: tuple[Scope, ...] = tuple(scope for scope in SCOPE_ORDER if scope.shared)
"""The scopes consolidation, sync, the writer and session loads work on: all but xum's session scope
(docs/formats.md §3.1)."""


class PathError(ValueError):
    """A virtual path that breaks a rule; the message names the path and the rule."""


class VirtualPath(NamedTuple):
    """A validated virtual path: `/memories`, a scope root, or an entry inside a scope (a
    NamedTuple: the tree keeps one a file)."""

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
        return VirtualPath(self.scope, self.segments[:-1]) if self.segments else VirtualPath(None)

    def child(self, name: str) -> VirtualPath:
        """The path of `name` inside this one (validated)."""
        return parse_virtual_path(f"{self}/{name}")

    def is_within(self, other: VirtualPath) -> bool:
        """True when this path equals `other` or lies inside it."""
        inside = self.segments[: len(other.segments)] == other.segments
        return other.is_root or (self.scope == other.scope and inside)

    def __str__(self) -> str:
        if self.scope is None:
            return VIRTUAL_ROOT
        if not self.segments:
            return self.scope.virtual_root
        return f"{self.scope.virtual_root}/{self.relative}"


_CONTROL_CHARS = LazyPattern(r"[\x00-\x1f\x7f]")
# A lone surrogate is not text: no file system stores it as given.
_SURROGATES = LazyPattern("[\ud800-\udfff]")
_ENCODED_SEPARATORS = LazyPattern(r"%2e|%2f|%5c", re.IGNORECASE)
_FORBIDDEN_CHARS = ("~", "\\", "<", ">", '"')
# What JavaScript's trim removes (Python's strip would also take U+001C–U+001F and U+0085).
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(chr(code) for code in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """`text` trimmed as JavaScript's `String.prototype.trim` does (not Python's `strip`)."""
    return text.strip(_JS_WHITESPACE)


# Most names are plain: one regex accepts them (a listing's hot path); others go through every rule.
_ORDINARY_SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9 _-]*(?:\.[A-Za-z0-9 _-]+)*")
# An ordinary segment ending in no blank and no xum temp's `.<12 hex>`: a name every listing shows.
PLAIN_LISTED_NAME = re.compile(
    _ORDINARY_SEGMENT.pattern + rf"(?<! )(?<!\.[0-9a-f]{{{XUM_TEMP_HEX_DIGITS}}})"
)


_DOTS = {
    "": "empty path segments are not allowed",
    ".": "'.' segments are not allowed",
    "..": "'..' is not allowed",
}


def segment_problem(segment: str) -> str | None:
    """Why `segment` is not allowed in a virtual path, or None when it is fine."""
    if _ORDINARY_SEGMENT.fullmatch(segment):
        return None
    if segment in _DOTS:
        return _DOTS[segment]
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
    """Whether an entry called `name` can be reached by a virtual path: a valid segment trimming
    leaves alone."""
    if _ORDINARY_SEGMENT.fullmatch(name):  # a listing's hot path: one regex, one test
        return not name.endswith(" ")  # the only blank an ordinary name may hold
    return segment_problem(name) is None and name.rstrip(_JS_WHITESPACE) == name


_NAMED_CONTROLS = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shown_name(name: str) -> str:
    """A name no virtual path can address, as Memtab shows it and history records it: control
    characters, non-UTF-8 bytes, backslashes and trailing blanks written as escapes no virtual path
    parses to (docs/formats.md §4.2)."""
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
    if (problem := segment_problem(name)) is not None:
        return f"no memory path can name it: {problem}"
    return "its name ends with white space"


def is_too_deep(segments: tuple[str, ...]) -> bool:
    """Whether an entry this many segments below its scope is past `MAX_PATH_DEPTH`."""
    return len(segments) > MAX_PATH_DEPTH


def entries_too_deep(folder: tuple[str, ...]) -> bool:
    """Whether what a folder this deep holds is past the depth."""
    return len(folder) >= MAX_PATH_DEPTH


def too_deep_words(path: VirtualPath | str) -> str:
    """`the contents of <path> are more than 32 levels deep`, the path shortened."""
    return f"the contents of {short_path(str(path))} are more than {MAX_PATH_DEPTH} levels deep"


def short_path(text: str, *, keep: int = 4) -> str:
    """A long path as a message shows it: its first and last `keep` segments around `…`."""
    parts = text.split("/")
    if len(parts) <= 2 * keep + 1:
        return text
    return "/".join([*parts[: keep + 1], f"…({len(parts) - 2 * keep - 1} more)…", *parts[-keep:]])


def hidden_name_problem(path: VirtualPath) -> str | None:
    """Why no listing would show a file or folder created at `path` (a dotfile, past
    `MAX_PATH_DEPTH`, a xum temp's name; docs/formats.md §4.2, §5, §16), or None."""
    if is_too_deep(path.segments):
        most = f"memory paths go at most {MAX_PATH_DEPTH} levels below their scope"
        return f"it would be {len(path.segments)} levels deep, and {most}"
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
    """PathError when something made at `path` would be hidden from every listing; `doing` says what
    was refused."""
    if (problem := hidden_name_problem(path)) is not None:
        choose = "a shallower place" if is_too_deep(path.segments) else "another name"
        raise PathError(f"Cannot {doing} {short_path(str(path))}: {problem}; choose {choose}")


def require_depth_room(path: VirtualPath, below: int, doing: str) -> None:
    """PathError when a directory moved to `path` would put files `below` levels under it past
    `MAX_PATH_DEPTH`."""
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
        if problem := segment_problem(segment):
            raise PathError(f"Invalid memory path {raw!r}: {problem}")
    return VirtualPath(scope, segments)


def parse_file_path(raw: str) -> VirtualPath:
    """Like `parse_virtual_path`, but rejects `/memories` and scope roots (commands on files)."""
    return require_file_path(parse_virtual_path(raw), raw)


def require_file_path(path: VirtualPath, raw: str | None = None) -> VirtualPath:
    """`path` when it names something inside a scope; PathError for `/memories` and scope roots."""
    if path.scope is None or not path.segments:
        shown = str(path) if raw is None else raw
        raise PathError(f"Invalid memory path {shown!r}: expected a path inside a scope")
    return path


_DIR_NAME_UNSAFE = LazyPattern(r"[^A-Za-z0-9._-]")
_DIR_NAME_BASE_UNITS = 40
_TRAILING_SEPARATORS = LazyPattern(r"(?<![/\\])[/\\]+$")  # from a run's start only
# mux splits on `/` only, and on `\` too on Windows.
_SEPARATORS = re.compile(r"[/\\]" if sys.platform == "win32" else "/")


def normalize_project_path(project_path: str) -> str:
    r"""A project path as mux's config loader keys it: trailing `/` and `\` stripped (`/`: "")."""
    return _TRAILING_SEPARATORS.sub("", project_path)


def project_basename(project_path: str) -> str:
    """The last component of a project path as mux reads it ("" when it ends in `/`)."""
    return _SEPARATORS.split(project_path)[-1]


def project_dir_name(project_path: str) -> str:
    """The directory under `memory/project/` for a project: `<base>-<hash12>`, as mux's
    projectMemoryDirName (docs/formats.md §2.3); pass the path through `normalize_project_path`
    first."""
    base = project_basename(project_path) or "unknown"
    # An astral character is two UTF-16 units: its replacement doubled.
    sanitized = "".join(
        ("__" if ord(char) > 0xFFFF else "_") if _DIR_NAME_UNSAFE.match(char) else char
        for char in base
    )
    # As JavaScript's UTF-8 encoder, a lone surrogate hashes as U+FFFD.
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
    """The physical path for `segments` under `root`; PathError when symlinks lead it out of the
    real root (`real_root`)."""
    physical = root.joinpath(*segments)
    real_root = real_path(root, display) if real_root is None else real_root
    # realpath resolves the existing prefix and appends the rest (validated: no `..`).
    real_target = real_path(physical, display)
    if not is_within_directory(real_target, real_root):
        raise PathError(f"Invalid memory path {display!r}: path escapes the memory root")
    return physical
