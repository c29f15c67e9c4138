"""What an engine keeps of each memory file between runs, refreshed per file.

An engine made once (the window keeps one per home) works out what it needs of each file
— its words, its claims, what it names — once per text: `PerFile.of_all(documents, make)`
answers from what it kept while a file's key and text are the same (a 16-byte BLAKE2b
digest of both, not the text), works it out again when either changed, and forgets the
files a run no longer read, so what is kept follows the home.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from memtab.check.documents import Document

T = TypeVar("T")


def digest_of(document: Document) -> bytes:
    """A file's key and text as 16 bytes (the same text packs to the same bytes)."""
    digest = hashlib.blake2b(document.key.encode("utf-8", "surrogatepass"), digest_size=16)
    digest.update(b"\0")
    digest.update(document.packed)
    return digest.digest()


class PerFile(Generic[T]):
    """What was worked out of each file, by its key and text (see the module doc);
    thread-safe (one run at a time per engine)."""

    def __init__(self) -> None:
        self._kept: dict[bytes, T] = {}
        self._lock = threading.Lock()

    def of_all(self, documents: Sequence[Document], make: Callable[[Document], T]) -> list[T]:
        """What `make` works out of each document, in their order: worked out again only
        for a file whose key or text changed; every other file is forgotten."""
        with self._lock:
            kept = self._kept
        found: dict[bytes, T] = {}
        results = []
        for document in documents:
            digest = digest_of(document)
            value = found.get(digest)
            if value is None:
                value = kept.get(digest)
                if value is None:
                    value = make(document)
                found[digest] = value
            results.append(value)
        with self._lock:
            self._kept = found
        return results

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
