"""Files only their user may read (docs/formats.md §16.2), for the tests that check
them: the umask a test runs under (the fixture `umask`: the default 022, and 002, a
group-shared setup's), and what each private file and folder must be."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

UMASKS = (0o022, 0o002)


@pytest.fixture(params=UMASKS, ids=lambda mask: f"umask{mask:03o}")
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """The test runs under each common umask (this process's, set back after)."""
    before = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(before)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def open_to_others(root: Path) -> list[str]:
    """Everything under `root` (and `root`) that is not 0600 (a file) or 0700 (a folder),
    with its mode: what another user could read or enter."""
    found = [] if mode_of(root) == 0o700 else [f"{root} {mode_of(root):04o}"]
    for top, folders, files in os.walk(root):
        for name in folders:
            if mode_of(Path(top, name)) != 0o700:
                found.append(f"{Path(top, name)} {mode_of(Path(top, name)):04o}")
        for name in files:
            if mode_of(Path(top, name)) & 0o077:
                found.append(f"{Path(top, name)} {mode_of(Path(top, name)):04o}")
    return found
