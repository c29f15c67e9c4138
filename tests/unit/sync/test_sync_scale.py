"""Sync at the sizes xum allows: every exchange with git streams both ways."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memtab.store.restore.from_history import file_history
from memtab.sync.repository.git import Git
from support.memory_paths import vpath
from support.sync_machines import Machine, bare_repository

FILES_PER_SCOPE = 1000  # xum's limit (store.files.MAX_FILES_PER_SCOPE)


@pytest.mark.slow
def test_git_is_fed_and_read_at_once(tmp_path: Path) -> None:
    # Megabytes each way: a child that answers while it reads never waits on a full pipe.
    git = Git(bare_repository(tmp_path / "r.git"))
    names = b"".join(b"refs/heads/no-such-branch-%06d\n" % n for n in range(100_000))
    result = git.run(["cat-file", "--batch-check"], input_data=names, timeout_s=30)
    assert result.stdout.count(b" missing\n") == 100_000


# slow: two thousand files through git (~1 s of CPU)
@pytest.mark.slow
def test_a_first_sync_of_two_thousand_files_goes_through(tmp_path: Path, remote: Path) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote, "global", "project:/home/alice/app")
    alpha.fill(FILES_PER_SCOPE, project="/home/alice/app")

    report = alpha.sync()

    assert report.targets[0].status == "synced"
    listed = subprocess.run(
        ["git", "--git-dir", str(remote), "ls-tree", "-r", "--name-only", "main"],
        capture_output=True,
        check=True,
    ).stdout.splitlines()
    assert len([name for name in listed if name.endswith(b".md")]) == 2 * FILES_PER_SCOPE


@pytest.mark.slow
def test_a_machine_joining_brings_in_two_thousand_files(tmp_path: Path, remote: Path) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote, "global", "project:/home/alice/app")
    alpha.fill(FILES_PER_SCOPE, project="/home/alice/app")
    alpha.sync()
    beta = Machine.create(tmp_path, "beta")
    beta.connect(remote, "global", "project:/home/bob/app=app")

    report = beta.sync()

    assert len(report.targets[0].pulled) == 2 * FILES_PER_SCOPE
    assert beta.files() == alpha.files()
    assert _texts(beta.project_root("/home/bob/app")) == _texts(
        alpha.project_root("/home/alice/app")
    )
    [version] = file_history(beta.store, vpath("/memories/global/note-0999.md"))
    assert version.actor == "sync"


def _texts(root: Path) -> dict[str, str]:
    return {str(path.relative_to(root)): path.read_text() for path in root.rglob("*.md")}
