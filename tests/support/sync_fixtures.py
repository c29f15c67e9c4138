"""Two homes and a local bare repository (`git init --bare` in tmp): the fixtures `remote`,
`alpha` and `beta` of the sync tests, the engine's and the window's alike.

Connecting a machine runs ~10 git processes and leaves the remote as it was (nothing is
pushed yet), so each worker connects `alpha` and `beta` once, beside a remote of their
own, and a test gets a copy of the machine beside its own remote (`support.tree_templates`
rewrites the remote's path in the copy). A remote that is no longer as `git init --bare`
left it (a test's own fixture pushed to it first) gets a machine connected in place."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.sync_machines import GIT, Machine, bare_repository
from support.tree_templates import TreeTemplate

REMOTE_NAME = "remote.git"

_connected: dict[str, tuple[TreeTemplate, set[tuple[str, int]]]] = {}


def _listing(repository: Path) -> set[tuple[str, int]]:
    """The files of a bare repository and their sizes: what a push would change."""
    return {
        (
            os.path.relpath(os.path.join(folder, name), repository),
            os.path.getsize(os.path.join(folder, name)),
        )
        for folder, _, names in os.walk(repository)
        for name in names
    }


def _connected_template(name: str) -> tuple[TreeTemplate, set[tuple[str, int]]]:
    """The machine connected beside a new remote, and that remote's files."""
    made = _connected.get(name)
    if made is None:
        remote_files: set[tuple[str, int]] = set()

        def connect(folder: Path) -> Path:
            Machine.create(folder, name).connect(bare_repository(folder / REMOTE_NAME))
            remote_files.update(_listing(folder / REMOTE_NAME))
            return folder

        made = _connected[name] = (TreeTemplate.build(connect), remote_files)
    return made


def connected_machine(root: Path, name: str, remote: Path) -> Machine:
    """The machine `name` in `root`, connected to `remote` (the global scope)."""
    template, new_remote = _connected_template(name)
    if remote == root / REMOTE_NAME and _listing(remote) == new_remote:
        template.copy(root, name)
        return Machine.create(root, name)
    machine = Machine.create(root, name)
    machine.connect(remote)
    return machine


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    if GIT is None:  # the set-up installs it (scripts/install-system-deps --test)
        pytest.fail("git is not installed; run make test-system-deps", pytrace=False)
    return bare_repository(tmp_path / REMOTE_NAME)


@pytest.fixture
def alpha(tmp_path: Path, remote: Path) -> Machine:
    return connected_machine(tmp_path, "alpha", remote)


@pytest.fixture
def beta(tmp_path: Path, remote: Path) -> Machine:
    return connected_machine(tmp_path, "beta", remote)
