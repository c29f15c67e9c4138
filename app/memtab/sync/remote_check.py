"""Test connection: can this machine reach a remote with the user's credentials, and what does it
hold? Asked by `git ls-remote` from a scratch bare repository, as a sync runs git (docs/formats.md
§18.1); nothing of the home changes."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from memtab.sync.repository.git import (
    Git,
    GitError,
    branch_problem,
    describe_remote_error,
    find_git,
    remote_problem,
)
from memtab.sync.repository.layout import DEFAULT_BRANCH
from memtab.sync.service import Cancel, SyncError, SyncService


@dataclass(frozen=True)
class RemoteCheck:
    """What the remote holds, as far as its branches tell."""

    remote: str
    branch: str
    head: str | None  # the commit `branch` points at there (None: no such branch yet)
    branches: tuple[str, ...]

    @property
    def message(self) -> str:
        """What the check found, in a sentence."""
        if self.head is not None:
            return (
                f"Reached {self.remote}: its branch {self.branch} has memory; a sync "
                "merges it with this machine's"
            )
        if not self.branches:
            return f"Reached {self.remote}: an empty repository; the first sync fills it"
        others = ", ".join(self.branches[:5])
        return (
            f"Reached {self.remote}: it has no branch {self.branch} yet (it has {others}); "
            f"the first sync makes {self.branch}"
        )


def check_remote(
    service: SyncService, remote: str, *, branch: str = DEFAULT_BRANCH, cancel: Cancel | None = None
) -> RemoteCheck:
    """Ask `remote` for its branches (see the module doc); SyncError says why not."""
    if problem := remote_problem(remote):
        raise SyncError(problem)
    remote = remote.strip()
    try:
        program = service.git_program or find_git()
    except GitError as error:  # git is missing
        raise SyncError(str(error)) from None
    if refused := branch_problem(branch, program):
        raise SyncError(refused)
    with tempfile.TemporaryDirectory(prefix="memtab-remote-check-") as scratch:
        git = Git(Path(scratch) / "repo.git", git=program, cancel=cancel)
        try:
            git.init(remote, branch)
            heads = git.heads()
        except GitError as error:
            raise SyncError(describe_remote_error(remote, error)) from None
    return RemoteCheck(remote, branch, heads.get(branch), tuple(sorted(heads)))
