"""A tree copied from a worker's template is the tree built in the test's own folder, byte
for byte: the demo home and a connected sync machine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memtab.demo import create_demo_home
from support.demo_homes import copied_demo_home
from support.sync_fixtures import REMOTE_NAME, connected_machine
from support.sync_machines import Machine, bare_repository

NOW_MS = 1_800_000_000_000


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `root`: its bytes and modification time, by its path inside."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            file = Path(folder, name)
            found[str(file.relative_to(root))] = (file.read_bytes(), file.stat().st_mtime_ns)
    return found


def _stable(
    first: dict[str, tuple[bytes, int]], second: dict[str, tuple[bytes, int]]
) -> tuple[dict[str, bytes], dict[str, int]]:
    """What two builds made alike: each file's bytes, and its modification time, apart."""
    assert first.keys() == second.keys()
    return (
        {path: data for path, (data, _) in first.items() if second[path][0] == data},
        {path: mtime for path, (_, mtime) in first.items() if second[path][1] == mtime},
    )


def test_a_copied_demo_home_is_the_demo_home_built_there(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "demo"
    builds = []
    for _ in range(2):  # its runs' ids and the times of the files written as it is built vary
        create_demo_home(target, now_ms=NOW_MS)
        builds.append(_tree(target))
        shutil.rmtree(target)
    contents, times = _stable(*builds)
    copied_demo_home(target, now_ms=NOW_MS)
    copied = _tree(target)
    assert copied.keys() == builds[0].keys()
    assert "config.json" in contents and str(target).encode() in contents["config.json"]
    assert {path: copied[path][0] for path in contents} == contents
    assert {path: copied[path][1] for path in times} == times


def test_a_copied_sync_machine_is_the_machine_connected_there(tmp_path: Path) -> None:
    remote = bare_repository(tmp_path / REMOTE_NAME)
    Machine.create(tmp_path, "alpha").connect(remote)
    built = {path: data for path, (data, _) in _tree(tmp_path / "alpha").items()}
    shutil.rmtree(tmp_path / "alpha")
    connected_machine(tmp_path, "alpha", remote)
    copied = {path: data for path, (data, _) in _tree(tmp_path / "alpha").items()}
    assert any(str(remote).encode() in data for data in copied.values())
    assert copied == built
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
