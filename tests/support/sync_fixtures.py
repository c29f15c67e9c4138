"""Two homes and a local bare repository (`git init --bare` in tmp): the fixtures `remote`,
`alpha` and `beta` of the sync tests, the engine's and the window's alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.sync_machines import GIT, Machine, bare_repository


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    if GIT is None:  # the set-up installs it (scripts/install-system-deps --test)
        pytest.fail("git is not installed; run make test-system-deps", pytrace=False)
    return bare_repository(tmp_path / "remote.git")


@pytest.fixture
def alpha(tmp_path: Path, remote: Path) -> Machine:
    machine = Machine.create(tmp_path, "alpha")
    machine.connect(remote)
    return machine


@pytest.fixture
def beta(tmp_path: Path, remote: Path) -> Machine:
    machine = Machine.create(tmp_path, "beta")
    machine.connect(remote)
    return machine
