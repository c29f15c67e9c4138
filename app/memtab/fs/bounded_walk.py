"""The files under a folder another program keeps (a checkout, a memory root), walked with a
stack, never through a link, and bounded by the entries it reads of any kind: a chain of
thousands of nested folders or a tree of empty ones costs no more than as many files.

Folders are read in name order, each folder's files before what its subfolders hold, so a
walk cut at its bound always keeps the same files.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple


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
