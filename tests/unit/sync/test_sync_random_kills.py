"""Syncs killed at random points, each in a process of its own: the next one finishes or
rolls back, and nothing is lost (split from test_sync_kills.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


def _sync_killed_at(machine: Machine, step: int) -> int | None:
    """A sync of `machine` in a process of its own that kills itself at its `step`th
    step (`support.sync_kill`); how many steps it took when it finished."""
    tests = str(Path(__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    child = subprocess.run(
        [sys.executable, "-m", "support.sync_kill", str(machine.home.root), str(step)],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    if child.returncode == -signal.SIGKILL:
        return None
    assert child.returncode == 0, child.stderr.decode()
    return int(child.stdout.split()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_syncs_killed_at_random_points_lose_nothing(
    alpha: Machine, beta: Machine, seed: int
) -> None:
    # Each round both machines add notes and edit one shared file; alpha's sync is
    # killed at a random step; a sync then finishes it. In the end both have every line
    # either wrote.
    chance = random.Random(seed)
    alpha.publish(NOTES, "shared\n", beta)
    steps = None
    expected: set[str] = {"shared"}
    for number in range(6):
        for name, machine in (("a", alpha), ("b", beta)):
            for index in range(5):
                line = f"{name}{number}-{index}"
                machine.write(f"/memories/global/{line}.md", line + "\n")
                expected.add(line)
        beta.write(NOTES, (beta.text(NOTES) or "") + f"b{number}\n")
        alpha.write(NOTES, f"a{number}\n" + (alpha.text(NOTES) or ""))
        expected |= {f"a{number}", f"b{number}"}
        beta.sync()
        if steps is None:
            steps = _sync_killed_at(alpha, 0)  # how many steps a whole sync takes here
            continue
        _sync_killed_at(alpha, chance.randint(1, steps))
        assert alpha.sync().targets[0].status == "synced"
        assert sorted(p.name for p in alpha.sync_dir.iterdir()) == ["repo.git", "state.json"]
    beta.sync()
    alpha.sync()
    lines = {line for text in alpha.files().values() for line in text.splitlines()}
    assert lines == expected
    assert beta.files() == alpha.files()
