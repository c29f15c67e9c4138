"""Memory files on disk: listing a scope with descriptions, reading text (docs/formats.md §4).

Three views of a scope, one walk (`_walk`: the listing rules of docs/formats.md §4, links never
followed): `list_scope` reads every file's size, time and description; `outline_scope`
only counts the files of each directory from their names (no file is opened or stat'ed:
what a tree can show of 20,000 files at once); `update_listing` re-reads just the files a
watcher reported and patches a listing with them; `stat_scope` only stats them (what a
search index compares), `stat_listed_file` one a watcher reported. Descriptions come from
`memtab.store.text.frontmatter`, the one frontmatter reader.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from memtab.fs.atomic import Directory, encode_utf8, is_temp_name, is_write_temp
from memtab.fs.readable import HardLinkedFileError, open_readable_path, read_readable
from memtab.store.description_cache import KnownFiles
from memtab.store.paths import (
    MAX_PATH_DEPTH,
    PLAIN_LISTED_NAME,
    Scope,
    VirtualPath,
    is_addressable_name,
    is_too_deep,
    shown_name,
    too_deep_words,
    unaddressable_reason,
)
from memtab.store.text.frontmatter import (
    DESCRIPTION_PREFIX_BYTES,
    description_from_prefix,
    title_of,
)

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 102_400
MAX_FILES_PER_SCOPE = 1000
# A temp file of Memtab's own pattern this old was left by a process that died mid-write
# (a write takes milliseconds); the next listing removes it.
STALE_TEMP_AGE_S = 60.0


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


class ScopeOutline(NamedTuple):
    """A scope's directories and how many files each holds directly, from names alone."""

    scope: Scope
    directories: tuple[VirtualPath, ...] = ()
    direct_files: Mapping[tuple[str, ...], int] = MappingProxyType({})
    """Files directly in each directory, by its segments (`()` is the scope root)."""
    error: str | None = None
    too_deep: tuple[VirtualPath, ...] = ()
    """As `ScopeListing.too_deep`."""

    @property
    def file_count(self) -> int:
        return sum(self.direct_files.values())


def _read_entry(
    physical: str, path: VirtualPath, known: os.DirEntry[str] | os.stat_result
) -> FileEntry:
    return _read_entry_stat(physical, path, known)[0]


