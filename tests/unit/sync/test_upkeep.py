"""git's maintenance of a sync repository, started only when it has work (`sync/engine.py`):
the condition checked without a git is git's own, asked of git itself for each case."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from memtab.sync.engine import maintenance_due
from memtab.sync.repository.git import Git
from support.sync_machines import GIT, Machine, bare_repository

pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed")

G = "/memories/global"


def _git(repository: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(repository), *args],
        input=data,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode()


def _loose_in_17(repository: Path, count: int) -> None:
    """`count` loose objects whose ids begin with 17 (the folder git counts them in)."""
    found: list[bytes] = []
    number = 0
    while len(found) < count:
        data = b"content %d\n" % number
        if hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest().startswith("17"):
            found.append(data)
        number += 1
    for data in found:
        _git(repository, "hash-object", "-w", "--stdin", data=data)


def _packs(repository: Path, count: int, *, kept: int = 0) -> None:
    for number in range(count):
        oid = _git(repository, "hash-object", "-w", "--stdin", data=b"packed %d\n" % number)
        stem = _git(repository, "pack-objects", "-q", str(repository / "objects/pack/pack"),
                    data=oid.encode()).strip()  # fmt: skip
        if number < kept:
            (repository / "objects" / "pack" / f"pack-{stem}.keep").write_text("")
        for name in (repository / "objects").glob(f"{oid[:2]}/{oid[2:].strip()}"):
            name.unlink()  # only in the pack now


def _git_would_gc(repository: Path) -> bool:
    """Whether `git maintenance run --auto` starts a gc in `repository` (git's answer)."""
    traced = subprocess.run(
        ["git", "--git-dir", str(repository), "maintenance", "run", "--auto", "--quiet"],
        capture_output=True,
        env={"GIT_TRACE": "1", "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(repository)},
        check=False,
    )
    return b"run_command: git gc" in traced.stderr


@pytest.mark.parametrize(
    ("settings", "loose", "packs", "kept"),
    [
        ({}, 0, 0, 0),
        ({}, 3, 2, 0),
        ({"gc.auto": "512"}, 2, 0, 0),  # at git's threshold (512 / 256): not past it
        ({"gc.auto": "512"}, 3, 0, 0),
        ({"gc.autoPackLimit": "2"}, 0, 2, 0),
        ({"gc.autoPackLimit": "2"}, 0, 3, 0),
        ({"gc.autoPackLimit": "2"}, 0, 3, 1),  # a kept pack is not counted
        ({"gc.autoPackLimit": "0", "gc.auto": "512"}, 2, 3, 0),
        ({"gc.auto": "0", "gc.autoPackLimit": "1"}, 3, 3, 0),  # 0 turns both off
    ],
)
def test_maintenance_is_due_exactly_when_git_would_find_work(
    tmp_path: Path, settings: dict[str, str], loose: int, packs: int, kept: int
) -> None:
    repository = bare_repository(tmp_path / "repo.git")
    for key, value in settings.items():
        _git(repository, "config", key, value)
    _loose_in_17(repository, loose)
    _packs(repository, packs, kept=kept)
    config = Git(repository).config()

    ours = maintenance_due(repository, config)

    assert ours == _git_would_gc(repository)


def test_a_task_or_a_number_git_reads_its_own_way_is_left_to_git(tmp_path: Path) -> None:
    repository = bare_repository(tmp_path / "repo.git")
    assert not maintenance_due(repository, {})
    assert maintenance_due(repository, {"maintenance.strategy": "incremental"})
    assert maintenance_due(repository, {"maintenance.commit-graph.enabled": "true"})
    assert maintenance_due(repository, {"gc.auto": "1k"})
    assert not maintenance_due(repository, {"maintenance.auto": "false", "gc.auto": "1k"})
    assert not maintenance_due(repository, {"maintenance.autodetach": "false"})


def _maintenances(trace: Path) -> int:
    """How many times git ran its maintenance, in a `GIT_TRACE` file: each is a process."""
    if not trace.exists():
        return 0
    lines = trace.read_text(errors="replace").splitlines()
    return sum("built-in: git maintenance run --auto" in line for line in lines)


def test_a_sync_starts_git_s_maintenance_only_when_it_has_work(
    alpha: Machine, beta: Machine, remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fetch or a commit runs `git maintenance run --auto`, a process that most times finds
    # nothing: a machine joining (its init fetched every object), a fetch that brings a pack,
    # a sync that sends its own commits start none, until the packs pile up past the limit.
    alpha.write(f"{G}/n.md", "note\n")
    alpha.sync()
    gamma = Machine.create(tmp_path, "gamma")
    gamma.connect(remote)
    traces = {name: tmp_path / f"{name}.trace" for name in ("gamma", "beta", "sent", "piled")}
    monkeypatch.setenv("GIT_TRACE", str(traces["gamma"]))
    gamma.sync()
    assert gamma.files() == alpha.files()
    monkeypatch.setenv("GIT_TRACE", str(traces["beta"]))
    beta.sync()  # its fetch brings alpha's commit as a pack
    beta.write(f"{G}/m.md", "more\n")
    monkeypatch.setenv("GIT_TRACE", str(traces["sent"]))
    beta.sync()
    alpha.write(f"{G}/n.md", "note again\n")
    alpha.sync()
    _git(beta.sync_dir / "repo.git", "config", "gc.autoPackLimit", "1")
    monkeypatch.setenv("GIT_TRACE", str(traces["piled"]))
    beta.sync()  # a third pack, past the limit
    monkeypatch.undo()

    assert beta.text(f"{G}/n.md") == "note again\n"
    assert {name: _maintenances(trace) for name, trace in traces.items()} == {
        "gamma": 0,
        "beta": 0,
        "sent": 0,
        "piled": 1,
    }
    packs = list((beta.sync_dir / "repo.git" / "objects" / "pack").glob("*.pack"))
    assert len(packs) == 1  # repacked
