"""What an engine keeps of each memory file between runs, refreshed per file — in the
process and, between processes, in Memtab's cache dir (docs/formats.md §19.10).

An engine works out what it needs of each file — its words, its claims, what it names —
once per text: `PerFile.of_all(documents, make)` answers from what it kept while a file's
key and text are the same (a 16-byte BLAKE2b digest of both, not the text), works it out
again when either changed, and forgets the files a run of everything no longer read, so
what is kept follows the home.

With a `KeptOnDisk`, what was kept outlives the process: a command's next run (`memtab
duplicates` again, the window's next look in its child process) reads the one cache file
of its engine and works out only the files whose text changed since. The file is keyed
by the text's digest, not the file's size and times: the text is read anyway (the
engines show lines of it), and a digest never takes an edit within the clock's grain, a
`touch` setting the time back or a copy over it for no change.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import logging
import marshal
import os
import threading
import zlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from memtab.check.documents import Document
from memtab.fs.atomic import Directory
from memtab.fs.config.config_dir import cache_dir
from memtab.fs.private import PRIVATE_FILE_MODE, keep_private, private_dir
from memtab.fs.user_files import read_regular_file
from memtab.store.home import Home

logger = logging.getLogger(__name__)

T = TypeVar("T")

CACHE_VERSION = 1
"""Bumped when what an engine keeps of a file changes shape or meaning."""
MAGIC = b"memtab-trust\n"
MARSHAL_VERSION = 4
"""The `marshal` format written (read by every Python since 3.4)."""
MAX_CACHE_BYTES = 256 * 1024 * 1024
"""Bigger than any real cache (20,000 files' words take ~1 MB): not read."""
_DIGEST = 16


def digest_of(document: Document) -> bytes:
    """A file's key and text as 16 bytes (the same text packs to the same bytes)."""
    digest = hashlib.blake2b(document.key.encode("utf-8", "surrogatepass"), digest_size=_DIGEST)
    digest.update(b"\0")
    digest.update(document.packed)
    return digest.digest()


def cache_file_for(home: Home, engine: str) -> Path:
    """Where `engine`'s cache of `home` lives: Memtab's cache dir, never a scope (nothing
    syncs it); the name holds the format's version, so a Memtab of another version keeps
    its own."""
    digest = hashlib.sha256(os.fsencode(str(home.root))).hexdigest()[:20]
    return cache_dir() / f"trust-{engine}-v{CACHE_VERSION}-{digest}.bin"


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """The cycle collector held off for the block (as it was after): a cache's load makes
    tens of thousands of tuples and sets, none in a cycle, and the collector's passes
    over them as they grow took ~0.25 s of a 0.3 s load of 16,000 files."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class KeptOnDisk(Generic[T]):
    """One engine's cache file of one home (docs/formats.md §19.10): `MAGIC`, a 16-byte
    BLAKE2b digest of the rest, and the rest — zlib-compressed `marshal` data of plain
    tuples, strings, bytes, ints and frozensets, never code: the format's version, the
    home, the engine, its `context` (what else its values depend on: the leaks' project
    names), each file's key and digest, and each file's value as `pack` makes it.

    A file that is missing, damaged (its digest, its compression, its data), of another
    version, home, engine or context is read as empty: every file is worked out again
    and the next save replaces it. Private (0600 in a 0700 folder, whatever the umask,
    never written through a link): it holds the memory's sentences."""

    def __init__(
        self,
        path: Path,
        *,
        home: Home,
        engine: str,
        pack: Callable[[T], object],
        unpack: Callable[[Any], T],
    ) -> None:
        self.path = path
        self._home = str(home.root)
        self._engine = engine
        self._pack = pack
        self._unpack = unpack

    @classmethod
    def of_home(
        cls,
        home: Home,
        engine: str,
        *,
        pack: Callable[[T], object],
        unpack: Callable[[Any], T],
    ) -> KeptOnDisk[T]:
        return cls(cache_file_for(home, engine), home=home, engine=engine, pack=pack, unpack=unpack)

    def load(self, context: Hashable) -> dict[str, tuple[bytes, T]]:
        """Each file's digest and value by its key, as the cache file holds them for
        `context` (empty when it holds none: see the class doc)."""
        keep_private(self.path)
        try:
            data = read_regular_file(self.path, limit=MAX_CACHE_BYTES + 1, truncate=True)
        except FileNotFoundError:
            return {}
        except OSError as error:
            logger.info("The trust cache %s is not read (%s): worked out anew", self.path, error)
            return {}
        try:
            return self._entries(data, context)
        except (ValueError, TypeError, EOFError, IndexError, zlib.error) as error:
            logger.info("The trust cache %s is damaged (%s): worked out anew", self.path, error)
            return {}

    def _entries(self, data: bytes, context: Hashable) -> dict[str, tuple[bytes, T]]:
        head = len(MAGIC) + _DIGEST
        if len(data) > MAX_CACHE_BYTES or not data.startswith(MAGIC):
            raise ValueError("not a cache of this kind")
        body = data[head:]
        if hashlib.blake2b(body, digest_size=_DIGEST).digest() != data[len(MAGIC) : head]:
            raise ValueError("its digest is not its content's")
        with collection_paused():
            held = marshal.loads(zlib.decompress(body))
            if not (type(held) is tuple and len(held) == 7):
                raise ValueError("not the shape written")
            version, home, engine, kept_for, keys, digests, values = held
            if (version, home, engine, kept_for) != (
                CACHE_VERSION,
                self._home,
                self._engine,
                context,
            ):
                return {}  # another version's, home's, engine's or context's: not ours
            if len(digests) != _DIGEST * len(keys) or len(values) != len(keys):
                raise ValueError("its lists do not line up")
            unpack = self._unpack
            return {
                key: (digests[index * _DIGEST : (index + 1) * _DIGEST], unpack(values[index]))
                for index, key in enumerate(keys)
                if type(key) is str
            }

    def save(self, entries: dict[str, tuple[bytes, T]], context: Hashable) -> None:
        """Write `entries` (each file's digest and value by its key) for `context`
        (atomically, not durably: a cache lost with a crash is only worked out again; a
        failure is logged)."""
        pack = self._pack
        held = (
            CACHE_VERSION,
            self._home,
            self._engine,
            context,
            tuple(entries),
            b"".join(digest for digest, _ in entries.values()),
            tuple(pack(value) for _, value in entries.values()),
        )
        try:
            # what `pack` makes is plain data by its contract; mypy cannot see it is
            body = zlib.compress(marshal.dumps(held, MARSHAL_VERSION), 1)  # type: ignore[arg-type]
        except ValueError as error:  # a value marshal cannot write: an engine's bug
            logger.error("The trust cache %s is not written: %s", self.path, error)
            return
        data = MAGIC + hashlib.blake2b(body, digest_size=_DIGEST).digest() + body
        try:
            with Directory.open(private_dir(self.path.parent)) as directory:
                directory.replace(self.path.name, data, mode=PRIVATE_FILE_MODE, durable=False)
        except OSError as error:
            logger.info("The trust cache %s is not written (%s)", self.path, error)


class PerFile(Generic[T]):
    """What was worked out of each file, by its key and text (see the module doc);
    thread-safe (one run at a time per engine)."""

    def __init__(self, disk: KeptOnDisk[T] | None = None) -> None:
        self._disk = disk
        self._kept: dict[str, tuple[bytes, T]] | None = None if disk is not None else {}
        self._context: Hashable = None
        self._lock = threading.Lock()

    def of_all(
        self,
        documents: Sequence[Document],
        make: Callable[[Document], T],
        *,
        everything: bool = True,
        context: Hashable = (),
    ) -> list[T]:
        """What `make` works out of each document, in their order: worked out again only
        for a file whose key or text changed. `everything`: the documents are every file
        the engine reads (other files kept are forgotten; else kept for another run);
        `context`: what else `make` depends on (what was kept for another is dropped)."""
        with self._lock:
            kept = self._kept
            if kept is None or context != self._context:
                kept = self._disk.load(context) if self._disk is not None else {}
        by_digest = {digest: value for digest, value in kept.values()}
        found: dict[str, tuple[bytes, T]] = {}
        results = []
        worked_out = 0
        for document in documents:
            digest = digest_of(document)
            value = by_digest.get(digest)
            if value is None:
                value = by_digest[digest] = make(document)
                worked_out += 1
            found[document.key] = (digest, value)
            results.append(value)
        if not everything:
            found = {**kept, **found}
        changed = worked_out > 0 or found.keys() != kept.keys()
        with self._lock:
            self._kept = found
            self._context = context
        if changed and self._disk is not None:
            self._disk.save(found, context)
        return results

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept or {})
