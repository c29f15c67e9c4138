"""One private memo file per home and cache in Memtab's cache dir: where it is, how it is read back
safely and written atomically, and when an entry is trusted (docs/formats.md §19.10): by a stat
stamp past git's racy margin where the text is not read, by a digest where it is."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import logging
import marshal
import os
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from memtab.fs.atomic import Directory
from memtab.fs.config.config_dir import cache_dir, home_digest
from memtab.fs.private import PRIVATE_FILE_MODE, clear_entry, private_dir
from memtab.fs.user_files import read_regular_file

logger = logging.getLogger(__name__)

R = TypeVar("R")

RACY_MARGIN_NS = 2_000_000_000
"""A file modified this close to its reading may change again with the same mtime."""

Stamp = tuple[int, int, int, int]  # a file's identity as read: size, mtime, ctime (ns) and inode

DAMAGE = (ValueError, TypeError, EOFError, IndexError, KeyError, OverflowError, RecursionError)
"""What reading a memo's values may raise where they are not what Memtab wrote (or `zlib.error`)."""
MARSHAL_VERSION = 4
"""The `marshal` format a sealed memo is written in (read by every Python since 3.4)."""
DIGESTED_MARSHAL = 2
"""The `marshal` format of what is digested into a key: the last that writes a value by what it
is, not by what else refers to it (later ones mark an object referred to twice, so equal values
could digest apart)."""
_DIGEST = 16


def stamp_of(info: os.stat_result) -> Stamp:
    """What identifies a file's content: mtime and ctime (a write changes both), and the inode (a
    rename over it)."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def changed_since(info: os.stat_result, racy_after_ns: int) -> bool:
    """Whether the file was modified after `racy_after_ns` (its next write could keep the mtime on a
    coarse clock)."""
    return max(info.st_mtime_ns, info.st_ctime_ns) >= racy_after_ns


def settled(info: os.stat_result, read_at_ms: int) -> bool:
    """Whether a file was last modified safely before `read_at_ms`: a later rewrite of the same size
    in the same clock tick would keep its stat (git's "racily clean")."""
    return not changed_since(info, read_at_ms * 1_000_000 - RACY_MARGIN_NS)


def still_as_read(entry: object, info: os.stat_result, more: int) -> bool:
    """Whether `entry` (as JSON holds it: the `stamp_of` list, then `more` values) is of a file
    still as `info` says."""
    return (
        type(entry) is list
        and len(entry) == 4 + more
        and entry[0] == info.st_size
        and entry[1] == info.st_mtime_ns
        and entry[2] == info.st_ctime_ns
        and entry[3] == info.st_ino
        and type(entry[0]) is type(entry[1]) is type(entry[2]) is type(entry[3]) is int
    )


def remembered(
    info: os.stat_result, racy_after_ns: int, held: Sequence[object]
) -> list[object] | None:
    """The JSON entry of a file read as `info` says, holding `held`; None when modified after
    `racy_after_ns`."""
    if changed_since(info, racy_after_ns):
        return None
    return [*stamp_of(info), *held]


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """The cycle collector held off for the block: a run makes thousands of tuples and sets, none
    in a cycle, and the collector's passes over them as they grow cost more than the run."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def memo_path(home_root: Path, name: str, env: Mapping[str, str] | None = None) -> Path:
    """Where the memo `name` (`{}` for the home's digest; its version in it, so a Memtab of another
    version keeps its own) of the home at `home_root` lives: never in a scope, nothing syncs it."""
    return cache_dir(env) / name.format(home_digest(home_root))


class Memo:
    """One private memo file: `what` names it in `log`; `limit` is more than any real one holds
    (a bigger file is not read). Read only as a regular file of this user's in a folder only this
    user may enter (a link, FIFO or another's file at its name removed, never followed); written
    atomically, not durably (a memo lost with a crash is only worked out again), 0600 in 0700.
    A plain class: the description cache makes one before the first paint, where a dataclass's
    making costs the start (tests/gui/test_startup_boundary.py)."""

    __slots__ = ("limit", "log", "path", "what")

    def __init__(self, path: Path, what: str, limit: int, log: logging.Logger = logger) -> None:
        self.path = path
        self.what = what
        self.limit = limit
        self.log = log

    def read(self) -> bytes | None:
        """The memo's bytes; None when none, unreadable or too big (logged at info)."""
        path = self.path
        try:
            done = clear_entry(private_dir(path.parent) / path.name)
            if done is not None:
                self.log.info("The %s %s was %s", self.what, path, done)
            data = read_regular_file(path, limit=self.limit + 1, truncate=True, follow_links=False)
        except FileNotFoundError:
            return None
        except OSError as error:
            self.log.info("The %s %s is not read (%s): worked out anew", self.what, path, error)
            return None
        if len(data) > self.limit:
            self.log.info("The %s %s is bigger than any: worked out anew", self.what, path)
            return None
        return data

    def write(self, data: bytes, *, failure: int = logging.INFO) -> bool:
        """Replace the memo with `data`; a failure is logged at level `failure`."""
        try:
            with Directory.open(private_dir(self.path.parent)) as directory:
                directory.replace(self.path.name, data, mode=PRIVATE_FILE_MODE, durable=False)
        except OSError as error:
            self.log.log(failure, "Could not write the %s %s: %s", self.what, self.path, error)
            return False
        return True

    def read_sealed(self, magic: bytes, read: Callable[[tuple[Any, ...]], R]) -> R | None:
        """What `read` makes of the tuple a memo sealed by `write_sealed` holds: None when there is
        none, or it is damaged or forged (its digest, its compression, its data; `read` raising one
        of `DAMAGE` for a value Memtab never writes), logged at info."""
        data = self.read()
        if data is None:
            return None
        head = len(magic) + _DIGEST
        try:
            if not data.startswith(magic):
                raise ValueError("not a memo of this kind")
            body = data[head:]
            if hashlib.blake2b(body, digest_size=_DIGEST).digest() != data[len(magic) : head]:
                raise ValueError("its digest is not its content's")
            with collection_paused():
                unpacking = zlib.decompressobj()
                plain = unpacking.decompress(body, self.limit)
                if unpacking.unconsumed_tail or not unpacking.eof:
                    raise ValueError("it unpacks to more than any memo, or is cut short")
                held = marshal.loads(plain)
                if type(held) is not tuple:
                    raise ValueError("not the shape written")
                return read(held)
        except (*DAMAGE, zlib.error) as error:
            self.log.info("The %s %s is damaged (%s): worked out anew", self.what, self.path, error)
            return None

    def write_sealed(self, magic: bytes, held: tuple[Any, ...]) -> None:
        """Write `held` (plain tuples, strings, bytes, ints and frozensets, never code) as `magic`,
        a 16-byte BLAKE2b digest of the rest, and the rest: zlib-compressed `marshal` data."""
        try:
            body = zlib.compress(marshal.dumps(held, MARSHAL_VERSION), 1)
        except ValueError as error:  # a value marshal cannot write: a caller's bug
            self.log.error("The %s %s is not written: %s", self.what, self.path, error)
            return
        self.write(magic + hashlib.blake2b(body, digest_size=_DIGEST).digest() + body)
