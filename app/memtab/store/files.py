"""Memory files on disk: descriptions from frontmatter, listing a scope, reading text (SPEC §4)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memtab.fs.atomic import encode_utf8
from memtab.store.paths import Scope, VirtualPath, is_addressable_name

MAX_FILE_BYTES = 102_400
MAX_FILES_PER_SCOPE = 1000
DESCRIPTION_PREFIX_BYTES = 4096
MAX_DESCRIPTION_UNITS = 200


@dataclass(frozen=True)
class FileEntry:
    """A memory file as listed: where it is, what it says it is, and its size and age."""

    path: VirtualPath
    description: str
    size_bytes: int
    modified_at_ms: int
    binary: bool = False

    @property
    def over_cap(self) -> bool:
        return self.size_bytes > MAX_FILE_BYTES

    @property
    def editable(self) -> bool:
        return not self.over_cap and not self.binary

    @property
    def not_editable_reason(self) -> str | None:
        if self.binary:
            return "not a text file (it contains NUL bytes)"
        if self.over_cap:
            return f"larger than the {MAX_FILE_BYTES}-byte cap"
        return None


@dataclass(frozen=True)
class ScopeListing:
    """Every visible file and directory of one scope, sorted by path (dirs keyed `name/`)."""

    scope: Scope
    files: tuple[FileEntry, ...] = ()
    directories: tuple[VirtualPath, ...] = ()
    error: str | None = None

    @property
    def file_count(self) -> int:
        return len(self.files)


# The implicit scalars of the YAML 1.2 core schema, as mux reads frontmatter: a plain scalar
# matching one of these is not a string; `yes`, `on` and dates stay strings.
_CORE_SCHEMA_SCALARS: tuple[tuple[str, re.Pattern[str], list[str]], ...] = (
    ("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]),
    (
        "tag:yaml.org,2002:bool",
        re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    ),
    (
        "tag:yaml.org,2002:int",
        re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
        list("-+0123456789"),
    ),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+0123456789."),
    ),
)


# libyaml when PyYAML was built with it: ~10x faster, and linear where the pure-Python
# scanner is quadratic (4 KiB of `[[[[` takes it seconds).
_SafeLoaderBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CoreSchemaLoader(_SafeLoaderBase):
    """A safe loader that resolves plain scalars by the YAML 1.2 core schema only."""


_CoreSchemaLoader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in _CORE_SCHEMA_SCALARS:
    _CoreSchemaLoader.add_implicit_resolver(_tag, _pattern, _first)

# Whitespace as JavaScript's `\s` sees it (mux's rule); Python's `\s` would also swallow
# the control chars U+001C–U+001F. Tab, newline etc. are whitespace, so they collapse to a
# space instead of being stripped as control chars.
_WHITESPACE_RUN = re.compile(
    "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)
_NON_WHITESPACE_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def frontmatter_block(prefix: str) -> str | None:
    """The YAML between the opening and closing `---` lines at the very top, if any.

    A fence is a line of `---`, optionally followed by spaces or tabs (and a CR). The
    block is everything between the opening fence's line break and the closing fence.
    """
    if not prefix.startswith("---"):
        return None
    opening_end = prefix.find("\n")
    if opening_end < 0 or not _is_fence_rest(prefix[3:opening_end]):
        return None
    search_from = opening_end
    while (candidate := prefix.find("\n---", search_from)) >= 0:
        line_end = prefix.find("\n", candidate + 1)
        if _is_fence_rest(prefix[candidate + 4 : line_end if line_end >= 0 else None]):
            return prefix[opening_end + 1 : candidate + 1]
        search_from = candidate + 1
    return None


def _is_fence_rest(rest: str) -> bool:
    """Whether what follows `---` on a line leaves it a fence: only blanks, then a CR."""
    if rest.endswith("\r"):
        rest = rest[:-1]
    return not rest.strip(" \t")


def clean_description(value: str) -> str:
    """Collapse whitespace runs, strip control chars, trim, cut to 200 UTF-16 units + `…`.

    Control chars are dropped before collapsing, so one between two spaces leaves a single
    space behind (tab and newline count as whitespace and become a space).
    """
    if value.isprintable() and "  " not in value:
        text = value.strip(" ")  # no control chars and no run to collapse: the common case
    else:
        text = _WHITESPACE_RUN.sub(" ", _NON_WHITESPACE_CONTROL.sub("", value)).strip(" ")
    if len(text) <= MAX_DESCRIPTION_UNITS and (
        text.isascii()
        or len(text.encode("utf-16-le", "surrogatepass")) <= 2 * MAX_DESCRIPTION_UNITS
    ):
        return text  # the common case, without counting units one by one
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > MAX_DESCRIPTION_UNITS:
            return text[:index].rstrip(" ") + "…"
    return text


def description_from_text(prefix: str) -> str:
    """The `description:` of a file whose first 4 KiB are `prefix`; "" when absent or malformed."""
    simple = _SIMPLE_FRONTMATTER.match(prefix)
    if simple is not None and _in_simple_subset(simple.group(1)):
        return _simple_description(simple.group(1))
    block = frontmatter_block(prefix)
    if not block or "description" not in block:
        return ""
    return _yaml_description(block)


def description_from_prefix(prefix: bytes) -> str:
    """`description_from_text` of a file's first 4 KiB as bytes (invalid UTF-8 replaced).

    Decodes as little as it can: nothing without frontmatter, and usually only up to the
    first line that may close it (the fences are ASCII, so a cut at a line break decodes
    to exactly the start of the full text).
    """
    if not prefix.startswith(b"---") or b"description" not in prefix:
        return ""
    fence = prefix.find(b"\n---", 3)
    if fence >= 0:
        line_end = prefix.find(b"\n", fence + 4)
        head = prefix if line_end < 0 else prefix[: line_end + 1]
        simple = _SIMPLE_FRONTMATTER.match(head.decode("utf-8", "replace"))
        if simple is not None and _in_simple_subset(simple.group(1)):
            return _simple_description(simple.group(1))
    return description_from_text(prefix.decode("utf-8", "replace"))


def _yaml_description(block: str) -> str:
    """The description by the full YAML parser (any frontmatter)."""
    try:
        data: Any = yaml.load(block, Loader=_CoreSchemaLoader)  # a safe loader
    except (yaml.YAMLError, ValueError, RecursionError):
        # RecursionError: without libyaml, 4 KiB of `[[[[...` nests deeper than the
        # pure-Python parser can recurse.
        return ""
    if not isinstance(data, dict):
        return ""
    value = data.get("description")
    return clean_description(value) if isinstance(value, str) else ""


# Nearly all frontmatter is a few `key: value` lines, and the pure-Python YAML parser costs
# ~20x more than reading the file. So one regex recognizes a conservative subset of YAML
# whose meaning is unambiguous and leaves everything else, or anything in doubt, to the
# parser. The store tests check that both agree on generated frontmatter.
#
# The subset: lines that are blank, `#` comments at column 0, or `key: value` at column 0
# with a short ASCII key and a one-line value that is plain (no indicator first, no `: `,
# ` #` or trailing `:`), quoted without escapes, or a flow list of simple words. No tabs,
# CRs, BOMs, YAML line breaks (U+0085/2028/2029) or non-printable characters anywhere.
_OUTSIDE_SIMPLE_SUBSET = re.compile(
    "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_OUTSIDE_SIMPLE_ASCII = re.compile("[^\n\x20-\x7e]")  # the same test, faster on ASCII text


def _in_simple_subset(block: str) -> bool:
    outside = _OUTSIDE_SIMPLE_ASCII if block.isascii() else _OUTSIDE_SIMPLE_SUBSET
    return outside.search(block) is None


_SIMPLE_WORD = r"[A-Za-z0-9_][A-Za-z0-9_./-]*"
_SIMPLE_VALUE = (
    r'(?:"[^"\\\n]*+"'  # double-quoted, no escapes
    r"|'[^'\n]*+'"  # single-quoted, no '' escapes
    rf"|\[ *+(?:{_SIMPLE_WORD}(?: *+, *+{_SIMPLE_WORD})*+)?+ *+\]"  # [a, b/c, d.e]
    # plain: a safe first char, then no `: `, no ` #`, no `:` at the end
    r"|[^\n !\"#%&'*,\-:>?@\[\]`{|}](?:[^\n:#]++|:(?=[^ \n])|(?<! )#)*+)"
)
_SIMPLE_LINE = rf"(?: *+|#[^\n]*+|[A-Za-z_][A-Za-z0-9_-]{{0,63}}:(?: ++{_SIMPLE_VALUE})?+ *+)"
# Opening fence, simple lines, closing fence: a fence line is never a simple line, so the
# block ends at the first fence, exactly as `frontmatter_block` finds it.
_SIMPLE_FRONTMATTER = re.compile(rf"---[ \t]*+\r?\n((?:{_SIMPLE_LINE}\n)*+)---[ \t]*+\r?(?:\n|\Z)")
_DESCRIPTION_ENTRY = re.compile(r"^description:(?: +(.*))?$", re.MULTILINE)
_CORE_SCHEMA_NON_STRING = re.compile("|".join(p.pattern for _, p, _ in _CORE_SCHEMA_SCALARS))
_CORE_SCHEMA_FIRST_CHARS = frozenset(char for _, _, first in _CORE_SCHEMA_SCALARS for char in first)


def _simple_description(block: str) -> str:
    """The description of a block matched by `_SIMPLE_FRONTMATTER` (and in the subset)."""
    entries = _DESCRIPTION_ENTRY.findall(block)
    # A repeated key: the last one wins, as in the parser.
    value = _simple_value(entries[-1]) if entries else None
    return clean_description(value) if value is not None else ""


def _simple_value(text: str) -> str | None:
    """The string a value of the simple subset denotes, or None when it is not a string."""
    value = text.rstrip(" ")
    if not value or value[0] == "[":
        return None  # null, or a list
    if value[0] in "\"'":
        return value[1:-1]
    if value[0] not in _CORE_SCHEMA_FIRST_CHARS:
        return value
    return None if _CORE_SCHEMA_NON_STRING.match(value) else value


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _entry_for(path: VirtualPath, entry: os.DirEntry[str]) -> FileEntry:
    # os.open + fstat + read: one open for both the size/mtime and the 4 KiB prefix, and
    # none of the buffering layers of `open()` (listing speed is dominated by this).
    try:
        fd = os.open(entry.path, _OPEN_FLAGS)
    except OSError:
        stat, prefix = entry.stat(follow_symlinks=False), b""  # listed, but undescribed
    else:
        try:
            stat = os.fstat(fd)
            prefix = os.read(fd, DESCRIPTION_PREFIX_BYTES)
        finally:
            os.close(fd)
    binary = b"\x00" in prefix
    description = "" if binary else description_from_prefix(prefix)
    return FileEntry(
        path=path,
        description=description,
        size_bytes=stat.st_size,
        modified_at_ms=stat.st_mtime_ns // 1_000_000,
        binary=binary,
    )


def is_listable_name(name: str) -> bool:
    """Whether a directory entry may appear in listings: no dotfiles, an addressable name."""
    return not name.startswith(".") and is_addressable_name(name)


def list_scope(scope: Scope, root: Path | None) -> ScopeListing:
    """List a scope recursively by the rules of SPEC §4.

    Dotfiles and entries with invalid names are skipped; symlinks are neither listed nor
    followed; an unreadable directory lists as empty. A missing root is an empty scope.
    """
    if root is None:
        return ScopeListing(scope)
    files: list[FileEntry] = []
    directories: list[VirtualPath] = []
    error: str | None = None
    # An explicit stack, not recursion: a deeply nested tree must not overflow the stack.
    pending: list[tuple[str, tuple[str, ...]]] = [(str(root), ())]
    while pending:
        directory, segments = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except FileNotFoundError:
            continue
        except OSError as failure:
            if not segments:
                error = f"Cannot read {directory}: {failure.strerror or failure}"
            continue
        for entry in entries:
            if not is_listable_name(entry.name):
                continue
            try:
                # follow_symlinks=False: a symlink is neither a file nor a dir here, so
                # links are skipped (never listed, never followed).
                if entry.is_file(follow_symlinks=False):
                    files.append(_entry_for(VirtualPath(scope, (*segments, entry.name)), entry))
                elif entry.is_dir(follow_symlinks=False):
                    child = (*segments, entry.name)
                    directories.append(VirtualPath(scope, child))
                    pending.append((entry.path, child))
            except OSError:
                continue  # vanished or unreadable while listing

    files.sort(key=_file_sort_key)
    directories.sort(key=_directory_sort_key)
    return ScopeListing(scope, tuple(files), tuple(directories), error)


def sort_key(segments: tuple[str, ...], *, is_dir: bool) -> str:
    """Listing order: by path, with directories keyed as `name/` (SPEC §4)."""
    joined = "/".join(segments)
    return joined + "/" if is_dir else joined


def _file_sort_key(entry: FileEntry) -> str:
    return sort_key(entry.path.segments, is_dir=False)


def _directory_sort_key(path: VirtualPath) -> str:
    return sort_key(path.segments, is_dir=True)


def content_sha256(content: str) -> str:
    """The sha256 the editor compares: hex of the UTF-8 encoding of the decoded content.

    Encoded exactly as a save writes it (lone surrogates as U+FFFD), so the sha of saved
    content equals the sha of the file read back.
    """
    return hashlib.sha256(encode_utf8(content)).hexdigest()


@dataclass(frozen=True)
class FileContent:
    """A file's text as the editor sees it, with the sha that guards the next save."""

    content: str
    sha256: str
    size_bytes: int
    binary: bool

    @property
    def over_cap(self) -> bool:
        return self.size_bytes > MAX_FILE_BYTES


