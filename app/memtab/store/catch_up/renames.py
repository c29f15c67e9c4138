"""Renames another program made, told from a deletion and a new file by the same content digest in
one pass, recorded as moves (same name, then same folder, first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.store.history.recorder import Observation
from memtab.store.history.versions import Version


@dataclass(frozen=True)
class Rename:
    """A file another program renamed: its old path and what was read at the new one."""

    old: str
    new: Observation


def pair_renames(
    observed: Sequence[Observation], gone: Sequence[str], newest: dict[str, Version]
) -> tuple[list[Rename], list[Observation], list[str]]:
    """The renames among a pass's new files and gone paths; what is left of each."""
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
