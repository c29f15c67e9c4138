"""Whether a glob (`packages/*/lib`, `tests/**/fixtures`, `db/*.sql`) matches a relative
path, a file or folder of an index, or one under a folder on disk: `*` any run of a name's
characters (`fnmatch`'s), `**` any folders (none too). On disk, a walk of at most
`MAX_VISITED` entries of any kind (past it: it cannot tell). The check's reader of globs
(docs/formats.md §19.3).

And the files under a folder another program keeps (a checkout, a memory root, `walk_files`),
walked with a stack, never through a link, and bounded by the entries it reads of any kind: a
chain of thousands of nested folders or a tree of empty ones costs no more than as many files.
Folders are read in name order, each folder's files before what its subfolders hold, so a walk
cut at its bound always keeps the same files.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import NamedTuple

MAX_VISITED = 20_000
MAX_PARTS = 32
"""A longer glob is not checked (no real path is that deep)."""


def is_glob(pattern: str) -> bool:
    return "*" in pattern


def path_matches(path: str, pattern: str) -> bool:
    """Whether a `/`-separated relative path matches the glob (`**` any folders): the glob's
    parts taken in turn over the names each may have reached, no recursion."""
    names = path.split("/")
    reached = {0}  # how many names the parts so far may have matched
    for part in pattern.split("/"):
        if part == "**":
            reached = set(range(min(reached), len(names) + 1))
        else:
            reached = {
                at + 1 for at in reached if at < len(names) and fnmatch.fnmatchcase(names[at], part)
            }
        if not reached:
            return False
    return len(names) in reached


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


def matches_on_disk(
    root: Path, pattern: str, directory: bool, skipped: Collection[str]
) -> bool | None:
    """Whether a file or folder under `root` matches the glob, folders in `skipped` not
    entered by `**`; None when telling would read more than `MAX_VISITED` entries (of any
    kind). Walked with a stack of (folder, part of the glob reached), each pair once."""
    parts = pattern.split("/")
    left = MAX_VISITED
    listed: dict[str, list[tuple[str, bool]]] = {}
    seen: set[tuple[str, int]] = set()
    pending: list[tuple[str, int]] = [("", 0)]
    while pending:
        folder, part = pending.pop()
        if (folder, part) in seen:
            continue
        seen.add((folder, part))
        if part == len(parts):
            if not directory or os.path.isdir(os.path.join(root, folder)):
                return True
            continue
        name = parts[part]
        if not is_glob(name):
            child = f"{folder}/{name}" if folder else name
            if os.path.lexists(os.path.join(root, child)):
                pending.append((child, part + 1))
            continue
        entries = listed.get(folder)
        if entries is None:
            try:
                with os.scandir(os.path.join(root, folder)) as found:
                    # one entry past what is left tells the bound was reached
                    entries = [
                        (entry.name, entry.is_dir(follow_symlinks=False))
                        for entry in itertools.islice(found, left + 1)
                    ]
            except OSError:
                entries = []
            left -= len(entries)
            if left < 0:
                return None
            listed[folder] = entries
        prefix = f"{folder}/" if folder else ""
        if name == "**":
            # each folder `**` may enter, and `**` as no folder, tried first (pushed last)
            pending.extend(
                (prefix + entry, part)
                for entry, is_dir in entries
                if is_dir and entry not in skipped
            )
            pending.append((folder, part + 1))
        else:
            pending.extend(
                (prefix + entry, part + 1)
                for entry, _ in entries
                if fnmatch.fnmatchcase(entry, name)
            )
    return False


class Walked(NamedTuple):
    """What a walk found: files (and links) relative to its root, `/`-separated; `cut`: it
    stopped at its bound, and more entries were there."""

    files: list[str]
    cut: bool


def walk_files(
    root: Path | str,
    *,
    most_entries: int,
    enter: Callable[[str], bool] = lambda _name: True,
    levels: int | None = None,
) -> Walked:
    """The files and links under `root` (see the module doc), entering only folders whose
    name `enter` accepts, at most `levels` folders deep (`root` is the first), reading at
    most `most_entries` entries of any kind; a folder it cannot read is passed over."""
    files: list[str] = []
    read = 0
    pending: list[tuple[str, int]] = [("", 1)]
    while pending:
        relative, level = pending.pop()
        room = most_entries - read
        try:
            with os.scandir(os.path.join(root, relative) if relative else root) as listed:
                # one entry past the room tells the bound was reached, however large the folder
                entries = list(itertools.islice(listed, room + 1))
        except OSError:
            continue
        cut = len(entries) > room
        entries = sorted(entries[:room], key=lambda entry: entry.name)
        read += len(entries)
        folders: list[str] = []
        for entry in entries:
            path = f"{relative}/{entry.name}" if relative else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if enter(entry.name) and (levels is None or level < levels):
                        folders.append(path)
                elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    files.append(path)
            except OSError:
                continue  # gone or unreadable since it was listed
        if cut:
            return Walked(files, True)
        pending.extend((folder, level + 1) for folder in reversed(folders))
    return Walked(files, False)
