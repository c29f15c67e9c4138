"""Sync at the sizes xum allows: every exchange with git streams both ways."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memtab.store.paths import Scope
from memtab.sync.git import Git
from memtab.sync.scopes import ProjectScopeStore
from support.sync_machines import Machine, bare_repository

FILES_PER_SCOPE = 1000  # xum's limit (store.files.MAX_FILES_PER_SCOPE)


def test_git_is_fed_and_read_at_once(tmp_path: Path) -> None:
    # Megabytes each way: a child that answers while it reads never waits on a full pipe.
    git = Git(bare_repository(tmp_path / "r.git"))
    names = b"".join(b"refs/heads/no-such-branch-%06d\n" % n for n in range(100_000))
    result = git.run(["cat-file", "--batch-check"], input_data=names, timeout_s=30)
    assert result.stdout.count(b" missing\n") == 100_000


def test_a_first_sync_of_two_thousand_files_goes_through(tmp_path: Path, remote: Path) -> None:
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote, "global", "project:/home/alice/app")
    alpha.home.global_root.mkdir(parents=True, exist_ok=True)
    body = "- a note that is a few lines long, as memories are\n" * 40
    for number in range(FILES_PER_SCOPE):
        (alpha.home.global_root / f"note-{number:04d}.md").write_text(f"# {number}\n{body}")
    project = ProjectScopeStore(alpha.home, "/home/alice/app", actor="user", run_id=None).root(
        Scope.PROJECT
    )
    project.mkdir(parents=True, exist_ok=True)
    for number in range(FILES_PER_SCOPE):
        (project / f"fact-{number:04d}.md").write_text(f"# fact {number}\n{body}")

    report = alpha.sync()

    assert report.targets[0].status == "synced"
    listed = subprocess.run(
        ["git", "--git-dir", str(remote), "ls-tree", "-r", "--name-only", "main"],
        capture_output=True,
        check=True,
    ).stdout.splitlines()
    assert len([name for name in listed if name.endswith(b".md")]) == 2 * FILES_PER_SCOPE
