"""Renames another program made, told from a deletion and a new file (issue 81 point 5).

A recording pass (`external.record_external`: the window's, `memtab watch`'s) sees the disk,
not what happened to it: after `mv a.md b.md`, a file history has is gone and a file it has
not seen is there. When the new file holds exactly what the gone one held last (the same
content digest) in the same pass, it is that file renamed — recorded as a move, as
Memtab's own moves are (`moved_to` on the old path's last version, `moved_from` on the
new one's), so the file's history goes on at its new name, it is no deletion (Recently
deleted, a burst to restore) and its pins and usage follow it. Among several gone files
with that content, the one of the same name (moved to another folder), then of the same
folder (renamed in place), is taken first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.store.history.recorder import Observation
from memtab.store.history.versions import Version


@dataclass(frozen=True)
class Rename:
    """A file another program renamed: its old path, and what was read at the new one
    (its content still in hand)."""

    old: str
    new: Observation


def pair_renames(
    observed: Sequence[Observation], gone: Sequence[str], newest: dict[str, Version]
) -> tuple[list[Rename], list[Observation], list[str]]:
    """The renames among a pass's new files (`observed`, read with their data) and the
    paths it found gone; what is left of each."""
    by_sha: dict[str, list[str]] = {}
    for path in sorted(gone):
        by_sha.setdefault(newest[path].sha256, []).append(path)
    renames: list[Rename] = []
    left: list[Observation] = []
    for observation in observed:
        current = newest.get(observation.path)
        olds = by_sha.get(observation.sha256 or "")
        if olds and (current is None or current.deleted):
            old = _likeliest(olds, observation.path)
            olds.remove(old)
            renames.append(Rename(old, observation))
        else:
            left.append(observation)
    moved = {rename.old for rename in renames}
    return renames, left, [path for path in gone if path not in moved]


def _likeliest(olds: list[str], new: str) -> str:
    """The old path `new` most likely was: the same name, then the same folder."""
    folder, _, name = new.rpartition("/")
    same_name = [old for old in olds if old.rpartition("/")[2] == name]
    same_folder = [old for old in olds if old.rpartition("/")[0] == folder]
    return (same_name or same_folder or olds)[0]
