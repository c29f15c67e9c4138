"""Which version of a file introduced each of its lines: a walk over its versions oldest first,
each carrying the lines it kept (docs/formats.md §20.2); a restore or revert matched against what
it brought back first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memtab.blame.lines import carry, carry_from, lines_of, step
from memtab.store.history.versions import Version

OLDER = -1
"""The owner of lines older than the history Memtab still keeps."""
_BROUGHT_BACK = ("restore", "revert")


@dataclass(frozen=True)
class Owners:
    """Each line of a text and the chain index of the version that introduced it (`OLDER`, or
    `pending` for a change history has not recorded yet)."""

    lines: tuple[str, ...]
    owners: tuple[int, ...]
    pending: int


def _targets(chain: Sequence[Version]) -> dict[int, int]:
    """For each restore or revert in the chain, the index of the version it brought back."""
    by_id = {version.id: index for index, version in enumerate(chain)}
    targets: dict[int, int] = {}
    for index, version in enumerate(chain):
        if version.op not in _BROUGHT_BACK or version.deleted:
            continue
        target: int | None = None
        if version.restored_from is not None:
            target = by_id.get(version.restored_from)
        elif version.revert_of is not None:
            first = next((i for i in range(index) if chain[i].run_id == version.revert_of), None)
            target = first - 1 if first is not None and first > 0 else None
        if target is None or target >= index or chain[target].sha256 != version.sha256:
            target = next(
                (
                    i
                    for i in range(index - 1, -1, -1)
                    if chain[i].sha256 == version.sha256 and not chain[i].deleted
                ),
                None,
            )
        if target is not None:
            targets[index] = target
    return targets


def owners_of(
    chain: Sequence[Version],
    load: Callable[[str], str | None],
    current: str | None = None,
) -> Owners:
    """The owners of the lines of the file's text now; `load(sha256)` gives a version's
    `normalized` text (None: lost)."""
    targets = _targets(chain)
    saved: dict[int, tuple[list[str], list[int]]] = {}
    wanted = set(targets.values())
    text: str | None = None
    lines: list[str] = []
    owners: list[int] = []
    for index, version in enumerate(chain):
        if version.deleted:
            if index in wanted and text is not None:
                saved[index] = (lines, owners)  # a restore from the trash brings this back
            text, lines, owners = None, [], []
            continue
        loaded = load(version.sha256)
        if loaded is None:
            continue
        target = saved.get(targets[index]) if index in targets else None
        if text is not None and target is None:
            lines, owners = step(text, lines, owners, loaded, index)
        else:
            new = lines_of(loaded)
            if text is None and index == 0 and (version.prev_sha256 or version.op == "move"):
                before = load(version.prev_sha256) if version.prev_sha256 else None
                base = lines_of(before) if before is not None else new
                owners = carry(base, [OLDER] * len(base), new, index)
            elif target is not None and text is not None:
                owners = carry_from(target, (lines, owners), new, index)
            elif target is not None:
                owners = carry(target[0], target[1], new, index)
            else:
                owners = [index] * len(new)
            lines = new
        text = loaded
        if index in wanted:
            saved[index] = (lines, owners)
    pending = len(chain)
    if current is not None and current != text:
        if text is None:
            lines = lines_of(current)
            owners = [pending] * len(lines)
        else:
            lines, owners = step(text, lines, owners, current, pending)
    return Owners(tuple(lines), tuple(owners), pending)
