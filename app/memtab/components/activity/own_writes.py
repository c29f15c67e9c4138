"""Writes Memtab made itself, remembered for a few seconds."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from memtab.store.paths import VirtualPath

DEFAULT_TTL_MS = 5_000


def _monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


def _key(path: VirtualPath | Path | str) -> str:
    # VirtualPath and str(VirtualPath) name the same file; physical paths are kept as given.
    return str(path)


class OwnWrites:
    """Paths (virtual or physical) that Memtab just wrote, each with the sha it wrote."""

    def __init__(
        self, ttl_ms: int = DEFAULT_TTL_MS, clock: Callable[[], int] = _monotonic_ms
    ) -> None:
        """`clock` returns milliseconds on a monotonic scale (injectable for tests)."""
        self._ttl_ms = ttl_ms
        self._clock = clock
        self._noted: dict[str, tuple[int, str | None]] = {}
        self._listeners: list[Callable[[Sequence[str]], None]] = []

    def note(self, path: VirtualPath | Path | str, sha256: str | None = None) -> None:
        """Remember that Memtab just wrote `path` (with content of `sha256`; None: whatever is
        there now)."""
        self._expire()
        self._noted[_key(path)] = (self._clock(), sha256)

    def written(self, paths: Iterable[VirtualPath | Path | str]) -> None:
        """Memtab has just finished writing `paths` (a file operation of the window, which
        the user asked for): each noted (whatever is there now), and every listener told
        (`listen`), also of changes a scan saw while the writes went on."""
        keys = [_key(path) for path in paths]
        self._expire()  # once, not once a path (745 files)
        now = self._clock()
        self._noted.update((key, (now, None)) for key in keys)
        if keys:
            for listener in list(self._listeners):
                listener(keys)

    def listen(self, listener: Callable[[Sequence[str]], None]) -> None:
        """Call `listener` with the paths of each `written()`."""
        self._listeners.append(listener)

    def is_own(self, path: VirtualPath | Path | str, sha256: str | None = None) -> bool:
        """Whether Memtab wrote `path` within the last few seconds; when both shas are known
        they must match (a write by someone else right after ours is not ours)."""
        self._expire()
        noted = self._noted.get(_key(path))
        if noted is None:
            return False
        noted_sha = noted[1]
        return noted_sha is None or sha256 is None or noted_sha == sha256

    def __len__(self) -> int:
        """How many paths are remembered right now (0: no change can be Memtab's own)."""
        self._expire()
        return len(self._noted)

    def forget(self, path: VirtualPath | Path | str) -> None:
        """Drop what was noted for `path` (e.g. once the change has been consumed)."""
        self._noted.pop(_key(path), None)

    def _expire(self) -> None:
        if not self._noted:
            return
        cutoff = self._clock() - self._ttl_ms
        for key in [key for key, (at, _sha) in self._noted.items() if at < cutoff]:
            del self._noted[key]
