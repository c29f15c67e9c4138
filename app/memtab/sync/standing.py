"""Where a target stands without syncing, in memory files to send and bring in (`memtab sync
status`, the window's "↑2 ↓1", docs/formats.md §18.8)."""

from __future__ import annotations

from collections.abc import Mapping

from memtab.sync.repository.git import Git
from memtab.sync.repository.layout import SyncedScope, Target
from memtab.sync.repository.writing import Repository


def distance(git: Git, head: str | None, remote: str | None) -> tuple[int, int]:
    """Commits only `head` has, and only `remote` has."""
    if head is None or remote is None:
        count = lambda commit: (  # noqa: E731
            int(git.run(["rev-list", "--count", commit]).stdout.decode().strip() or 0)
            if commit
            else 0
        )
        return count(head), count(remote)
    result = git.run(["rev-list", "--left-right", "--count", f"{head}...{remote}"])
    left, _, right = result.stdout.decode().strip().partition("\t")
    return int(left or 0), int(right or 0)


def files_apart(
    repo: Repository, target: Target, head: str | None, remote: str | None
) -> tuple[set[str], set[str]]:
    """The memory files `head`'s own commits change and those the remote's change, since their
    shared commit."""
    if head == remote:
        return set(), set()
    base = repo.git.merge_base(head, remote) if head is not None and remote is not None else None
    before = repo.files(base) if base is not None else {}
    ours = _changed(before, repo.files(head) if head is not None else {}, target)
    theirs = _changed(before, repo.files(remote) if remote is not None else {}, target)
    return ours, theirs


def _changed(before: Mapping[str, str], after: Mapping[str, str], target: Target) -> set[str]:
    paths = {path for path in {*before, *after} if before.get(path) != after.get(path)}
    return {path for path in paths if scope_of(target, path) is not None}


def scope_of(target: Target, repo_path: str) -> SyncedScope | None:
    """The target's scope a repository path is a memory file of (None: none)."""
    return next((s for s in target.scopes if s.virtual_path(repo_path) is not None), None)


def shown(target: Target, repo_path: str) -> str:
    """A repository path as the virtual path of this home's scope (else as it is)."""
    scope = scope_of(target, repo_path)
    virtual = scope.virtual_path(repo_path) if scope is not None else None
    return str(virtual) if virtual is not None else repo_path
