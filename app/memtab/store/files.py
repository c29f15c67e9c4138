"""Memory files on disk: listing a scope with descriptions, reading text (SPEC §4).

Descriptions come from `memtab.store.frontmatter`, the one frontmatter reader.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.atomic import Directory, encode_utf8, is_temp_name
from memtab.fs.confined import read_prefix
from memtab.store.frontmatter import DESCRIPTION_PREFIX_BYTES, description_from_prefix
from memtab.store.paths import Scope, VirtualPath, is_addressable_name

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 102_400
MAX_FILES_PER_SCOPE = 1000
# A temp file of Memtab's own pattern this old was left by a process that died mid-write
# (a write takes milliseconds); the next listing removes it.
STALE_TEMP_AGE_S = 60.0


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


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _entry_for(path: VirtualPath, entry: os.DirEntry[str]) -> FileEntry:
    # os.open + fstat + read: one open for both the size/mtime and the 4 KiB prefix, and
    # none of the buffering layers of `open()` (listing speed is dominated by this).
    try:
        fd = os.open(entry.path, _OPEN_FLAGS)
    except OSError:
        stat_result, prefix = entry.stat(follow_symlinks=False), b""  # listed, undescribed
    else:
        try:
            stat_result = os.fstat(fd)
            # A hard-linked file may be a file outside the home: listed, but not read.
            linked = stat_result.st_nlink > 1
            prefix = b"" if linked else os.read(fd, DESCRIPTION_PREFIX_BYTES)
        finally:
            os.close(fd)
    binary = b"\x00" in prefix
    description = "" if binary else description_from_prefix(prefix)
    return FileEntry(
        path=path,
        description=description,
        size_bytes=stat_result.st_size,
        modified_at_ms=stat_result.st_mtime_ns // 1_000_000,
        binary=binary,
    )


def _remove_if_stale_temp(entry: os.DirEntry[str], now: float) -> None:
    """Delete a temp file a killed Memtab process left behind (best effort)."""
    with contextlib.suppress(OSError):
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_AGE_S:
            os.unlink(entry.path)
            logger.info("Removed %s, left behind by an interrupted write", entry.path)


def is_listable_name(name: str) -> bool:
    """Whether a directory entry may appear in listings: no dotfiles, an addressable name."""
    return not name.startswith(".") and is_addressable_name(name)


def list_scope(scope: Scope, root: Path | None) -> ScopeListing:
    """List a scope recursively by the rules of SPEC §4.

    Dotfiles and entries with invalid names are skipped; symlinks are neither listed nor
    followed; an unreadable directory lists as empty. A missing root is an empty scope.
    Temp files an interrupted write left behind (Memtab's pattern, over a minute old)
    are removed on the way: the walk sees them anyway, so this costs nothing extra.
    """
    if root is None:
        return ScopeListing(scope)
    files: list[FileEntry] = []
    directories: list[VirtualPath] = []
    error: str | None = None
    # An explicit stack, not recursion: a deeply nested tree must not overflow the stack.
    pending: list[tuple[str, tuple[str, ...]]] = [(str(root), ())]
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
                error = f"Cannot read {directory}: {failure.strerror or failure}"
            continue
        for entry in entries:
            if not is_listable_name(entry.name):
                if is_temp_name(entry.name):
                    _remove_if_stale_temp(entry, now)
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
    """A file's text as the editor sees it, with the sha that guards the next save.

    Reads stop at the cap: an over-cap file holds only its first MAX_FILE_BYTES bytes
    (`size_bytes` is the whole size), and `over_cap` says so.
    """

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
    data, info = read_prefix(directory, name, limit=MAX_FILE_BYTES + 1)
    kept = data[:MAX_FILE_BYTES]
    try:
        content = kept.decode("utf-8")
        text_bytes = len(kept)
    except UnicodeDecodeError:
        content = kept.decode("utf-8", "replace")
        text_bytes = len(encode_utf8(content))
    size = max(info.st_size, len(data))
    over_cap = len(data) > MAX_FILE_BYTES or text_bytes > MAX_FILE_BYTES
    return FileContent(content, content_sha256(content), size, b"\x00" in kept, over_cap), data


def read_file_content(physical: Path) -> FileContent:
    """Read a memory file by path (see `read_file_in`; at most the cap). Raises OSError."""
    with Directory.open(physical.parent) as directory:
        return read_file_in(directory, physical.name)[0]


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
