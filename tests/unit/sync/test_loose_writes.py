"""A sync's few objects written as loose objects by Memtab itself (`writing.py`): the same
ids as `git fast-import` gives the same commits, objects `git fsck --strict` passes, a
remote's odd entries kept, and no fast-import (nor its `unpack-objects`) for a sync of one
changed file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.sync.repository import writing
from memtab.sync.repository.git import Git, GitError, Identity
from memtab.sync.repository.objects import Change, Existing, NewCommit
from memtab.sync.repository.writing import LooseObjects, Repository, write_commits
from support.property_examples import examples
from support.sync_machines import GIT, Machine, bare_repository

pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed")

WHO = Identity("Alice Example", "alice@example.com")
NOW = 1_764_000_000.0

_PATHS = st.sampled_from(
    [
        "global/a.md",
        "global/b.md",
        "global/sub/c.md",
        "global/sub/deeper/d.md",
        "global/sub-e.md",  # sorts between `sub` (a folder: `sub/`) and `sub.md`
        "global/sub.md",
        "projects/app/f.md",
        ".memtab/meta/global.json",
    ]
)
_CHANGES = st.one_of(
    st.none(),
    st.binary(max_size=40),
    st.tuples(st.sampled_from(["100644", "100755", "120000"]), st.binary(max_size=8)),
)
_COMMITS = st.lists(
    st.dictionaries(_PATHS, _CHANGES, min_size=1, max_size=5), min_size=1, max_size=4
)


def _git(repository: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", "--git-dir",
         str(repository), *args],
        input=data,
        capture_output=True,
        check=True,
    )  # fmt: skip
    return done.stdout.decode()


def _commits(git: Git, drawn: list[dict[str, object]]) -> list[NewCommit]:
    """The drawn commits, an existing object written first where one is drawn."""
    commits = []
    for number, changes in enumerate(drawn):
        made: dict[str, Change] = {}
        for path, change in changes.items():
            if isinstance(change, tuple):
                mode, data = change
                oid = _git(git.repo, "hash-object", "-w", "--stdin", data=data).strip()
                made[path] = Existing(oid, mode)
            else:
                made[path] = change  # type: ignore[assignment]
        commits.append(NewCommit(made, f"commit {number}\n\nMemtab-Machine: here\n"))
    return commits


@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=_COMMITS, second=_COMMITS)
def test_loose_commits_are_the_commits_fast_import_writes(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    first: list[dict[str, object]],
    second: list[dict[str, object]],
) -> None:
    monkeypatch.setattr(writing.time, "time", lambda: NOW)
    folder = tmp_path_factory.mktemp("writes")
    heads = {}
    for way in ("fast-import", "loose"):
        git = Git(bare_repository(folder / f"{way}.git"))
        repo = Repository(git, WHO)
        start = None
        for drawn in (first, second):  # a write on a tree the first one made
            commits = _commits(git, drawn)
            if way == "loose":
                ids = LooseObjects(git, repo.reader).commits("refs/heads/main", start, commits, WHO)
            else:
                ids = write_commits(git, "refs/heads/main", start, commits, WHO)
            start = ids[-1]
        repo.close()
        heads[way] = start
        assert _git(git.repo, "rev-parse", "refs/heads/main").strip() == start
        if way == "loose":
            _git(git.repo, "fsck", "--strict", "--no-dangling")
    assert heads["loose"] == heads["fast-import"]


def test_a_remote_s_tree_keeps_its_odd_entries(tmp_path: Path) -> None:
    # A teammate's tree may hold a link, a submodule, an executable file: a change beside
    # them rewrites their folder with each kept as it is.
    git = Git(bare_repository(tmp_path / "r.git"))
    blob = _git(git.repo, "hash-object", "-w", "--stdin", data=b"x\n").strip()
    commit = "1" * 40
    listing = (
        f"100755 blob {blob}\trun.sh\n120000 blob {blob}\tlink.md\n"
        f"160000 commit {commit}\tmodule\n100644 blob {blob}\tnote.md\n"
    )
    folder = _git(git.repo, "mktree", data=listing.encode()).strip()
    root = _git(git.repo, "mktree", data=f"040000 tree {folder}\tglobal\n".encode()).strip()
    start = _git(git.repo, "commit-tree", root, "-m", "theirs").strip()
    _git(git.repo, "update-ref", "refs/heads/main", start)
    repo = Repository(git, WHO)

    [head] = LooseObjects(git, repo.reader).commits(
        "refs/heads/main", start, [NewCommit({"global/new.md": b"new\n"}, "mine\n")], WHO
    )
    repo.close()

    tree = _git(git.repo, "ls-tree", head, "global/").split("\n")
    assert sorted(line for line in tree if line) == sorted(
        [
            f"100755 blob {blob}\tglobal/run.sh",
            f"120000 blob {blob}\tglobal/link.md",
            f"160000 commit {commit}\tglobal/module",
            f"100644 blob {blob}\tglobal/note.md",
            f"100644 blob {git.blob_id(b'new' + bytes([10]))}\tglobal/new.md",
        ]
    )
    assert _git(git.repo, "rev-parse", "refs/heads/main").strip() == head


def test_a_commit_written_is_known_without_reading_its_tree(tmp_path: Path) -> None:
    git = Git(bare_repository(tmp_path / "r.git"))
    repo = Repository(git, WHO)
    [first] = repo.write("refs/heads/main", None, [NewCommit({"global/a.md": b"a\n"}, "one\n")])
    read: list[str] = []
    tree_data = repo.reader.tree_data
    repo.reader.tree_data = lambda tree: read.append(tree) or tree_data(tree)  # type: ignore[method-assign]
    [second] = repo.write("refs/heads/main", first, [NewCommit({"global/b.md": b"b\n"}, "two\n")])
    assert repo.files(second) == {
        "global/a.md": git.blob_id(b"a\n"),
        "global/b.md": git.blob_id(b"b\n"),
    }
    assert read == []  # the first commit's trees were written here, the second's known
    repo.close()


def test_the_branch_moves_only_from_the_commit_a_write_starts_on(tmp_path: Path) -> None:
    git = Git(bare_repository(tmp_path / "r.git"))
    repo = Repository(git, WHO)
    [first] = repo.write("refs/heads/main", None, [NewCommit({"global/a.md": b"a\n"}, "one\n")])
    [second] = repo.write("refs/heads/main", first, [NewCommit({"global/b.md": b"b\n"}, "two\n")])
    with pytest.raises(GitError):  # the branch is at `second` now, not `first`
        repo.write("refs/heads/main", first, [NewCommit({"global/c.md": b"c\n"}, "three\n")])
    assert repo.resolve("refs/heads/main") == second
    merge = repo.write("refs/memtab/merge", first, [NewCommit({"global/d.md": b"d\n"}, "m\n")])
    assert repo.resolve("refs/memtab/merge") == merge[0]  # Memtab's own: whatever it held
    repo.close()


def _traced(trace: Path, command: str) -> int:
    lines = trace.read_text(errors="replace").splitlines() if trace.exists() else []
    return sum(f"built-in: git {command}" in line for line in lines)


def test_a_sync_of_one_changed_file_starts_no_fast_import(
    alpha: Machine, beta: Machine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fast-import unpacked a few objects with one more git (`unpack-objects`): two
    # processes for a commit of one file. A first sync of many files still packs them.
    alpha.fill(100)
    first, one = tmp_path / "first.trace", tmp_path / "one.trace"
    monkeypatch.setenv("GIT_TRACE", str(first))
    alpha.sync()
    alpha.write("/memories/global/note-0001.md", "changed\n")
    monkeypatch.setenv("GIT_TRACE", str(one))
    alpha.sync()
    monkeypatch.undo()

    assert (_traced(first, "fast-import"), _traced(one, "fast-import")) == (1, 0)
    assert _traced(one, "unpack-objects") == 1  # the remote's side of the push, as git's own
    beta.sync()
    assert beta.text("/memories/global/note-0001.md") == "changed\n"
    _git(alpha.sync_dir / "repo.git", "fsck", "--strict", "--no-dangling")
