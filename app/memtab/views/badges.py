"""The "agent edited" badges: which memory files changed on disk by someone else's hand.

After every scan the tab counts the scan's changes in: a file that changed and that
Memtab did not just write itself (`OwnWrites`, also for a folder it created or moved
above the file) gets the badge, a deleted file loses it, and the file open in the
editor never gets one (the editor shows its own changes). Opening a file clears its
badge; a move takes the badges under the old path away. Badges are physical paths, the
same spelling as `TreeNode.physical`.
"""

from __future__ import annotations

from memtab.store.paths import VirtualPath
from memtab.views.own_writes import OwnWrites
from memtab.views.scan import HomeScan


class AgentEdits:
    """The physical paths that carry the "agent edited" badge."""

    def __init__(self, own_writes: OwnWrites) -> None:
        """Changes `own_writes` claims are Memtab's own and get no badge."""
        self._own_writes = own_writes
        self._paths: set[str] = set()

    @property
    def paths(self) -> frozenset[str]:
        """The badged physical paths."""
        return frozenset(self._paths)

    def count_in(self, scan: HomeScan, open_path: VirtualPath | None) -> None:
        """Count `scan`'s changes in (the file open in the editor is `open_path`)."""
        changes = scan.changes
        if changes.empty:
            return
        anything_own = len(self._own_writes) > 0
        for path in changes.deleted:
            physical = _physical(scan, path)
            if physical is not None:
                self._paths.discard(physical)
        for path in changes.changed:
            physical = _physical(scan, path)
            if physical is None or path == open_path:
                continue
            if anything_own and self._is_own_change(physical, path, changes.shas.get(path)):
                continue
            self._paths.add(physical)

    def clear(self, scan: HomeScan | None, path: VirtualPath) -> bool:
        """Drop the badge of `path` (opened); True if it had one."""
        physical = _physical(scan, path) if scan is not None else None
        if physical is None or physical not in self._paths:
            return False
        self._paths.discard(physical)
        return True

    def drop_under(self, scan: HomeScan | None, old: VirtualPath) -> bool:
        """Drop the badges at or under `old` (moved away); True if any went."""
        prefix = _physical(scan, old) if scan is not None else None
        if prefix is None:
            return False
        moved = {p for p in self._paths if p == prefix or p.startswith(prefix + "/")}
        self._paths -= moved
        return bool(moved)

    def _is_own_change(self, physical: str, path: VirtualPath, sha: str | None) -> bool:
        own = self._own_writes
        if own.is_own(path, sha) or own.is_own(physical, sha):
            return True
        ancestor = path.parent
        while not ancestor.is_root:  # a folder Memtab created or moved
            if own.is_own(ancestor):
                return True
            ancestor = ancestor.parent
        return False


def _physical(scan: HomeScan, path: VirtualPath) -> str | None:
    if path.scope is None:
        return None
    return scan.scope(path.scope).physical(path)
