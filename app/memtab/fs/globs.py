"""Whether a glob (`packages/*/lib`, `tests/**/fixtures`, `db/*.sql`) matches a relative
path, a file or folder of an index, or one under a folder on disk: `*` any run of a name's
characters (`fnmatch`'s), `**` any folders (none too). On
disk, a walk of at most `MAX_VISITED` entries (past it: it may match). The check's reader of
globs (docs/formats.md §19.3).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Collection, Iterable
from pathlib import Path

MAX_VISITED = 20_000
MAX_PARTS = 32
"""A longer glob is not checked (no real path is that deep)."""


def is_glob(pattern: str) -> bool:
    return "*" in pattern


def path_matches(path: str, pattern: str) -> bool:
    """Whether a `/`-separated relative path matches the glob (`**` any folders)."""
    names, parts = path.split("/"), pattern.split("/")
    seen: dict[tuple[int, int], bool] = {}

    def from_(name: int, part: int) -> bool:
        key = (name, part)
        if key not in seen:
            if part == len(parts):
                seen[key] = name == len(names)
            elif parts[part] == "**":
                seen[key] = any(from_(at, part + 1) for at in range(name, len(names) + 1))
            else:
                seen[key] = (
                    name < len(names)
                    and fnmatch.fnmatchcase(names[name], parts[part])
                    and from_(name + 1, part + 1)
                )
        return seen[key]

    return from_(0, 0)


def literal_folder(pattern: str) -> str:
    """The folders a glob names before its first wildcard (`packages` of `packages/*/lib`)."""
    literal = []
    for part in pattern.split("/")[:-1]:
        if is_glob(part):
            break
        literal.append(part)
    return "/".join(literal)


def indexed_match(
    files: Iterable[str], directories: Iterable[str], pattern: str, directory: bool
) -> bool:
    """Whether a file or folder of an index (`directory`: a folder) matches the glob."""
    folder = literal_folder(pattern)
    prefix = folder + "/" if folder else ""
    candidates = directories if directory else (*files, *directories)
    return any(path.startswith(prefix) and path_matches(path, pattern) for path in candidates)


def matches_on_disk(root: Path, pattern: str, directory: bool, skipped: Collection[str]) -> bool:
    """Whether a file or folder under `root` matches the glob, folders in `skipped` not
    entered by `**`; True when more than `MAX_VISITED` entries would have to be read."""
    parts = pattern.split("/")
    left = [MAX_VISITED]

    def walk(folder: str, part: int) -> bool:
        here = os.path.join(root, folder)
        if part == len(parts):
            return not directory or os.path.isdir(here)
        name = parts[part]
        if not is_glob(name):
            child = f"{folder}/{name}" if folder else name
            return os.path.lexists(os.path.join(root, child)) and walk(child, part + 1)
        try:
            with os.scandir(here) as listed:
                entries = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in listed]
        except OSError:
            return False
        left[0] -= len(entries)
        if left[0] < 0:
            return True
        if name == "**":
            return walk(folder, part + 1) or any(
                walk(f"{folder}/{entry}" if folder else entry, part)
                for entry, is_dir in entries
                if is_dir and entry not in skipped
            )
        return any(
            walk(f"{folder}/{entry}" if folder else entry, part + 1)
            for entry, _ in entries
            if fnmatch.fnmatchcase(entry, name)
        )

    return walk("", 0)
