"""Memory files on disk: listing a scope with descriptions, reading text (docs/formats.md §4).

Three views of a scope, one walk (`store.scope_walk`: the listing rules of docs/formats.md §4,
links never followed): `list_scope` reads every file's size, time and description; `outline_scope`
only counts the files of each directory from their names (no file is opened or stat'ed:
what a tree can show of 20,000 files at once); `update_listing` re-reads just the files a
watcher reported and patches a listing with them; `name_scope` walks their names and
inodes alone and `stat_names` stats them (what a search index compares), `stat_listed_file`
one a watcher reported. Descriptions come from `memtab.store.text.frontmatter`, the one
frontmatter reader.
"""

import errno
import functools
import hashlib
import logging
import operator
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from memtab.fs.atomic import Directory, encode_utf8
from memtab.fs.readable import HardLinkedFileError, open_readable_path, read_readable
from memtab.fs.slotted import Slotted
from memtab.store.description_cache import KnownFiles
from memtab.store.paths import (
    Scope,
    VirtualPath,
    is_too_deep,
    shown_name,
    too_deep_words,
    unaddressable_reason,
)
from memtab.store.scope_walk import Folder, ScopeWalk, is_listable_name, walk_scope
from memtab.store.text.frontmatter import (
    DESCRIPTION_PREFIX_BYTES,
    description_from_prefix,
    title_of,
)

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 102_400
MAX_FILES_PER_SCOPE = 1000


class FileEntry(NamedTuple):
    """A memory file as listed: where it is, what it says it is, and its size and age
    (a tuple: the tree keeps one a file)."""

    path: VirtualPath
    description: str
    size_bytes: int
    modified_at_ms: int
    binary: bool = False
    heading: str = ""
    """What the file calls itself (`frontmatter.title_of`), read only when it has no
    description: the tree shows it in the description's place."""

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


# A listing makes a `FileEntry` and a `VirtualPath` a file: by tuple's own constructor, from
# the fields in order, not through NamedTuple's `__new__` in Python (a tenth of a listing).
_listed_file = functools.partial(tuple.__new__, FileEntry)
_listed_path = functools.partial(tuple.__new__, VirtualPath)


class UnaddressableEntry(NamedTuple):
    """A file or folder another program named so that no virtual path can reach it (a
    line break, a backslash, bytes that are not UTF-8 in its name): listed apart, with a
    warning, never opened or changed through Memtab (docs/formats.md §4.2)."""

    parent: VirtualPath
    name: str
    """As on disk (an undecodable byte is a lone surrogate)."""
    is_dir: bool

    @property
    def shown(self) -> str:
        """Its path as Memtab shows it (`shown_name`: escapes where the name is not text)."""
        return f"{self.parent}/{shown_name(self.name)}"

    @property
    def reason(self) -> str:
        return unaddressable_reason(self.name)


class ScopeListing(NamedTuple):
    """Every visible file and directory of one scope, sorted by path (dirs keyed `name/`)."""

    scope: Scope
    files: tuple[FileEntry, ...] = ()
    directories: tuple[VirtualPath, ...] = ()
    error: str | None = None
    unaddressable: tuple[UnaddressableEntry, ...] = ()
    """Files and folders no virtual path can name, shown apart with a warning."""
    too_deep: tuple[VirtualPath, ...] = ()
    """Directories at `MAX_PATH_DEPTH` whose entries are not listed (docs/formats.md §5)."""

    @property
    def file_count(self) -> int:
        return len(self.files)


class ScopeOutline(Slotted):
    """A scope's directories and how many files each holds directly, from names alone."""

    __slots__ = ("direct_files", "directories", "error", "scope", "too_deep", "walk")

    scope: Scope
    directories: tuple[VirtualPath, ...]
    direct_files: Mapping[tuple[str, ...], int]
    """Files directly in each directory, by its segments (`()` is the scope root)."""
    error: str | None
    too_deep: tuple[VirtualPath, ...]
    """As `ScopeListing.too_deep`."""
    walk: ScopeWalk | None
    """The walk the outline was made from: the full listing that follows it lists its
    names (`list_scope`'s `walked`) instead of walking again."""

    def __init__(
        self,
        scope: Scope,
        directories: tuple[VirtualPath, ...] = (),
        direct_files: Mapping[tuple[str, ...], int] = MappingProxyType({}),
        error: str | None = None,
        too_deep: tuple[VirtualPath, ...] = (),
        walk: ScopeWalk | None = None,
    ) -> None:
        self.scope = scope
        self.directories = directories
        self.direct_files = direct_files
        self.error = error
        self.too_deep = too_deep
        self.walk = walk

    @property
    def file_count(self) -> int:
        return sum(self.direct_files.values())


