"""What sync keeps of the memory — its repository (memory's text, compressed), its state
and intent — is private whatever the umask (docs/formats.md §16.2): git writes it 0600 in
0700 folders, in the home's closed `memtab/`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from support.private_modes import open_to_others
from support.sync_machines import GIT, Machine, bare_repository

pytestmark = [
    pytest.mark.skipif(GIT is None or sys.platform == "win32", reason="needs git and modes"),
    pytest.mark.slow,  # slow: ~12 git processes (~2 s at load 8)
]


def test_a_sync_repository_and_its_state_are_private(tmp_path: Path, umask: int) -> None:
    remote = bare_repository(tmp_path / "remote.git")
    machine = Machine.create(tmp_path, "alpha")
    machine.connect(remote)
    machine.write("/memories/global/secret.md", "the vault code is hunter2\n")
    machine.sync()
    assert open_to_others(machine.sync_dir) == []
    assert open_to_others(machine.home.memtab_dir / "history") == []
