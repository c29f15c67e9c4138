"""Ops in words ("Combined test-tips.md into testing.md"), one wording for the CLI and the window,
from the contents history kept (a delete whose lines went into another file of its unit reads as a
merge)."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_virtual_path
from memtab.store.text.content_lines import content_lines

DRY_RUN_NOTE = "dry-run"
MAX_DIFF_LINES = 400
_EDITS = ("str_replace", "insert", "create", "memory_write")
_VERBS = {"str_replace": "edit", "insert": "edit", "memory_write": "write", "revert": "restore"}


@dataclass(frozen=True)
class FileTexts:
    """A file's text before and after an op (None: no file, or not known)."""

    before: str | None
    after: str | None


OpTexts = dict[str, FileTexts]


def _parse(path: str) -> VirtualPath | None:
    try:
        return parse_virtual_path(path)
    except PathError:
        return None


def display_name(path: str) -> str:
    """A file as ops name it: its path inside its scope (`notes/testing.md`)."""
    parsed = _parse(path)
    return parsed.relative if parsed is not None and parsed.segments else path


def _scope_of(path: str) -> Scope | None:
    parsed = _parse(path)
    return parsed.scope if parsed is not None else None


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def line_changes(before: str, after: str) -> tuple[int, int]:
    """(added, removed) lines between two texts."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), False)
    added = removed = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


def describe_op(
    op: RunOp,
    texts: OpTexts | None = None,
    *,
    combined_into: str | None = None,
    names: Callable[[str], str] = display_name,
) -> str:
    """One op in words; `merged_into`: where its lines went; `names`: how files are named."""
    name = names(op.path)
    if not op.applied:
        verb = _VERBS.get(op.command, op.command)  # create, delete, rename: as they are
        target = f"{name} to {names(op.new_path)}" if op.new_path else name
        if op.note == DRY_RUN_NOTE:
            return f"Proposed: {verb} {target}"
        return f"Not applied — {verb} {target}" + (f": {op.note}" if op.note else "")
    if op.command == "rename" and op.new_path:
        old_path, new_path = _parse(op.path), _parse(op.new_path)
        if old_path is not None and new_path is not None and old_path.parent == new_path.parent:
            return f"Renamed {name} to {new_path.name}"
        return f"Moved {name} to {names(op.new_path)}"
    if op.command == "revert":  # a revert run's op: the file back as it was before the run
        file = (texts or {}).get(op.path)
        if file is not None and file.after is None and file.before is not None:
            return f"Removed {name} (the run had made it)"
        return f"Restored {name} to what it held before the run"
    if op.command == "delete":
        if combined_into is not None:
            if _scope_of(combined_into) != _scope_of(op.path):
                scope = _scope_of(combined_into)
                where = f"{scope.value} memory" if scope is not None else "another scope"
                return f"Promoted {name} to {where} ({names(combined_into)})"
            return f"Combined {name} into {names(combined_into)}"
        return f"Deleted {name}"
    file = (texts or {}).get(op.path)
    if op.command == "create":
        if file is not None and file.after is not None:
            return f"Created {name} ({_lines(len(file.after.splitlines()))})"
        return f"Created {name}"
    if file is None or file.after is None:
        return f"Edited {name}"
    added, removed = line_changes(file.before or "", file.after)
    if added and not removed:
        return f"Added {_lines(added)} to {name}"
    if removed and not added:
        return f"Removed {_lines(removed)} from {name}"
    if not added and not removed:
        return f"Rewrote {name} (no line changed)"
    return f"Edited {name} (+{added} −{removed} lines)"


def names_for(paths: Iterable[str]) -> Callable[[str], str]:
    """How a run's ops name files: by path inside their scope, with the scope when the run names one
    path in two scopes."""
    scopes: dict[str, set[Scope | None]] = {}
    for path in paths:
        scopes.setdefault(display_name(path), set()).add(_scope_of(path))

    def name(path: str) -> str:
        relative, scope = display_name(path), _scope_of(path)
        return (
            f"{scope.value}/{relative}" if scope and len(scopes.get(relative, ())) > 1 else relative
        )

    return name


def describe_ops(
    ops: Sequence[RunOp], texts: Sequence[OpTexts], units: Sequence[int | None] | None = None
) -> list[str]:
    """Every op of a run in words (`units`: the run's, by default `op_units`)."""
    combines = combine_targets(ops, texts, units)
    names = names_for(
        [path for op in ops for path in (op.path, op.new_path) if path is not None]
        + list(combines.values())
    )
    return [
        describe_op(op, texts[index], combined_into=combines.get(index), names=names)
        for index, op in enumerate(ops)
    ]


def op_units(
    ops: Sequence[RunOp], texts: Sequence[OpTexts], engine_keys: Sequence[str | None] | None = None
) -> list[int | None]:
    """A unit number per applied op (from 1; None: not applied): ops changing one file, and a delete
    with the edits that carried its lines elsewhere, are one unit. `engine_keys` replaces the
    carried lines where the engine knows its merges."""
    parent = list(range(len(ops)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    def join(a: int, b: int) -> None:
        parent[root(a)] = root(b)

    applied = [index for index, op in enumerate(ops) if op.applied]
    toucher: dict[str, int] = {}
    for index in applied:
        for file in ops[index].files:
            if file.path in toucher:
                join(index, toucher[file.path])
            toucher[file.path] = index
    if engine_keys is not None:
        first_of: dict[str, int] = {}
        for index in applied:
            key = engine_keys[index] if index < len(engine_keys) else None
            if key is not None:
                join(index, first_of.setdefault(key, index))
    else:
        _join_carried(ops, texts, applied, join)
    numbers: dict[int, int] = {}
    units: list[int | None] = [None] * len(ops)
    for index in applied:
        units[index] = numbers.setdefault(root(index), len(numbers) + 1)
    return units


def _join_carried(
    ops: Sequence[RunOp],
    texts: Sequence[OpTexts],
    applied: Sequence[int],
    join: Callable[[int, int], None],
) -> None:
    """Join each applied delete with the applied edits that brought some of its lines."""
    added = {index: _added_lines(texts[index]) for index in applied if ops[index].command in _EDITS}
    for index in applied:
        if ops[index].command != "delete":
            continue
        wanted = _deleted_lines(texts[index])
        for other, lines in added.items():
            if other != index and lines & wanted:
                join(index, other)


def _added_lines(texts: OpTexts) -> set[str]:
    added = (
        content_lines(f.after) - content_lines(f.before or "")
        for f in texts.values()
        if f.after is not None
    )
    return set().union(*added)


def _deleted_lines(texts: OpTexts) -> set[str]:
    gone = (
        content_lines(f.before) for f in texts.values() if f.after is None and f.before is not None
    )
    return set().union(*gone)


def combine_targets(
    ops: Sequence[RunOp], texts: Sequence[OpTexts], units: Sequence[int | None] | None = None
) -> dict[int, str]:
    """For each applied delete, the file its unit carried at least half its lines into."""
    units = op_units(ops, texts) if units is None else units
    targets: dict[int, str] = {}
    for index, op in enumerate(ops):
        if not op.applied or op.command != "delete" or units[index] is None:
            continue
        wanted = _deleted_lines(texts[index])
        if not wanted:
            continue
        best: tuple[int, str] | None = None
        for other_index, other in enumerate(ops):
            if other_index == index or units[other_index] != units[index]:
                continue
            if other.command not in _EDITS or not other.applied:
                continue
            for path, file in texts[other_index].items():
                if file.after is None or path == op.path:
                    continue
                covered = len(wanted & content_lines(file.after))
                if best is None or covered > best[0]:
                    best = (covered, path)
        if best is not None and best[0] >= max(1, math.ceil(len(wanted) / 2)):
            targets[index] = best[1]
    return targets


def op_texts(home: Home, op: RunOp, read: Callable[[str], str | None] | None = None) -> OpTexts:
    """The texts history kept for an op's files (missing contents read as None)."""
    read = read or _blob_reader(home)
    texts: OpTexts = {}
    for file in op.files:
        before = read(file.before_sha256) if file.before_sha256 else None
        after = None if file.deleted else read(file.after_sha256)
        if file.deleted and before is None:
            before = read(file.after_sha256)  # a deletion keeps what it deleted
        texts[file.path] = FileTexts(before, after)
    return texts


def _blob_reader(home: Home) -> Callable[[str], str | None]:
    blobs = BlobStore(home.history_blobs_dir)
    cache: dict[str, str | None] = {}

    def read(sha: str) -> str | None:
        if sha not in cache:
            try:
                cache[sha] = blobs.get(sha).decode("utf-8", "replace")
            except BlobError:
                cache[sha] = None
        return cache[sha]

    return read


def describe_run(home: Home, run: RunEntry) -> list[str]:
    """Every op of a run in words, in order (reads history: off the GUI thread)."""
    read = _blob_reader(home)
    texts = [op_texts(home, op, read) for op in run.ops]
    logged = [op.unit for op in run.ops]
    return describe_ops(run.ops, texts, logged if any(logged) else None)


def unified_diff(before: str, after: str, *, before_name: str, after_name: str) -> str:
    """A unified diff of two texts (at most MAX_DIFF_LINES lines), for messages."""
    old, new = before.splitlines(), after.splitlines()
    lines = list(
        difflib.unified_diff(old, new, fromfile=before_name, tofile=after_name, lineterm="")
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… ({len(lines) - MAX_DIFF_LINES} more lines)"]
    return "\n".join(lines)


def op_diff(home: Home, op: RunOp) -> str:
    """The unified diff of every file an op changed (empty when history has no contents)."""
    parts = [
        unified_diff(
            file.before or "",
            file.after or "",
            before_name=path if file.before is not None else "/dev/null",
            after_name=path if file.after is not None else "/dev/null",
        )
        for path, file in op_texts(home, op).items()
        if file.before is not None or file.after is not None
    ]
    return "\n".join(part for part in parts if part)
