"""Memory files on disk: listing a scope with descriptions, outlining it from names alone, patching
a listing, reading text (docs/formats.md §4), over one walk (`store.scope_walk`)."""

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
    """A memory file as listed: where it is, what it says it is, its size and age."""

    path: VirtualPath
    description: str
    size_bytes: int
    modified_at_ms: int
    binary: bool = False
    heading: str = ""  # what the file calls itself, read only when it has no description

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


# Built by tuple's own constructor: NamedTuple's `__new__` in Python costs.
_listed_file = functools.partial(tuple.__new__, FileEntry)
_listed_path = functools.partial(tuple.__new__, VirtualPath)


class UnaddressableEntry(NamedTuple):
    """A file or folder named so no virtual path reaches it: listed apart with a warning, never
    opened or changed (docs/formats.md §4.2)."""

    parent: VirtualPath
    name: str  # as on disk (an undecodable byte is a lone surrogate)
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
    too_deep: tuple[VirtualPath, ...]  # as `ScopeListing.too_deep`
    walk: ScopeWalk | None
    """The walk the outline was made from, listed by the full listing that follows."""

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
    """The file read and its stat as read. FileNotFoundError when gone since listed, OSError when no
    longer a regular file."""
    try:  # one open (by the readability rule) for both the stat and the 4 KiB prefix, unbuffered
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
    modified = stat_result.st_mtime_ns // 1_000_000
    return FileEntry(path, description, stat_result.st_size, modified, binary, heading), stat_result


def _list_known_files(
    scope: Scope, folder: Folder, prefix: str, known: KnownFiles, keyed: list[tuple[str, FileEntry]]
) -> None:
    """`list_scope`'s files of one folder with the description cache, each remembered or read; a
    start's hot loop."""
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
    """The file at `physical` as `list_scope` lists it: remembered in `known` when still as `info`
    says, else read and learnt; None when gone."""
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
    """The directories a walk of `root` did not go into, each logged once a process."""
    found = sorted(too_deep)
    for segments in found:
        key = (os.fspath(root), segments)
        if key not in _LOGGED_TOO_DEEP:
            _LOGGED_TOO_DEEP.add(key)
            words = too_deep_words(VirtualPath(scope, segments))
            logger.warning("Not listed, searched or recorded: %s (docs/formats.md §5)", words)
    return tuple(VirtualPath(scope, segments) for segments in found)


_LOGGED_TOO_DEEP: set[tuple[str, tuple[str, ...]]] = set()


# Stat by name in a folder opened once, never through a link, where `stat` takes a folder.
_STAT_AT = os.stat in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
_FOLDER_FLAGS = (
    os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)  # fmt: skip


def stat_names(folder: str, names: Iterable[str], prefix: str = "") -> dict[str, os.stat_result]:
    """The `lstat` of each of `names` in `folder` (vanished ones left out), by `prefix` + name,
    through the folder opened once."""
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
    """What `list_scope` walks, names and inodes alone."""
    return walk_scope(root, remove_stale_temps=True)


def stat_listed_file(root: Path | str, segments: tuple[str, ...]) -> os.stat_result | None:
    """The `lstat` of the file at `segments` under `root` when a listing lists it there, else None;
    IsADirectoryError for a directory."""
    if (
        not segments
        or not all(is_listable_name(name) for name in segments)
        or is_too_deep(segments)
    ):
        return None
    try:
        if not _folders_on_the_way(root, segments):
            return None
        info = os.lstat(os.path.join(root, *segments))
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(os.path.join(root, *segments))
    return info if stat.S_ISREG(info.st_mode) else None


def _folders_on_the_way(root: Path | str, segments: tuple[str, ...]) -> bool:
    """Whether every directory on the way to `segments` is one, not a link (OSError)."""
    join, lstat = os.path.join, os.lstat
    return all(
        stat.S_ISDIR(lstat(join(root, *segments[:d])).st_mode) for d in range(1, len(segments))
    )


