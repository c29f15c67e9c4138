"""Memory files on disk: descriptions from frontmatter, listing a scope, reading text (SPEC §4)."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memtab.store.paths import Scope, VirtualPath, segment_problem

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


class _CoreSchemaLoader(yaml.SafeLoader):
    """YAML 1.2 core schema, as mux reads frontmatter: `yes`, `on` and dates stay strings."""


_CoreSchemaLoader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    (
        "tag:yaml.org,2002:int",
        r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
        list("-+0123456789"),
    ),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+0123456789."),
    ),
):
    _CoreSchemaLoader.add_implicit_resolver(_tag, re.compile(_pattern), _first)

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$", re.DOTALL | re.MULTILINE)
_EMPTY_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n---[ \t]*(\r?\n|\Z)")
_WHITESPACE_RUN = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def frontmatter_block(prefix: str) -> str | None:
    """The YAML between the opening and closing `---` lines at the very top, if any."""
    if _EMPTY_FRONTMATTER.match(prefix):
        return ""
    match = _FRONTMATTER.match(prefix)
    return match.group(1) if match else None


def clean_description(value: str) -> str:
    """Collapse whitespace runs, strip control chars, trim, cut to 200 UTF-16 units + `…`."""
    text = _CONTROL.sub("", _WHITESPACE_RUN.sub(" ", value)).strip()
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > MAX_DESCRIPTION_UNITS:
            return text[:index].rstrip() + "…"
    return text


def description_from_text(prefix: str) -> str:
    """The `description:` of a file whose first 4 KiB are `prefix`; "" when absent or malformed."""
    block = frontmatter_block(prefix)
    if not block or "description" not in block:
        return ""
    try:
        data: Any = yaml.load(block, Loader=_CoreSchemaLoader)  # a SafeLoader subclass
    except yaml.YAMLError:
        return ""
    if not isinstance(data, dict):
        return ""
    value = data.get("description")
    return clean_description(value) if isinstance(value, str) else ""


def read_prefix(path: Path) -> bytes:
    """The first 4 KiB of a file (descriptions are read from there only)."""
    with open(path, "rb") as handle:
        return handle.read(DESCRIPTION_PREFIX_BYTES)


def _entry_for(path: VirtualPath, stat: os.stat_result, physical: str) -> FileEntry:
    try:
        prefix = read_prefix(Path(physical))
    except OSError:
        prefix = b""
    binary = b"\x00" in prefix
    description = "" if binary else description_from_text(prefix.decode("utf-8", "replace"))
    return FileEntry(
        path=path,
        description=description,
        size_bytes=stat.st_size,
        modified_at_ms=int(stat.st_mtime * 1000),
        binary=binary,
    )


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

    def walk(directory: str, segments: tuple[str, ...]) -> None:
        nonlocal error
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except FileNotFoundError:
            return
        except OSError as failure:
            if not segments:
                error = f"Cannot read {directory}: {failure.strerror or failure}"
            return
        for entry in entries:
            name = entry.name
            if name.startswith(".") or segment_problem(name) is not None:
                continue
            try:
                if entry.is_symlink():
                    continue
                child = (*segments, name)
                if entry.is_dir(follow_symlinks=False):
                    directories.append(VirtualPath(scope, child))
                    walk(entry.path, child)
                elif entry.is_file(follow_symlinks=False):
                    files.append(_entry_for(VirtualPath(scope, child), entry.stat(), entry.path))
            except OSError:
                continue  # vanished or unreadable while listing

    walk(str(root), ())
    files.sort(key=lambda f: sort_key(f.path.segments, is_dir=False))
    directories.sort(key=lambda d: sort_key(d.segments, is_dir=True))
    return ScopeListing(scope, tuple(files), tuple(directories), error)


def sort_key(segments: tuple[str, ...], *, is_dir: bool) -> str:
    """Listing order: by path, with directories keyed as `name/` (SPEC §4)."""
    joined = "/".join(segments)
    return joined + "/" if is_dir else joined


def content_sha256(content: str) -> str:
    """The sha256 the editor compares: hex of the UTF-8 encoding of the decoded content."""
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


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
    """How many visible files a scope holds (the 1000-file cap counts these)."""
    count = 0
    stack = [str(root)]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as iterator:
                for entry in iterator:
                    if entry.name.startswith(".") or entry.is_symlink():
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        count += 1
        except OSError:
            continue
    return count
