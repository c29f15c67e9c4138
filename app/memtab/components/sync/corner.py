"""Sync's corner of the window without Qt: the file-sync conflict copies a scan holds, and
what File → Sync now says in the status bar — `gui/sync/feature.py` shows them."""

from __future__ import annotations

from memtab.components.tree.scan import HomeScan
from memtab.store.conflict_copies import find_copies
from memtab.store.files import ScopeListing
from memtab.store.paths import Scope

NOT_SET_UP = "Sync is not set up for this home: File → Sync… sets it up (docs/sync.md)"
SYNCING = "Syncing memory…"


class CopyCounts:
    """How many file-sync conflict copies a scan's files hold."""

    def __init__(self) -> None:
        self._counted: dict[Scope, tuple[ScopeListing, int]] = {}

    def __call__(self, scan: HomeScan) -> int:
        total = 0
        for scope in scan.scopes:
            known = self._counted.get(scope.scope)
            if known is None or known[0] is not scope.listing:
                copies = find_copies(entry.path for entry in scope.listing.files)
                known = self._counted[scope.scope] = (scope.listing, len(copies))
            total += known[1]
        return total


class SyncNowNote:
    """The status bar's note of a Sync now."""

    def __init__(self) -> None:
        self._announced = False  # "Syncing memory…" is shown
        self._ended = False  # and the sync it announced ended

    def sync_now(self, *, configured: bool) -> str:
        """Sync now was asked for: the note now."""
        self._announced = configured
        return SYNCING if configured else NOT_SET_UP

    def busy_changed(self, busy: bool) -> None:
        """A sync started or ended."""
        self._ended = self._announced and not busy

    def looked(self, line: str) -> str | None:
        """A job said where sync stands (`line`, the corner's): the note once the announced
        sync ended (None: no note)."""
        if not self._ended:
            return None
        self._announced = self._ended = False
        return f"Sync finished: {line}"