def _read_entry(physical: str, path: VirtualPath, known: os.stat_result | None) -> FileEntry:
    return _read_entry_stat(physical, path, known)[0]


def _read_entry_stat(
    physical: str, path: VirtualPath, known: os.stat_result | None
) -> tuple[FileEntry, os.stat_result]:
    """The file read, and its stat as read. FileNotFoundError when it went since it was
    listed (an agent deleted or moved it meanwhile), OSError when it is no longer a
    regular file (a FIFO put in its place: never listed)."""
    # One open (by the readability rule, `fs.readable`) for both the size/mtime and the
    # 4 KiB prefix, and none of the buffering layers of `open()` (listing speed is
    # dominated by this).
    try:
        fd, stat_result = open_readable_path(physical)
    except HardLinkedFileError as linked:  # may be a file outside the home: listed, not read
        stat_result = linked.info or os.lstat(physical)
        prefix = b""
    except (FileNotFoundError, IsADirectoryError):
        raise  # not listed undescribed from the listing's stat: it is no longer there
    except OSError as error:
        if error.errno in (errno.EINVAL, errno.ELOOP):
            raise  # a link or a special file now: never listed
        # unreadable (permissions): listed, undescribed
        stat_result = known if known is not None else os.lstat(physical)
        prefix = b""
    else:
        try:
            prefix = os.read(fd, DESCRIPTION_PREFIX_BYTES)
        finally:
            os.close(fd)
    binary = b"\x00" in prefix
    description = "" if binary else description_from_prefix(prefix)
    heading = ""
    if not description and not binary and b"#" in prefix:
        heading = title_of(prefix.decode("utf-8", "replace"))
    entry = FileEntry(
        path=path,
        description=description,
        size_bytes=stat_result.st_size,
        modified_at_ms=stat_result.st_mtime_ns // 1_000_000,
        binary=binary,
        heading=heading,
    )
    return entry, stat_result


def _listed_entry(physical: str, path: VirtualPath) -> FileEntry | None:
    """A listed file read with its description. None when it went since the walk saw it:
    the next scan reports it gone."""
    try:
        return _read_entry(physical, path, None)
    except OSError:
        return None


def _list_known_files(
    scope: Scope, folder: Folder, prefix: str, known: KnownFiles, keyed: list[tuple[str, FileEntry]]
) -> None:
    """`list_scope`'s files of one folder with the window's description cache, each
    stat'ed then remembered or read (`described_file`), a file gone since the walk left
    out (the next scan reports it gone): a start's hot loop, its names bound once."""
    lstat, add = os.lstat, keyed.append
    directory, segments = folder.path + "/", folder.segments
    for name in folder.files:
        physical = directory + name
        relative = prefix + name
        try:
            info = lstat(physical)
        except OSError:
            continue
        path = _listed_path((scope, (*segments, name)))
        if (listed := described_file(physical, path, info, known, relative)) is not None:
            add((relative, listed))