def _read_entry_stat(
    physical: str, path: VirtualPath, known: os.DirEntry[str] | os.stat_result
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
        stat_result = (  # unreadable (permissions): listed, undescribed
            known if isinstance(known, os.stat_result) else known.stat(follow_symlinks=False)
        )
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


def _described_entry(
    entry: os.DirEntry[str], path: VirtualPath, known: KnownFiles | None
) -> FileEntry | None:
    """A listed file with its description: as remembered in `known` when the file is
    still as it was then (`store.description_cache`), else read (and learnt). None when
    it went between the listing and its reading: the next scan reports it gone."""
    try:
        if known is not None:
            return described_file(entry.path, path, entry.stat(follow_symlinks=False), known)
        return _read_entry(entry.path, path, entry)
    except OSError:
        return None


def described_file(
    physical: str, path: VirtualPath, info: os.stat_result, known: KnownFiles
) -> FileEntry | None:
    """The file at `physical` as `list_scope` lists it, from its stat (`info`, as a stat
    walk saw it): remembered in `known` when still as `info` says, else read and learnt.
    None when it went since."""
    relative = "/".join(path.segments)
    remembered = known.recall(relative, info)
    if remembered is not None:
        description, heading, binary = remembered
        return FileEntry(
            path, description, info.st_size, info.st_mtime_ns // 1_000_000, binary, heading
        )
    try:
        fresh, read = _read_entry_stat(physical, path, info)
    except OSError:
        return None
    known.learn(relative, read, (fresh.description, fresh.heading, fresh.binary))
    return fresh


def remove_if_stale_temp(
    entry: os.DirEntry[str], now: float, *, max_age_s: float = STALE_TEMP_AGE_S
) -> bool:
    """Delete a temp file a killed Memtab process left behind: named by Memtab's pattern,
    a regular file, older than `max_age_s` at `now` (a time). Whether it went; best effort.
    The one rule for the scopes (listings), the home's own files (`store.leftovers`) and
    history's packs."""
    if not is_temp_name(entry.name):
        return False
    try:
        info = entry.stat(follow_symlinks=False)
        if not (stat.S_ISREG(info.st_mode) and now - info.st_mtime > max_age_s):
            return False
        os.unlink(entry.path)
    except OSError:
        return False
    logger.info("Removed %s, left behind by an interrupted write", entry.path)
    return True


def is_hidden_name(name: str) -> bool:
    """Whether an entry is left out of every listing on purpose, whatever its name says:
    a dotfile (docs/formats.md §4.2), or the temp file an atomic write puts beside its
    target, Memtab's or xum's (`fs.atomic.is_write_temp`, §16) — never a memory file,
    so never listed, recorded, badged, synced or consolidated."""
    return name.startswith(".") or is_write_temp(name)


def is_listable_name(name: str) -> bool:
    """Whether a directory entry may appear in listings: not hidden, an addressable name."""
    if PLAIN_LISTED_NAME.fullmatch(name):
        return True
    return not is_hidden_name(name) and is_addressable_name(name)


class _Walk:
    """Every listable entry below a scope root, as (parent segments, entry, is a dir).

    Hidden entries (`is_hidden_name`) and entries with invalid names are skipped;
    symlinks are neither yielded nor followed (`follow_symlinks=False`: a link is neither
    a file nor a dir here); sockets, FIFOs and devices are not yielded; an unreadable
    directory yields nothing, and `error` says so when it is the root. Nothing past
    `MAX_PATH_DEPTH` is yielded: a directory at that depth is not descended into, and
    `too_deep` names it when it holds anything.
    With `remove_stale_temps`, temp files an interrupted write left behind (Memtab's
    pattern, over a minute old) are removed on the way: the walk sees them anyway.
    """

    def __init__(self, root: Path, *, remove_stale_temps: bool = False) -> None:
        self._root = root
        self._remove_stale_temps = remove_stale_temps
        self.error: str | None = None
        self.unaddressable: list[tuple[tuple[str, ...], str, bool]] = []
        """(parent segments, name, is a dir) of entries no virtual path can name (not
        dotfiles: those are hidden on purpose), not descended into."""
        self.too_deep: list[tuple[str, ...]] = []
        """The segments of directories at `MAX_PATH_DEPTH` that hold entries (not walked)."""

    def __iter__(self) -> Iterator[tuple[tuple[str, ...], os.DirEntry[str], bool]]:
        # An explicit stack, not recursion: a deeply nested tree must not overflow it.
        pending: list[tuple[str, tuple[str, ...]]] = [(str(self._root), ())]
        now = time.time()
        while pending:
            directory, segments = pending.pop()
            try:
                with os.scandir(directory) as iterator:
                    entries = list(iterator)
            except FileNotFoundError:
                continue
            except OSError as failure:
                if not segments:
                    self.error = f"Cannot read {directory}: {failure.strerror or failure}"
                continue
            for entry in entries:
                if not is_listable_name(entry.name):
                    if self._remove_stale_temps:
                        remove_if_stale_temp(entry, now)
                    if not is_hidden_name(entry.name):
                        self._note_unaddressable(segments, entry)
                    continue
                try:
                    if entry.is_file(follow_symlinks=False):
                        yield segments, entry, False
                    elif entry.is_dir(follow_symlinks=False):
                        yield segments, entry, True
                        child = (*segments, entry.name)
                        if len(child) < MAX_PATH_DEPTH:
                            pending.append((entry.path, child))
                        elif holds_entries(entry.path):
                            self.too_deep.append(child)
                except OSError:
                    continue  # vanished or unreadable while listing

    def _note_unaddressable(self, segments: tuple[str, ...], entry: os.DirEntry[str]) -> None:
        try:
            if entry.is_dir(follow_symlinks=False):
                self.unaddressable.append((segments, entry.name, True))
            elif entry.is_file(follow_symlinks=False):
                self.unaddressable.append((segments, entry.name, False))
        except OSError:
            pass  # vanished while listing


def holds_entries(directory: str) -> bool:
    """Whether a directory holds anything but hidden entries (False when it cannot be
    read)."""
    try:
        with os.scandir(directory) as iterator:
            return any(not is_hidden_name(entry.name) for entry in iterator)
    except OSError:
        return False


def note_too_deep(
    scope: Scope, root: Path, too_deep: Iterable[tuple[str, ...]]
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


def _stat_entry(path: VirtualPath, entry: os.DirEntry[str]) -> FileEntry | None:
    """A listed file from its directory entry alone: size and time, no description, not
    known to be binary (None when it vanished)."""
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    return FileEntry(path, "", info.st_size, info.st_mtime_ns // 1_000_000)


class StatListing(NamedTuple):
    """A scope's files as a stat walk sees them: each file's `lstat` by its path inside
    the scope (`/`-joined), in no particular order; no file opened."""

    scope: Scope
    files: Mapping[str, os.stat_result] = MappingProxyType({})
    too_deep: tuple[VirtualPath, ...] = ()
    """As `ScopeListing.too_deep`."""


def stat_scope(scope: Scope, root: Path | None) -> StatListing:
    """The files `list_scope` lists, with their stat and nothing read: what a search
    compares with its index's stamps (size, mtime, ctime, inode) to find what changed."""
    if root is None:
        return StatListing(scope)
    files: dict[str, os.stat_result] = {}
    walk = _Walk(root, remove_stale_temps=True)
    folder: tuple[str, ...] = ()
    base = ""
    for segments, entry, is_dir in walk:
        if is_dir:
            continue
        if segments is not folder:  # one tuple a directory: its prefix joined once
            folder, base = segments, "".join(f"{name}/" for name in segments)
        try:
            files[base + entry.name] = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # vanished while listing
    return StatListing(scope, files, note_too_deep(scope, root, walk.too_deep))


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
    scope: Scope, root: Path | None, *, read_files: bool = True, known: KnownFiles | None = None
) -> ScopeListing:
    """List a scope recursively by the rules of docs/formats.md §4 (see `_Walk`), reading each
    file's size, time and description. A missing root is an empty scope. Without `read_files`,
    no file is opened: no descriptions, and `binary` is not known (for a caller that reads
    every file next anyway). With `known` (the window's scans), a file still as it was when
    last read is not read again (`store.description_cache`)."""
    if root is None:
        return ScopeListing(scope)
    files: list[FileEntry] = []
    directories: list[VirtualPath] = []
    walk = _Walk(root, remove_stale_temps=True)
    for segments, entry, is_dir in walk:
        path = VirtualPath(scope, (*segments, entry.name))
        if is_dir:
            directories.append(path)
        elif read_files:
            if (described := _described_entry(entry, path, known)) is not None:
                files.append(described)
        elif (stated := _stat_entry(path, entry)) is not None:
            files.append(stated)
    files.sort(key=_file_sort_key)
    directories.sort(key=_directory_sort_key)
    unaddressable = [
        UnaddressableEntry(VirtualPath(scope, segments), name, is_dir)
        for segments, name, is_dir in sorted(walk.unaddressable)
    ]
    too_deep = note_too_deep(scope, root, walk.too_deep)
    return ScopeListing(
        scope, tuple(files), tuple(directories), walk.error, tuple(unaddressable), too_deep
    )


def outline_scope(scope: Scope, root: Path | None) -> ScopeOutline:
    """A scope's directories and file counts by the listing's rules, from names alone (a
    few ms for 20,000 files: no file is opened or stat'ed)."""
    if root is None:
        return ScopeOutline(scope)
    directories: list[VirtualPath] = []
    counts: dict[tuple[str, ...], int] = {}
    walk = _Walk(root)
    for segments, entry, is_dir in walk:
        if is_dir:
            directories.append(VirtualPath(scope, (*segments, entry.name)))
        else:
            counts[segments] = counts.get(segments, 0) + 1
    directories.sort(key=_directory_sort_key)
    too_deep = note_too_deep(scope, root, walk.too_deep)
    return ScopeOutline(scope, tuple(directories), counts, walk.error, too_deep)


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
    data, info = read_readable(directory, name, limit=MAX_FILE_BYTES + 1)
    kept = data[:MAX_FILE_BYTES]
    try:
        content = kept.decode("utf-8")
        encoded = kept  # valid UTF-8 is its own encoding: no need to encode it again
    except UnicodeDecodeError:
        content = kept.decode("utf-8", "replace")
        encoded = encode_utf8(content)
    size = max(info.st_size, len(data))
    over_cap = len(data) > MAX_FILE_BYTES or len(encoded) > MAX_FILE_BYTES
    sha256 = hashlib.sha256(encoded).hexdigest()  # = content_sha256(content)
    return FileContent(content, sha256, size, b"\x00" in kept, over_cap), data


def read_file_content(physical: Path | str, *, follow_link: bool = False) -> FileContent:
    """Read a memory file by path (see `read_file_in`; at most the cap), its folder's path
    trusted as it is. `follow_link`: a link is read as the file it names (another agent's
    linked file, `sources`), held to the same rule. Raises OSError."""
    text = os.path.realpath(physical) if follow_link else os.fspath(physical)
    parent, name = os.path.split(text)
    return read_file_in(Directory(None, parent or "."), name)[0]


def count_files(root: Path) -> int:
    """How many files a scope's listing shows (the 1000-file cap counts these)."""
    return sum(1 for _segments, _entry, is_dir in _Walk(root) if not is_dir)
