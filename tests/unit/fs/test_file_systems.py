"""Which file system a flush covers (`fs/atomic.on_one_file_system`): a folder a batch is
about to make is on the file system it will be made on."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.fs.atomic import on_one_file_system


def test_a_folder_not_made_yet_is_on_its_nearest_existing_folders_file_system(
    tmp_path: Path,
) -> None:
    # A machine joining copies into history before its scope's folder exists.
    assert on_one_file_system(tmp_path / "memory" / "global", tmp_path)
    assert on_one_file_system(tmp_path, tmp_path / "not" / "made")


def test_proc_is_another_file_system() -> None:
    if not Path("/proc/self").exists():
        pytest.skip("no /proc here")
    assert not on_one_file_system(Path("/proc/self"), Path.cwd())
