"""Words for numbers and times, shared by the CLI and the GUI so both say the same thing."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memtab.fs.clock import now_ms
from memtab.store.paths import Scope

if TYPE_CHECKING:  # lazy: the journal's records, read after the first paint (a big home's)
    from memtab.store.sidecars.journal import ConsolidationRecord, HarvestRecord

_MINUTE = 60_000
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR


def display_path(path: Path | str) -> str:
    """A path with the user's home directory shown as `~`."""
    home = os.path.expanduser("~")
    text = str(path)
    if home and home != "/" and (text == home or text.startswith(home + os.sep)):
        return "~" + text[len(home) :]
    return text


def display_paths_in(text: str) -> str:
    """`text` with each path under the user's home shown from `~`."""
    home = os.path.expanduser("~")
    if not home or home == "/":
        return text
    return text.replace(home + os.sep, "~" + os.sep)


TITLE_NAME_CHARS = 40


def short_name(name: str, limit: int = TITLE_NAME_CHARS) -> str:
    """`name` for a window title: cut in the middle beyond `limit` characters."""
    if len(name) <= limit:
        return name
    half = (limit - 1) // 2
    return f"{name[:half]}…{name[len(name) - half :]}"


def plural(count: int, word: str, plural_word: str | None = None) -> str:
    """`1 change`, `3 changes`."""
    return f"{count} {word if count == 1 else (plural_word or word + 's')}"


def relative_time(at_ms: int | None, now: int | None = None) -> str:
    """`just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 d ago`, or a date when older."""
    if at_ms is None:
        return "never"
    now = now_ms() if now is None else now
    elapsed = now - at_ms
    if elapsed < 45_000:
        return "just now"  # also absorbs small clock skew between processes
    if elapsed < _HOUR:
        return f"{max(1, round(elapsed / _MINUTE))} min ago"
    if elapsed < _DAY:
        return f"{elapsed // _HOUR} h ago"
    if elapsed < 2 * _DAY:
        return "yesterday"
    if elapsed < 30 * _DAY:
        return f"{elapsed // _DAY} d ago"
    return time.strftime("%Y-%m-%d", time.localtime(at_ms / 1000))


def absolute_time(at_ms: int | None) -> str:
    """A local date and time for tooltips and detail views."""
    if at_ms is None:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at_ms / 1000))


def size_text(size_bytes: int) -> str:
    """`512 B`, `3.4 KiB`, `1.2 MiB`."""
    if size_bytes < 1024:
        return f"{size_bytes} B"
    if size_bytes < 1024 * 1024:
        return f"{size_bytes / 1024:.1f} KiB"
    return f"{size_bytes / (1024 * 1024):.1f} MiB"


def files_changed_text(count: int) -> str:
    """`1 file changed`, `3 files changed`, `no file changed` (docs/formats.md §9.6)."""
    return f"{plural(count, 'file')} changed" if count else "no file changed"


def coverage_text(record: ConsolidationRecord | None, scope: Scope, now: int | None = None) -> str:
    """A footer line's value: `3 h ago · manual · 2 files changed`, or `never`."""
    if record is None:
        return "never"
    changes = files_changed_text(record.files_changed_in(scope))
    return f"{relative_time(record.last_run_at, now)} · {record.trigger} · {changes}"


def harvest_text(harvest: HarvestRecord, now: int | None = None) -> str:
    """The footer's `Harvest:` value: `completed 3 h ago`, `failed 5 min ago`, ..."""
    return f"{harvest.status} {relative_time(harvest.sort_time or None, now)}"


def usage_text(access_count: int, last_accessed_at: int | None, now: int | None = None) -> str:
    """`Used 4× · 2 h ago`, or "" when never used."""
    if access_count <= 0:
        return ""
    when = "" if last_accessed_at is None else f" · {relative_time(last_accessed_at, now)}"
    return f"Used {access_count}×{when}"