def read_description(physical: str) -> str:
    """A file's description as `list_scope` reads it; "" when none, binary or unreadable."""
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
    stats: dict[VirtualPath, os.stat_result] | None = None,
) -> ScopeListing:
    """List a scope by docs/formats.md §4, with each file's size, time and description; a missing
    root is empty. Without `read_files` nothing is opened (and each file's `lstat` is put in
    `stats`, if given); with `known` a file still as last read is not read; with `walked` the root
    is not walked again."""
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
            try:  # gone since the walk: not listed
                if read_files:
                    listed = _read_entry(physical, path, None)
                else:  # from its `lstat` alone
                    info = os.lstat(physical)
                    listed = FileEntry(path, "", info.st_size, info.st_mtime_ns // 1_000_000)
                    if stats is not None:
                        stats[path] = info
            except OSError:
                continue
            keyed.append((prefix + name, listed))
    keyed.sort(key=_first)
    directories.sort(key=_directory_sort_key)
    unaddressable = [
        UnaddressableEntry(VirtualPath(scope, segments), name, is_dir)
        for segments, name, is_dir in sorted(walked.unaddressable)
    ]
    too_deep = note_too_deep(scope, root, walked.too_deep)
    files, found = tuple(map(_second, keyed)), tuple(directories)
    return ScopeListing(scope, files, found, walked.error, tuple(unaddressable), too_deep)


def outline_scope(scope: Scope, root: Path | None) -> ScopeOutline:
    """A scope's directories and file counts by the listing's rules, from names, with the walk."""
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
    """`listing` with the files at `changed` read again; None when a change is not about a file of a
    directory it has (relist then). Links and unlisted names are ignored."""
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
            if not _folders_on_the_way(root, segments):  # one became a link
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
        files.sort(key=lambda entry: sort_key(entry.path.segments, is_dir=False))
    return listing._replace(files=tuple(files))


def sort_key(segments: tuple[str, ...], *, is_dir: bool) -> str:
    """Listing order: by path, with directories keyed as `name/` (docs/formats.md §4)."""
    joined = "/".join(segments)
    return joined + "/" if is_dir else joined


_first = operator.itemgetter(0)
_second = operator.itemgetter(1)


def _directory_sort_key(path: VirtualPath) -> str:
    return sort_key(path.segments, is_dir=True)


def content_sha256(content: str) -> str:
    """The sha256 the editor compares: of the content encoded as a save writes it."""
    return hashlib.sha256(encode_utf8(content)).hexdigest()


class FileContent(NamedTuple):
    """A file's text as the editor sees it, with the sha that guards the next save; an over-cap file
    holds its first MAX_FILE_BYTES (`over_cap`)."""

    content: str
    sha256: str
    size_bytes: int
    binary: bool
    over_cap: bool = False


def read_file_in(directory: Directory, name: str) -> tuple[FileContent, bytes]:
    """Read memory file `name` in `directory`, at most the cap and one byte, never through a link;
    also the bytes read. Over the cap as mux counts it; OSError (`HardLinkedFileError`)."""
    content, encoded, data, size, over_cap = read_text_in(directory, name)
    sha256 = hashlib.sha256(encoded).hexdigest()  # = content_sha256(content)
    return FileContent(content, sha256, size, b"\x00" in data[:MAX_FILE_BYTES], over_cap), data


def read_text_in(directory: Directory, name: str) -> tuple[str, bytes, bytes, int, bool]:
    """`read_file_in` without its sha: text, UTF-8, bytes read, size, over the cap."""
    data, info = read_readable(directory, name, limit=MAX_FILE_BYTES + 1)
    content, encoded, over_cap = capped_text(data)
    return content, encoded, data, max(info.st_size, len(data)), over_cap


def capped_text(data: bytes) -> tuple[str, bytes, bool]:
    """What `read_text_in` makes of the bytes read: the text, its UTF-8, whether over the cap."""
    kept = data[:MAX_FILE_BYTES]
    try:
        content, encoded = kept.decode("utf-8"), kept  # valid UTF-8 is its own encoding
    except UnicodeDecodeError:
        content = kept.decode("utf-8", "replace")
        encoded = encode_utf8(content)
    return content, encoded, len(data) > MAX_FILE_BYTES or len(encoded) > MAX_FILE_BYTES


def read_file_content(physical: Path | str, *, follow_link: bool = False) -> FileContent:
    """Read a memory file by path (its folder trusted); `follow_link` reads a link as the file it
    names. OSError."""
    text = os.path.realpath(physical) if follow_link else os.fspath(physical)
    parent, name = os.path.split(text)
    return read_file_in(Directory(None, parent or "."), name)[0]


def count_files(root: Path) -> int:
    """How many files a scope's listing shows (the 1000-file cap counts these)."""
    return sum(len(folder.files) for folder in walk_scope(root).folders)
