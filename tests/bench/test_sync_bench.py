"""Benchmark: sync of a home at xum's size — 1,000 global and 1,000 project files (~2 KB
each) — against `git add` + `git commit` of the same files in a work tree (the floor).

Run: .venv/bin/python -m pytest --bench tests/bench/test_sync_bench.py -s

Targets (issue 35): a first sync ≤ 10 s, one changed file ≤ 2 s, a second machine joining
(every file brought in, recorded in its history) ≤ 10 s; (issue 36) the status bar's
count of what waits to be sent ≤ 2 s (on the sync worker, never the GUI thread). The
floors: `git add -A` + `git commit` of the 2,000 files in a fresh work tree; of one
changed file; a `git clone` of the result (a checkout of every file); `git status`.

Issue 54 ("sync as quick as git", `test_sync_is_as_quick_as_git`): 1,000 global files;
a sync of one changed file ≤ 3× git's own `add` + `commit` + `push` of one file in a clone
of the same remote, a second machine joining (`sync init` and its first sync: every file
brought in, recorded in its history, made durable) ≤ 1.5× `git clone` of that remote;
(issue 73) that join ≤ 1.5× a durable clone, `git clone` then `sync -f` of it (git makes
nothing durable, a join must).
Each run is paired with a run of its floor right after it, and the ratio is the median
of the pairs' (the machine's speed drifts less within a pair).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from support.sync_machines import Machine, bare_repository

from .table import Row, record

FILES_PER_SCOPE = 1000
PROJECT = "/home/alice/app"
ROUNDS = 7


def _seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _git(work: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(work), *args], check=True, capture_output=True)


def _row(key: str, measure: str, seconds: float, floor: float, target: float) -> None:
    record(
        key,
        Row(measure, f"{seconds:.2f} s", f"≤ {target:.0f} s", f"{floor:.2f} s", seconds / floor),
    )


@pytest.mark.bench
def test_sync_scales_with_the_change(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    remote = bare_repository(tmp_path / "remote.git")
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote, "global", f"project:{PROJECT}")
    alpha.fill(FILES_PER_SCOPE, project=PROJECT)

    # The floor: the same files in a work tree, committed by git alone.
    work = tmp_path / "work"
    shutil.copytree(alpha.home.global_root, work / "global")
    shutil.copytree(alpha.project_root(PROJECT), work / "projects" / "app")
    _git(work, "init", "--quiet")
    _git(work, "config", "user.name", "Bench")
    _git(work, "config", "user.email", "bench@example.com")
    floor_first = _seconds(lambda: (_git(work, "add", "-A"), _git(work, "commit", "-qm", "x")))
    (work / "global" / "note-0001.md").write_text("changed\n")
    floor_change = _seconds(lambda: (_git(work, "add", "-A"), _git(work, "commit", "-qm", "y")))
    floor_join = _seconds(lambda: _git(tmp_path, "clone", "--quiet", str(work), "clone"))

    first = _seconds(alpha.sync)
    alpha.write("/memories/global/note-0001.md", "changed\n")
    change = _seconds(alpha.sync)
    beta = Machine.create(tmp_path, "beta")
    beta.connect(remote, "global", "project:/home/bob/app=app")
    join = _seconds(beta.sync)
    assert beta.files() == alpha.files()

    _row("sync-first", "first sync of 2,000 files", first, floor_first, 10)
    _row("sync-change", "a sync of one changed file (2,000 files)", change, floor_change, 2)
    _row("sync-join", "a second machine joining (2,000 files)", join, floor_join, 10)

    # The window's "↑1": a status without the network after an edit (its floor: `git
    # status` of the work tree, which stats the files where status reads and hashes them).
    alpha.write("/memories/global/note-0002.md", "changed again\n")
    look = _seconds(lambda: alpha.service.status())
    assert alpha.service.status().targets[0].to_send == ("/memories/global/note-0002.md",)
    floor_look = _seconds(lambda: _git(work, "status", "--porcelain"))
    _row("sync-look", "what waits to be sent, counted (2,000 files)", look, floor_look, 2)


def _paired(
    key: str, measure: str, pairs: list[tuple[float, float]], floor: str, target: str
) -> None:
    ratio = statistics.median(ours / theirs for ours, theirs in pairs)
    ours = statistics.median(ours for ours, _ in pairs)
    theirs = statistics.median(theirs for _, theirs in pairs)
    print(
        f"\n{measure}: "
        + " / ".join(f"{o * 1000:.0f} ms ({o / t:.2f}×)" for o, t in pairs)
        + f"; {floor}: "
        + " / ".join(f"{t * 1000:.0f} ms" for _, t in pairs)
    )
    record(
        key,
        Row(measure, f"{ours * 1000:.0f} ms", target, f"{floor}: {theirs * 1000:.0f} ms", ratio),
    )


@pytest.mark.bench
def test_sync_is_as_quick_as_git(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    remote = bare_repository(tmp_path / "remote.git")
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote, "global")
    alpha.fill(FILES_PER_SCOPE)
    alpha.sync()
    work = tmp_path / "work"
    _git(tmp_path, "clone", "--quiet", "--branch", "main", str(remote), str(work))
    _git(work, "config", "user.name", "Bench")
    _git(work, "config", "user.email", "bench@example.com")

    changes: list[tuple[float, float]] = []
    for number in range(ROUNDS + 1):
        alpha.write("/memories/global/note-0001.md", f"changed here {number}\n")
        ours = _seconds(alpha.sync)
        _git(work, "pull", "--quiet", "--ff-only")
        (work / "global" / "note-0002.md").write_text(f"changed by git {number}\n")
        theirs = _seconds(
            lambda: (
                _git(work, "add", "-A"),
                _git(work, "commit", "--quiet", "-m", "one file"),
                _git(work, "push", "--quiet"),
            )
        )
        alpha.sync()  # git's commit brought in, so the next sync is of one file again
        if number:  # the first pair warms both up
            changes.append((ours, theirs))

    joins: list[tuple[float, float]] = []
    first_syncs: list[tuple[float, float]] = []
    durable_joins: list[tuple[float, float]] = []
    for number in range(ROUNDS):
        machine = Machine.create(tmp_path, f"joining-{number}")
        began = time.perf_counter()
        machine.connect(remote, "global")
        set_up = time.perf_counter()
        machine.sync()
        ended = time.perf_counter()
        clone = tmp_path / f"clone-{number}"
        theirs = _seconds(
            lambda: _git(tmp_path, "clone", "--quiet", "--branch", "main", str(remote), str(clone))  # noqa: B023
        )
        # git makes nothing durable; a join must: the clone's files flushed (`sync -f`).
        flushed = _seconds(lambda: subprocess.run(["sync", "-f", str(clone)], check=True))  # noqa: B023
        joins.append((ended - began, theirs))
        first_syncs.append((ended - set_up, theirs))
        durable_joins.append((ended - set_up, theirs + flushed))
    assert machine.files() == alpha.files()

    _paired(
        "sync-one-of-1000",
        "a sync of one changed file (1,000 global files)",
        changes,
        "git add + commit + push",
        "≤ 3× the floor",
    )
    _paired(
        "sync-join-1000",
        "a second machine joining: its first sync after sync init (1,000 files)",
        first_syncs,
        "git clone",
        "≤ 1.5× the floor",
    )
    _paired(
        "sync-durable-join-1000",
        "a second machine joining, against a durable clone (1,000 files)",
        durable_joins,
        "git clone + sync -f",
        "≤ 1.5× the floor",
    )
    _paired(
        "sync-init-join-1000",
        "a second machine joining: sync init + first sync (1,000 files)",
        joins,
        "git clone",
        "—",
    )