def described_file(
    physical: str,
    path: VirtualPath,
    info: os.stat_result,
    known: KnownFiles,
    relative: str | None = None,
) -> FileEntry | None:
    """The file at `physical` as `list_scope` lists it, from its stat (`info`, as a stat
    walk saw it): remembered in `known` when still as `info` says, else read and learnt.
    None when it went since. `relative`: the path's segments `/`-joined, if known."""
    if relative is None:
        relative = "/".join(path.segments)
    remembered = known.recall(relative, info)
    if remembered is not None:
        description, heading, binary = remembered
        return _listed_file(
            (path, description, info.st_size, info.st_mtime_ns // 1_000_000, binary, heading)
        )
    try:
        fresh, read = _read_entry_stat(physical, path, info)
    except OSError:
        return None
    known.learn(relative, read, (fresh.description, fresh.heading, fresh.binary))
    return fresh


def note_too_deep(
    scope: Scope, root: Path | str, too_deep: Iterable[tuple[str, ...]]
) -> tuple[VirtualPath, ...]:
    """The directories a walk of `root` did not go into, as paths; each is logged once a
    process."""
    found = sorted(too_deep)
    for segments in found:
        key = (os.fspath(root), segments)
        if key not in _LOGGED_TOO_DEEP:
            _LOGGED_TOO_DEEP.add(key)
            words = too_deep_words(VirtualPath(scope, segments))
            logger.warning("Not listed, searched or recorded: %s (docs/formats.md §5)", words)
    return tuple(VirtualPath(scope, segments) for segments in found)


_LOGGED_TOO_DEEP: set[tuple[str, tuple[str, ...]]] = set()


def _stat_entry(physical: str, path: VirtualPath) -> FileEntry | None:
    """A listed file from its `lstat` alone: size and time, no description, not known to
    be binary (None when it vanished)."""
    try:
        info = os.lstat(physical)
    except OSError:
        return None
    return FileEntry(path, "", info.st_size, info.st_mtime_ns // 1_000_000)


# A folder opened to stat its files by name (never through a link), where `stat` takes one.
_STAT_AT = os.stat in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
_FOLDER_FLAGS = (
    os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)  # fmt: skip


def stat_names(folder: str, names: Iterable[str], prefix: str = "") -> dict[str, os.stat_result]:
    """The `lstat` of each of `names` in `folder` (one vanished meanwhile left out), by
    `prefix` and its name: by its name in the folder opened once (`fstatat`: the kernel
    resolves one name, not the whole path; a third of a stat's cost)."""
    found: dict[str, os.stat_result] = {}
    try:
        fd = os.open(folder, _FOLDER_FLAGS) if _STAT_AT else None
    except OSError:
        return found  # gone or replaced while listing
    try:
        for name in names:
            try:
                if fd is None:
                    found[prefix + name] = os.lstat(f"{folder}/{name}")
                else:
                    found[prefix + name] = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue  # vanished while listing
    finally:
        if fd is not None:
            os.close(fd)
    return found


def name_scope(root: Path | str) -> ScopeWalk:
    """What `list_scope` walks, names and inodes alone (no file stat'ed): a search
    compares them with its index's and stats the files it must (`stat_names`)."""
    return walk_scope(root, remove_stale_temps=True)


def stat_listed_file(root: Path | str, segments: tuple[str, ...]) -> os.stat_result | None:
    """The `lstat` of the file at `segments` under `root` when a listing lists it there,
    None when it lists nothing there (gone, a hidden or unaddressable name, past the
    depth, a link or a special file, or reached through a link). IsADirectoryError when
    it is a directory: what it holds needs a listing."""
    if not segments or not all(is_listable_name(name) for name in segments):
        return None
    if is_too_deep(segments):
        return None
    try:
        for depth in range(1, len(segments)):  # no directory on the way is a link
            if not stat.S_ISDIR(os.lstat(os.path.join(root, *segments[:depth])).st_mode):
                return None
        info = os.lstat(os.path.join(root, *segments))
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(os.path.join(root, *segments))
    return info if stat.S_ISREG(info.st_mode) else None


def read_description(physical: str) -> str:
    """A file's description as `list_scope` reads it (the first 4 KiB, by the readability
    rule): "" when it has none, is binary, or cannot be read."""
    try:
        fd, _info = open_readable_path(physical)
    except OSError:
        return ""
    try:
        prefix = os.read(fd, DESCRIPTION_PREFIX_BYTES)
    except OSError:
        return ""
    finally:
        os.close(fd)
    return "" if b"\x00" in prefix else description_from_prefix(prefix)


def list_scope(
    scope: Scope,
    root: Path | None,
    *,
    read_files: bool = True,
    known: KnownFiles | None = None,
    walked: ScopeWalk | None = None,
) -> ScopeListing:
    """List a scope recursively by the rules of docs/formats.md §4 (`walk_scope`), reading
    each file's size, time and description. A missing root is an empty scope. Without
    `read_files`, no file is opened: no descriptions, and `binary` is not known (for a
    caller that reads every file next anyway). With `known` (the window's scans), a file
    still as it was when last read is not read again (`store.description_cache`). With
    `walked` (an outline's walk of `root`), its names are listed — each file stat'ed now,
    one gone since left out — and the root is not walked again."""
    if root is None:
        return ScopeListing(scope)
    keyed: list[tuple[str, FileEntry]] = []  # each file by its place in the listing's order
    directories: list[VirtualPath] = []
    if walked is None or walked.root != os.fspath(root):
        walked = walk_scope(root, remove_stale_temps=True)
    for folder in walked.folders:
        segments = folder.segments
        directories += [VirtualPath(scope, (*segments, name)) for name in folder.directories]
        prefix = "".join(f"{name}/" for name in segments)  # `sort_key`'s, once a folder
        if known is not None:
            _list_known_files(scope, folder, prefix, known, keyed)
            continue
        for name in folder.files:
            physical = f"{folder.path}/{name}"
            path = _listed_path((scope, (*segments, name)))
            relative = prefix + name
            listed = _listed_entry(physical, path) if read_files else _stat_entry(physical, path)
            if listed is not None:
                keyed.append((relative, listed))
    keyed.sort(key=_first)
    directories.sort(key=_directory_sort_key)
    unaddressable = [
        UnaddressableEntry(VirtualPath(scope, segments), name, is_dir)
        for segments, name, is_dir in sorted(walked.unaddressable)
    ]
    too_deep = note_too_deep(scope, root, walked.too_deep)
    files = tuple(map(_second, keyed))
    return ScopeListing(
        scope, files, tuple(directories), walked.error, tuple(unaddressable), too_deep
    )


def outline_scope(scope: Scope, root: Path | None) -> ScopeOutline:
    """A scope's directories and file counts by the listing's rules, from names alone (a
    few ms for 20,000 files: no file is opened or stat'ed), with the walk they came from."""
    if root is None:
        return ScopeOutline(scope)
    walk = walk_scope(root)
    directories = [
        VirtualPath(scope, (*folder.segments, name))
        for folder in walk.folders
        for name in folder.directories
    ]
    counts = {folder.segments: len(folder.files) for folder in walk.folders if folder.files}
    directories.sort(key=_directory_sort_key)
    too_deep = note_too_deep(scope, root, walk.too_deep)
    return ScopeOutline(scope, tuple(directories), counts, walk.error, too_deep, walk)


def update_listing(
    listing: ScopeListing, root: Path, changed: Iterable[tuple[str, ...]]
) -> ScopeListing | None:
    """`listing` with the files at `changed` (segments under `root`) read again: added,
    updated or dropped. None when a change is not about a file of a directory the listing
    already has (a directory appeared or went, the root changed): relist the scope then.

    The same rules as the walk: names that are never listed are ignored, and a path
    through a link, or a link itself, is not a file.
    """
    by_path = {entry.path: entry for entry in listing.files}
    known_dirs = {path.segments for path in listing.directories}
    known_dirs.add(())
    added = False
    for segments in set(changed):
        if not segments or not all(is_listable_name(name) for name in segments):
            if not segments:
                return None
            continue
        path = VirtualPath(listing.scope, segments)
        if segments in known_dirs or segments[:-1] not in known_dirs or is_too_deep(segments):
            return None
        physical = os.path.join(root, *segments)
        try:
            for depth in range(1, len(segments)):  # no directory on the way became a link
                if not stat.S_ISDIR(os.lstat(os.path.join(root, *segments[:depth])).st_mode):
                    return None
            info = os.lstat(physical)
        except FileNotFoundError:
            by_path.pop(path, None)
            continue
        except OSError:
            return None
        if stat.S_ISDIR(info.st_mode):
            return None
        if not stat.S_ISREG(info.st_mode):
            by_path.pop(path, None)  # a link or a special file: never listed
            continue
        added = added or path not in by_path
        try:
            by_path[path] = _read_entry(physical, path, info)
        except OSError:
            by_path.pop(path, None)  # gone again; the next change reports it
    files = list(by_path.values())
    if added:
        files.sort(key=_file_sort_key)
    return listing._replace(files=tuple(files))


def sort_key(segments: tuple[str, ...], *, is_dir: bool) -> str:
    """Listing order: by path, with directories keyed as `name/` (docs/formats.md §4)."""
    joined = "/".join(segments)
    return joined + "/" if is_dir else joined


def _file_sort_key(entry: FileEntry) -> str:
    return sort_key(entry.path.segments, is_dir=False)


_first = operator.itemgetter(0)
_second = operator.itemgetter(1)


def _directory_sort_key(path: VirtualPath) -> str:
    return sort_key(path.segments, is_dir=True)


def content_sha256(content: str) -> str:
    """The sha256 the editor compares: hex of the UTF-8 encoding of the decoded content,
    encoded exactly as a save writes it (lone surrogates as U+FFFD), so the sha of saved
    content equals the sha of the file read back."""
    return hashlib.sha256(encode_utf8(content)).hexdigest()


class FileContent(NamedTuple):
    """A file's text as the editor sees it, with the sha that guards the next save. Reads
    stop at the cap: an over-cap file holds only its first MAX_FILE_BYTES bytes
    (`size_bytes` is the whole size), and `over_cap` says so."""

    content: str
    sha256: str
    size_bytes: int
    binary: bool
    over_cap: bool = False


def read_file_in(directory: Directory, name: str) -> tuple[FileContent, bytes]:
    """Read memory file `name` in `directory`: at most the cap (plus one byte to tell an
    over-cap file), never through a symlink; also the bytes read, to compare later.

    The cap follows mux: a file is over it when it is bigger, or when its text (invalid
    UTF-8 replaced by U+FFFD) takes more bytes. Raises OSError (`HardLinkedFileError` for
    a file with other hard links).
    """
    content, encoded, data, size, over_cap = read_text_in(directory, name)
    sha256 = hashlib.sha256(encoded).hexdigest()  # = content_sha256(content)
    binary = b"\x00" in data[:MAX_FILE_BYTES]
    return FileContent(content, sha256, size, binary, over_cap), data


def read_text_in(directory: Directory, name: str) -> tuple[str, bytes, bytes, int, bool]:
    """`read_file_in` without its sha: the text, its UTF-8, the bytes read, the file's
    size, and whether it is over the cap."""
    data, info = read_readable(directory, name, limit=MAX_FILE_BYTES + 1)
    content, encoded, over_cap = capped_text(data)
    return content, encoded, data, max(info.st_size, len(data)), over_cap


def capped_text(data: bytes) -> tuple[str, bytes, bool]:
    """What `read_text_in` makes of the bytes read of a file, at most the cap and one more
    (the search index reads its 20,000 by path): the text, its UTF-8, and whether it is
    over the cap."""
    kept = data[:MAX_FILE_BYTES]
    try:
        content = kept.decode("utf-8")
        encoded = kept  # valid UTF-8 is its own encoding: no need to encode it again
    except UnicodeDecodeError:
        content = kept.decode("utf-8", "replace")
        encoded = encode_utf8(content)
    return content, encoded, len(data) > MAX_FILE_BYTES or len(encoded) > MAX_FILE_BYTES


def read_file_content(physical: Path | str, *, follow_link: bool = False) -> FileContent:
    """Read a memory file by path (see `read_file_in`; at most the cap), its folder's path
    trusted as it is. `follow_link`: a link is read as the file it names (another agent's
    linked file, `sources`), held to the same rule. Raises OSError."""
    text = os.path.realpath(physical) if follow_link else os.fspath(physical)
    parent, name = os.path.split(text)
    return read_file_in(Directory(None, parent or "."), name)[0]


def count_files(root: Path) -> int:
    """How many files a scope's listing shows (the 1000-file cap counts these)."""
    return sum(len(folder.files) for folder in walk_scope(root).folders)