def read_file_content(physical: Path) -> FileContent:
    """Read a memory file; invalid UTF-8 is replaced with U+FFFD. Raises OSError."""
    data = physical.read_bytes()
    content = data.decode("utf-8", "replace")
    return FileContent(content, content_sha256(content), len(data), b"\x00" in data)


def count_files(root: Path) -> int:
    """How many files a scope's listing shows (the 1000-file cap counts these)."""
    count = 0
    stack = [str(root)]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as iterator:
                for entry in iterator:
                    if not is_listable_name(entry.name) or entry.is_symlink():
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        count += 1
        except OSError:
            continue
    return count


# shutil.rmtree/copytree (and os.walk before Python 3.12) recurse once per directory level;
# a tree nested a thousand levels deep — which an agent can create — would overflow the
# stack. These walk with an explicit stack instead.


def remove_tree(root: Path) -> None:
    """Delete a directory and everything in it, never following symlinks. Raises OSError."""
    pending: list[tuple[str, bool]] = [(str(root), False)]
    while pending:
        directory, emptied = pending.pop()
        if emptied:
            os.rmdir(directory)
            continue
        pending.append((directory, True))
        with os.scandir(directory) as iterator:
            for entry in iterator:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, False))
                else:
                    os.unlink(entry.path)


def copy_tree(source: Path, target: Path) -> None:
    """Copy a directory tree to a new `target`; symlinks are copied as links, never followed.

    Raises OSError (the partial copy is left for the caller to remove).
    """
    pending: list[tuple[str, str]] = [(str(source), str(target))]
    while pending:
        from_dir, to_dir = pending.pop()
        os.mkdir(to_dir)
        shutil.copystat(from_dir, to_dir)
        with os.scandir(from_dir) as iterator:
            for entry in iterator:
                destination = os.path.join(to_dir, entry.name)
                if entry.is_symlink():
                    os.symlink(os.readlink(entry.path), destination)
                elif entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, destination))
                elif entry.is_file(follow_symlinks=False):
                    shutil.copy2(entry.path, destination, follow_symlinks=False)
