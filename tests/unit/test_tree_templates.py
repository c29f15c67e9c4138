"""A tree copied from a worker's template is the tree built in the test's own folder, byte
for byte: a connected sync machine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from support.sync_fixtures import REMOTE_NAME, connected_machine
from support.sync_machines import Machine, bare_repository


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `root`: its bytes and modification time, by its path inside."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            file = Path(folder, name)
            found[str(file.relative_to(root))] = (file.read_bytes(), file.stat().st_mtime_ns)
    return found


def test_a_copied_sync_machine_is_the_machine_connected_there(tmp_path: Path) -> None:
    remote = bare_repository(tmp_path / REMOTE_NAME)
    Machine.create(tmp_path, "alpha").connect(remote)
    built = {path: data for path, (data, _) in _tree(tmp_path / "alpha").items()}
    shutil.rmtree(tmp_path / "alpha")
    connected_machine(tmp_path, "alpha", remote)
    copied = {path: data for path, (data, _) in _tree(tmp_path / "alpha").items()}
    assert any(str(remote).encode() in data for data in copied.values())
    assert copied == built


def test_a_machine_joining_a_remote_that_has_history_is_connected_in_place(
    tmp_path: Path, alpha: Machine
) -> None:
    alpha.publish("/memories/global/a.md", "one\n")
    beta = connected_machine(tmp_path, "beta", tmp_path / REMOTE_NAME)
    assert "branch 'main'" in (beta.sync_dir / "repo.git" / "FETCH_HEAD").read_text()
    beta.sync()
    assert beta.text("/memories/global/a.md") == "one\n"
