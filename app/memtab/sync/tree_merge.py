"""Merging two machines' trees of memory files file by file (docs/formats.md §18.3): one side's
change taken, an edit beats a deletion, both edits merged line by line, a same-line change or
non-text a conflict (the tree keeps theirs); a rename carries the other side's edit."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from memtab.store.text.line_merge import merge_lines

Tree = Mapping[str, str]
ReadBlobs = Callable[[Iterable[str]], Mapping[str, bytes]]


@dataclass(frozen=True)
class PathConflict:
    """A file both sides changed in ways that cannot be merged."""

    path: str
    base: str | None
    ours: str | None
    theirs: str | None
    reason: str


@dataclass
class TreeMerge:
    """The merged tree: blob ids, and merged contents that have no blob yet."""

    tree: dict[str, str] = field(default_factory=dict)
    merged: dict[str, bytes] = field(default_factory=dict)
    conflicts: list[PathConflict] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(path, what was decided) for choices the user may want to know about."""

    def paths(self) -> set[str]:
        return set(self.tree) | set(self.merged)


def find_renames(base: Tree, side: Tree) -> dict[str, str]:
    """The files `side` moved (old path → new), by content at a new path."""
    added: dict[str, list[str]] = {}
    for path, oid in sorted(side.items()):
        if path not in base:
            added.setdefault(oid, []).append(path)
    renames: dict[str, str] = {}
    for old, oid in sorted(base.items()):
        if old not in side and added.get(oid):
            renames[old] = added[oid].pop(0)
    return renames


def carry_renames(
    base: Tree, renamed: Tree, edited: Tree
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Carry `edited`'s change of a file `renamed` moved to its new path; the three trees to
    merge."""
    base_out, edited_out = dict(base), dict(edited)
    for old, new in find_renames(base, renamed).items():
        oid = base[old]
        if new in edited or edited.get(old) in (None, oid):
            continue  # the other side did not edit it, or has the new path already
        edited_out[new] = edited_out.pop(old)
        base_out[new] = oid
    return base_out, dict(renamed), edited_out


def merge_trees(base: Tree, ours: Tree, theirs: Tree, read: ReadBlobs) -> TreeMerge:
    """Merge `ours` and `theirs` from `base` (see the module doc)."""
    base, ours, theirs = carry_renames(base, ours, theirs)
    base, theirs, ours = carry_renames(base, theirs, ours)
    result = TreeMerge()
    both_edited: list[str] = []
    for path in sorted(set(base) | set(ours) | set(theirs)):
        before, one, other = base.get(path), ours.get(path), theirs.get(path)
        if one in (other, before):
            chosen = other
        elif before == other:
            chosen = one
        elif one is None or other is None:
            chosen = one or other
            where = "here" if one is None else "on another machine"
            result.notes.append(
                (path, f"deleted {where} but changed elsewhere: the change is kept")
            )
        else:
            both_edited.append(path)
            continue
        if chosen is not None:
            result.tree[path] = chosen
    if both_edited:
        wanted = [oid for path in both_edited for oid in (base.get(path), ours[path], theirs[path])]
        contents = read(oid for oid in wanted if oid is not None)
        for path in both_edited:
            _merge_text(path, base.get(path), ours[path], theirs[path], contents, result)
    return result


def _merge_text(
    path: str,
    before: str | None,
    ours: str,
    theirs: str,
    contents: Mapping[str, bytes],
    result: TreeMerge,
) -> None:
    texts = [_text(contents.get(oid)) if oid else "" for oid in (before, ours, theirs)]
    if before is None:
        reason = "both sides created it with different contents"
    elif any(text is None for text in texts):
        reason = "it is not UTF-8 text"
    else:
        base_text, our_text, their_text = (text or "" for text in texts)
        merged = merge_lines(base_text, our_text, their_text, insertions="both")
        if merged.text is not None:
            result.merged[path] = merged.text.encode("utf-8")
            return
        first, last = merged.conflicts[0]
        where = f"line {first}" if first == last else f"lines {first}-{last}"
        reason = f"both sides changed {where}"
    result.conflicts.append(PathConflict(path, before, ours, theirs, reason))
    result.tree[path] = theirs


def _text(data: bytes | None) -> str | None:
    if data is None or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
