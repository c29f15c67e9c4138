"""What an engine keeps of each memory file between runs (docs/formats.md §19.10): worked out once
per text, keyed by a digest of the file's key and text, in the process and in the engine's memo
(`fs.memo`), so a next run works out only the files whose text changed."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Hashable, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from memtab.fs.memo import Memo, memo_path
from memtab.store.home import Home

T = TypeVar("T")


class Keyed(Protocol):
    """A memory file as an engine reads it (`check.documents.Document`): its key, and its
    text packed (the same text packs to the same bytes)."""

    @property
    def key(self) -> str: ...

    @property
    def packed(self) -> bytes: ...


D = TypeVar("D", bound=Keyed)

CACHE_VERSION = 51
"""Bumped when what an engine keeps of a file changes shape or meaning (a test pins what
the engines work out of the seeded corpora to it: tests/unit/trust/test_per_file.py)."""
MAGIC = b"memtab-trust\n"
MAX_CACHE_BYTES = 256 * 1024 * 1024
"""Bigger than any real cache (20,000 files' words take ~1 MB): not read — nor a file
whose data unpacks to more (a forged file of a few bytes can unpack to gigabytes)."""
MAX_LINE = 10_000_000  # no memory file read has more lines: a line number past it is no line
_DIGEST = 16


class NotAsMadeError(Exception):
    """A value kept of a file is found, at its use, not to be what the engine makes of it
    (a cache forged or damaged under a valid digest): the engine works it out anew."""


def only(kind: type, values: Collection[object]) -> bool:
    """Whether every item of `values` (a tuple or frozenset, as `marshal` gives them) is
    exactly of `kind` (a bool is no int)."""
    return type(values) in (tuple, frozenset) and {*map(type, values)} <= {kind}


def is_line(value: object) -> bool:
    """Whether `value` is a line number (from 1) a memory file could have."""
    return type(value) is int and 0 < value <= MAX_LINE


def digest_of(document: Keyed) -> bytes:
    """A file's key and text as 16 bytes (the same text packs to the same bytes)."""
    digest = hashlib.blake2b(document.key.encode("utf-8", "surrogatepass"), digest_size=_DIGEST)
    digest.update(b"\0")
    digest.update(document.packed)
    return digest.digest()


def memo_of(home: Home, engine: str) -> Memo:
    """`engine`'s memo of `home`: `MAGIC`, a digest and its sealed tuple (`Memo.write_sealed`),
    first the format's version, the home and the engine; private: it holds the memory's words."""
    path = memo_path(home.root, f"trust-{engine}-v{CACHE_VERSION}-{{}}.bin")
    return Memo(path, "trust cache", MAX_CACHE_BYTES)


def cache_file_for(home: Home, engine: str) -> Path:
    return memo_of(home, engine).path


class KeptOnDisk(Generic[T]):
    """One engine's cache file of one home (docs/formats.md §19.10): its sealed tuple holds
    the format's version, the home, the engine, its `context` (what else its values depend
    on: the leaks' project names), each file's key and digest, and each file's value as
    `pack` makes it. A file missing, damaged, or of another version, home, engine or context
    is read as empty: every file is worked out again and the next save replaces it."""

    def __init__(
        self,
        home: Home,
        engine: str,
        *,
        pack: Callable[[T], object],
        unpack: Callable[[Any], T],
        fits: Callable[[T, Any], bool] | None = None,
    ) -> None:
        """`unpack` raises one of `DAMAGE` for a value `pack` never made; `fits` says
        whether a value could have been made for the context (else the file is damage)."""
        self.memo = memo_of(home, engine)
        self._home, self._engine = str(home.root), engine
        self._pack, self._unpack, self._fits = pack, unpack, fits

    @classmethod
    def of_home(
        cls,
        home: Home,
        engine: str,
        *,
        pack: Callable[[T], object],
        unpack: Callable[[Any], T],
        fits: Callable[[T, Any], bool] | None = None,
    ) -> KeptOnDisk[T]:
        return cls(home, engine, pack=pack, unpack=unpack, fits=fits)

    def load(self, context: Hashable) -> dict[str, tuple[bytes, T]]:
        """Each file's digest and value by its key, as the cache file holds them for
        `context` (empty when it holds none: see the class doc)."""
        return self.memo.read_sealed(MAGIC, lambda held: self._entries(held, context)) or {}

    def _entries(self, held: tuple[Any, ...], context: Hashable) -> dict[str, tuple[bytes, T]]:
        if len(held) != 7:
            raise ValueError("not the shape written")
        version, home, engine, kept_for, keys, digests, values = held
        if (version, home, engine, kept_for) != (CACHE_VERSION, self._home, self._engine, context):
            return {}  # another version's, home's, engine's or context's: not ours
        if not only(str, keys) or type(digests) is not bytes or type(values) is not tuple:
            raise TypeError("not the types written")
        if len(digests) != _DIGEST * len(keys) or len(values) != len(keys):
            raise ValueError("its lists do not line up")
        unpack = self._unpack
        found = {
            key: (digests[index * _DIGEST : (index + 1) * _DIGEST], unpack(values[index]))
            for index, key in enumerate(keys)
        }
        fits = self._fits
        if fits is not None and not all(fits(value, context) for _, value in found.values()):
            raise ValueError("a value not made for its context")
        return found

    def save(self, entries: dict[str, tuple[bytes, T]], context: Hashable) -> None:
        """Write `entries` (each file's digest and value by its key) for `context`."""
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
        self.memo.write_sealed(MAGIC, held)


class KeptAnswer:
    """What an engine worked out of every file's values together — the duplicates' pair
    searches — kept for its next run over the same files: by a digest of their keys and
    texts in order (`PerFile.last_run`), in memory and in a memo of its own (sealed tuple
    `(version, "<home path>", "<engine>", digest, answer)`). `valid` says whether what the
    file holds is an answer the engine could have made (a file damaged or forged is none:
    worked out anew)."""

    def __init__(self, home: Home, engine: str, *, valid: Callable[[Any], bool]):
        self.memo = memo_of(home, engine)
        self._home, self._engine, self._valid = str(home.root), engine, valid
        self._kept: tuple[bytes, Any] | None = None
        self._forgotten = False
        self._lock = threading.Lock()

    @classmethod
    def of_home(cls, home: Home, engine: str, *, valid: Callable[[Any], bool]) -> KeptAnswer:
        return cls(home, engine, valid=valid)

    def get(self, run: bytes) -> Any | None:
        """The answer kept for the files digested to `run`, or None."""
        with self._lock:
            if self._kept is not None and self._kept[0] == run:
                return self._kept[1]
            if self._forgotten:
                return None
        answer = self.memo.read_sealed(MAGIC, lambda held: self._answer(held, run))
        if answer is not None:
            with self._lock:
                self._kept = (run, answer)
        return answer

    def _answer(self, held: tuple[Any, ...], run: bytes) -> Any | None:
        if len(held) != 5:
            raise ValueError("not the shape written")
        version, home, engine, kept_for, answer = held
        if (version, home, engine, kept_for) != (CACHE_VERSION, self._home, self._engine, run):
            return None  # another version's, home's or engine's, or other files'
        if not self._valid(answer):
            raise ValueError("not an answer of this engine")
        return answer

    def put(self, run: bytes, answer: object) -> None:
        """Keep `answer` (plain data: see `KeptOnDisk`) for the files digested to `run`."""
        with self._lock:
            self._kept = (run, answer)
            self._forgotten = False
        self.memo.write_sealed(MAGIC, (CACHE_VERSION, self._home, self._engine, run, answer))

    def forget(self) -> None:
        """Hold what was kept for no answer (one found at its use not to be what the
        engine makes): the next run works it out anew, and `put` replaces it."""
        with self._lock:
            self._kept = None
            self._forgotten = True


class PerFile(Generic[T]):
    """What was worked out of each file, by its key and text (see the module doc);
    thread-safe (one run at a time per engine)."""

    def __init__(self, disk: KeptOnDisk[T] | None = None) -> None:
        self._disk = disk
        self._kept: dict[str, tuple[bytes, T]] | None = None if disk is not None else {}
        self._context: Hashable = None
        self._lock = threading.Lock()
        self.last_run = b""
        """A digest of the keys and texts of the files of the last run, in order."""

    def of_all(
        self,
        documents: Sequence[D],
        make: Callable[[D], T],
        *,
        everything: bool = True,
        context: Hashable = (),
        restate: Callable[[D, T], T | None] | None = None,
        between: Callable[[int], bool] | None = None,
    ) -> list[T]:
        """What `make` works out of each document, in their order: worked out again only
        for a file whose key or text changed. `everything`: the documents are every file
        the engine reads (other files kept are forgotten; else kept for another run);
        `context`: what else `make` depends on (what was kept for another is dropped);
        `restate`: what a value kept is now — itself, itself restated (kept anew), or None
        (worked out again) — for values that depend on more than their file (what the
        disk answered the check); `between`: told how many are done before each file,
        True ends the run there (the rest kept as they were)."""
        with self._lock:
            kept = self._kept
            if kept is None or context != self._context:
                kept = self._disk.load(context) if self._disk is not None else {}
        by_digest = {digest: value for digest, value in kept.values()}
        found: dict[str, tuple[bytes, T]] = {}
        results = []
        worked_out = 0
        run = hashlib.blake2b(digest_size=_DIGEST)
        for done, document in enumerate(documents):
            if between is not None and between(done):
                everything = False
                break
            digest = digest_of(document)
            run.update(digest)
            value = by_digest.get(digest)
            if value is not None and restate is not None:
                now = restate(document, value)
                if now is not value:
                    worked_out += 1
                    value = now
                    if now is not None:
                        by_digest[digest] = now
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
            self.last_run = run.digest()
        if changed and self._disk is not None:
            self._disk.save(found, context)
        return results

    def forget(self) -> None:
        """Hold what was kept for nothing (a value found at its use not to be what `make`
        makes of its file): the next run works every file out anew and saves it."""
        with self._lock:
            self._kept = {}

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept or {})
