"""`memory-meta.json`: pins and usage per memory path (SPEC §6).

mux keeps this file cached in memory and may overwrite it; Memtab re-reads it before every
change, under a lock, so two Memtab processes never lose each other's updates.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from memtab.fs.atomic import atomic_write_json
from memtab.fs.locks import interprocess_lock
from memtab.store.home import Home


def now_ms() -> int:
    """The current time in epoch milliseconds."""
    return int(time.time() * 1000)


def escape_key_component(component: str) -> str:
    """Escape one key component: `%` → `%25`, then `:` → `%3A` (`/` stays literal)."""
    return component.replace("%", "%25").replace(":", "%3A")


def global_key(relative: str) -> str:
    return f"global:{escape_key_component(relative)}"


def project_key(project_path: str, relative: str) -> str:
    return f"project:{escape_key_component(project_path)}:{escape_key_component(relative)}"


def workspace_key(workspace_id: str, relative: str) -> str:
    return f"workspace:{escape_key_component(workspace_id)}:{escape_key_component(relative)}"


def key_in_subtree(key: str, subtree: str) -> bool:
    """True when `key` is `subtree` itself or a path below it."""
    return key == subtree or key.startswith(subtree + "/")


@dataclass(frozen=True)
class MetaEntry:
    """Pin and usage of one memory path."""

    pinned: bool = False
    access_count: int = 0
    last_accessed_at: int | None = None
    last_write_at: int | None = None

    @property
    def is_default(self) -> bool:
        return self == _DEFAULT_ENTRY

    def to_json(self) -> dict[str, Any]:
        return {
            "pinned": self.pinned,
            "accessCount": self.access_count,
            "lastAccessedAt": self.last_accessed_at,
            "lastWriteAt": self.last_write_at,
        }


_DEFAULT_ENTRY = MetaEntry()


def _positive_time(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return int(value)


def sanitize_entry(raw: Any) -> MetaEntry:
    """One entry healed per SPEC §6 (pinned only if exactly true, counts floored, ...)."""
    if not isinstance(raw, dict):
        return _DEFAULT_ENTRY
    count = raw.get("accessCount")
    access_count = (
        math.floor(count)
        if isinstance(count, int | float)
        and not isinstance(count, bool)
        and math.isfinite(count)
        and count > 0
        else 0
    )
    return MetaEntry(
        pinned=raw.get("pinned") is True,
        access_count=access_count,
        last_accessed_at=_positive_time(raw.get("lastAccessedAt")),
        last_write_at=_positive_time(raw.get("lastWriteAt")),
    )


def parse_meta_document(document: Any) -> dict[str, MetaEntry]:
    """All non-default entries of a parsed meta file; anything malformed heals to empty."""
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        return {}
    healed: dict[str, MetaEntry] = {}
    for key, raw in entries.items():
        entry = sanitize_entry(raw)
        if not entry.is_default:
            healed[key] = entry
    return healed


class MetaStore:
    """Reads and updates `memory-meta.json` of one home."""

    def __init__(self, home: Home, clock: Callable[[], int] = now_ms) -> None:
        self._home = home
        self._clock = clock

    def load(self) -> dict[str, MetaEntry]:
        """Every entry, self-healed; a missing or corrupt file is empty."""
        try:
            text = self._home.meta_path.read_text(encoding="utf-8")
            return parse_meta_document(json.loads(text))
        except (OSError, ValueError):
            return {}

    @contextmanager
    def _editing(self) -> Iterator[dict[str, MetaEntry]]:
        # Re-read under the lock right before writing: mux or another Memtab may have
        # changed the file since we last looked.
        with interprocess_lock(self._home.lock_path("memory-meta")):
            entries = self.load()
            yield entries
            document = {
                "entries": {
                    key: entry.to_json() for key, entry in entries.items() if not entry.is_default
                }
            }
            atomic_write_json(self._home.meta_path, document)

    def record_read(self, key: str) -> None:
        """An agent read the file: one more use."""
        self.record_reads([key])

    def record_reads(self, keys: Iterable[str]) -> None:
        """Several agent reads in one update of the file: one more use per read."""
        now = self._clock()
        with self._editing() as entries:
            for key in keys:
                entry = entries.get(key, _DEFAULT_ENTRY)
                entries[key] = replace(
                    entry, access_count=entry.access_count + 1, last_accessed_at=now
                )

    def record_write(self, key: str) -> None:
        """An agent or the editor wrote the file: one more use, and the write time."""
        now = self._clock()
        with self._editing() as entries:
            entry = entries.get(key, _DEFAULT_ENTRY)
            entries[key] = replace(
                entry,
                access_count=entry.access_count + 1,
                last_accessed_at=now,
                last_write_at=now,
            )

    def set_pinned(self, key: str, pinned: bool) -> None:
        """Pin (counts as one use) or unpin (keeps the usage stats)."""
        now = self._clock()
        with self._editing() as entries:
            entry = entries.get(key, _DEFAULT_ENTRY)
            if pinned:
                entries[key] = replace(
                    entry,
                    pinned=True,
                    access_count=entry.access_count + 1,
                    last_accessed_at=now,
                )
            else:
                entries[key] = replace(entry, pinned=False)

    def drop_subtree(self, subtree_key: str) -> None:
        """Forget pins and usage of a deleted file or directory."""
        with self._editing() as entries:
            for key in [k for k in entries if key_in_subtree(k, subtree_key)]:
                del entries[key]

    def move_subtree(self, old_key: str, new_key: str, *, record_write: bool) -> None:
        """Carry pins and usage to a renamed file or directory; optionally record a write."""
        now = self._clock()
        with self._editing() as entries:
            moved = {
                new_key + key[len(old_key) :]: entries.pop(key)
                for key in [k for k in entries if key_in_subtree(k, old_key)]
            }
            entries.update(moved)
            if record_write:
                entry = entries.get(new_key, _DEFAULT_ENTRY)
                entries[new_key] = replace(
                    entry,
                    access_count=entry.access_count + 1,
                    last_accessed_at=now,
                    last_write_at=now,
                )
