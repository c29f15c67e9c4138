"""Benchmark: sync of a home at xum's size — 1,000 global and 1,000 project files (~2 KB
each) — against `git add` + `git commit` of the same files in a work tree (the floor).

Run: .venv/bin/python -m pytest --bench tests/bench/test_sync_bench.py -s

Targets (issue 35): a first sync ≤ 10 s, one changed file ≤ 2 s, a second machine joining
(every file brought in, recorded in its history) ≤ 10 s; (issue 36) the status bar's
count of what waits to be sent ≤ 2 s (on the sync worker, never the GUI thread). The
floors: `git add -A` + `git commit` of the 2,000 files in a fresh work tree; of one
changed file; a `git clone` of the result (a checkout of every file); `git status`.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from support.sync_machines import Machine, bare_repository

from .table import Row, record

FILES_PER_SCOPE = 1000
PROJECT = "/home/alice/app"


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
