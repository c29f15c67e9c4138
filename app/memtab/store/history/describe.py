"""Ops in words: "Merged test-tips.md into testing.md", "Removed 1 line from gotchas.md".

One wording for the CLI and the window. An op is described from the contents history
kept for it (before and after each file it changed); a delete whose lines went into a
file another op of the same run edited reads as a merge (or a promotion, into another
scope). Ops without recorded contents (mux's runs) are described from their verb.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.runs import RunEntry, RunOp
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_virtual_path

DRY_RUN_NOTE = "dry-run"
MAX_DIFF_LINES = 400
_EDITS = ("str_replace", "insert", "create", "memory_write")
_VERBS = {
    "create": "create",
    "str_replace": "edit",
    "insert": "edit",
    "delete": "delete",
    "rename": "rename",
    "memory_write": "write",
}


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


def describe_op(op: RunOp, texts: OpTexts | None = None, *, merged_into: str | None = None) -> str:
    """One op in words (see the module doc). `merged_into`: the file its lines went to."""
    name = display_name(op.path)
    if not op.applied:
        verb = _VERBS.get(op.command, op.command)
        target = f"{name} to {display_name(op.new_path)}" if op.new_path else name
        if op.note == DRY_RUN_NOTE:
            return f"Proposed: {verb} {target}"
        return f"Not applied — {verb} {target}" + (f": {op.note}" if op.note else "")
    if op.command == "rename" and op.new_path:
        return _describe_move(op.path, op.new_path)
    if op.command == "delete":
        if merged_into is not None:
            if _scope_of(merged_into) != _scope_of(op.path):
                scope = _scope_of(merged_into)
                where = f"{scope.value} memory" if scope is not None else "another scope"
                return f"Promoted {name} to {where} ({display_name(merged_into)})"
            return f"Merged {name} into {display_name(merged_into)}"
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


def _describe_move(old: str, new: str) -> str:
    old_path, new_path = _parse(old), _parse(new)
    if old_path is not None and new_path is not None and old_path.parent == new_path.parent:
        return f"Renamed {display_name(old)} to {new_path.name}"
    return f"Moved {display_name(old)} to {display_name(new)}"


def _content_lines(text: str) -> list[str]:
    """The lines that carry content: not blank, not frontmatter fences."""
    return [line.strip() for line in text.splitlines() if line.strip() and line.strip() != "---"]


def merge_targets(ops: Sequence[RunOp], texts: Sequence[OpTexts]) -> dict[int, str]:
    """For each applied delete (by index), the file another op of the run carried its
    lines into: that op added some of them, and most of them are in that file now."""
    targets: dict[int, str] = {}
    for index, op in enumerate(ops):
        if not op.applied or op.command != "delete":
            continue
        deleted = texts[index].get(op.path)
        if deleted is None or deleted.before is None:
            continue
        wanted = _content_lines(deleted.before)
        if not wanted:
            continue
        needed = max(1, math.ceil(len(wanted) / 2))
        for other_index, other in enumerate(ops):
            if other_index == index or not other.applied or other.command not in _EDITS:
                continue
            file = texts[other_index].get(other.path)
            if file is None or file.after is None or other.path == op.path:
                continue
            kept = set(_content_lines(file.after))
            added = kept - set(_content_lines(file.before or ""))
            # Most of its lines are in the other file now, and that op brought some.
            covered = sum(1 for line in wanted if line in kept)
            if covered >= needed and any(line in added for line in wanted):
                targets[index] = other.path
                break
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
    """Every op of a run in words, in order (reads the contents history kept: off the
    GUI thread for a large run)."""
    read = _blob_reader(home)
    texts = [op_texts(home, op, read) for op in run.ops]
    merges = merge_targets(run.ops, texts)
    return [
        describe_op(op, texts[index], merged_into=merges.get(index))
        for index, op in enumerate(run.ops)
    ]


def unified_diff(before: str, after: str, *, before_name: str, after_name: str) -> str:
    """A unified diff of two texts (at most MAX_DIFF_LINES lines), for messages."""
    lines = list(
        difflib.unified_diff(
            before.splitlines(),
            after.splitlines(),
            fromfile=before_name,
            tofile=after_name,
            lineterm="",
        )
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
