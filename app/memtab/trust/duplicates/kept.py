"""Groups of duplicates the user chose to keep as they are (docs/formats.md §19.5).

The window's Keep writes a group's key (`DuplicateGroup.key`: its members' paths and
what they hold) down in `<home>/memtab/duplicates-kept.json` (`KeptDuplicates`, one
`KeptGroup` each); `memtab duplicates` and the window leave such a group out while its
members hold what they held — once one changes, its key changes and the group is shown
again. At most `MAX_KEPT` are kept (the oldest go first). The file is changed under its
lock through `fs.sidecar` (a second Memtab, another machine's sync of the home): every
read-modify-write keeps what another process added.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from memtab.fs.clock import now_ms
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.fs.records import Record, ValidItems
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home
from memtab.trust.duplicates.records import DuplicateGroup

FILE_NAME = "duplicates-kept.json"
LOCK_NAME = "duplicates-kept"
MAX_KEPT = 2000


class KeptGroup(Record):
    """One group kept as it is: its key, when, and its first member (for a reader)."""

    key: str
    kept_at: int
    first: str = ""


class KeptDuplicates(Record):
    """`duplicates-kept.json`: `{"kept": [KeptGroup, …]}`, oldest first."""

    kept: ValidItems[tuple[KeptGroup, ...]] = ()


def report_context(kept: Collection[str]) -> tuple[str, tuple[str, ...]]:
    """What a duplicates report depends on besides the memory (`kept.reports`): the keys of
    the groups it leaves out."""
    return ("duplicates", tuple(sorted(kept)))


def kept_path(home: Home) -> Path:
    return home.memtab_dir / FILE_NAME


def load_kept(home: Home) -> frozenset[str]:
    """The keys of the groups kept (none when the file is missing or unusable)."""
    document = KeptDuplicates.read(read_sidecar(kept_path(home)).document)
    return frozenset(g.key for g in document.kept) if document is not None else frozenset()


def keep_group(home: Home, group: DuplicateGroup) -> None:
    """Write down that `group` is kept as it is. OSError / LockUnavailableError."""
    _edit(home, add=KeptGroup(key=group.key, kept_at=now_ms(), first=group.members[0].path))


def forget_kept(home: Home, key: str) -> None:
    """Forget that the group of `key` was kept (Edit → Undo of Keep)."""
    _edit(home, remove=key)


def _edit(home: Home, *, add: KeptGroup | None = None, remove: str | None = None) -> None:
    # Private, as it names memory files and what they hold (0600 in the home's 0700
    # `memtab/`, docs/formats.md §16.2), even when it is the first thing written there.
    private_folders(home.memtab_dir, below=home.memtab_dir)
    with edit_sidecar(
        kept_path(home), home.lock_path(LOCK_NAME), mode=PRIVATE_FILE_MODE
    ) as document:
        read = KeptDuplicates.read(document)
        groups = [
            g
            for g in (read.kept if read is not None else ())
            if g.key != remove and (add is None or g.key != add.key)
        ]
        if add is not None:
            groups.append(add)
        document.clear()
        document.update(KeptDuplicates(kept=tuple(groups[-MAX_KEPT:])).to_json())
