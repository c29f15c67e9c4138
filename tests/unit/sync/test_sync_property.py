"""Random interleavings of edits and syncs on two machines lose nothing (a property test).

Each example starts from two fresh homes connected to one fresh bare repository, then runs
up to ten steps: on either machine, a note added at the end of a file, a line replaced, a
file deleted, renamed or (un)pinned, a line added by a program that is not Memtab (as mux
writes), or a sync. Conflicts are left pending while the steps run (later edits and syncs
meet them); at the end both machines resolve theirs keeping both texts and sync until they
agree.

Then: both homes hold the same files, nothing waits, pins agree, and every line that was
written and not later replaced or deleted by a step is in a file.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.store.errors import MemoryStoreError
from support.sync_machines import Machine, bare_repository

FILES = ("a.md", "b.md", "c.md")
MACHINES = st.sampled_from(("alpha", "beta"))
NAMES = st.sampled_from(FILES)
STEP = st.one_of(
    st.tuples(st.just("append"), MACHINES, NAMES),
    st.tuples(st.just("replace"), MACHINES, NAMES, st.integers(0, 9)),
    st.tuples(st.just("delete"), MACHINES, NAMES),
    st.tuples(st.just("rename"), MACHINES, NAMES, NAMES),
    st.tuples(st.just("pin"), MACHINES, NAMES, st.booleans()),
    st.tuples(st.just("outside"), MACHINES, NAMES),
    st.tuples(st.just("sync"), MACHINES),
    st.tuples(st.just("sync"), MACHINES),
)


def _path(name: str) -> str:
    return f"/memories/global/{name}"


class World:
    """Two machines restored to a fresh, connected state for each example."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.live = root / "live"
        self.template = root / "template"
        self.live.mkdir()
        bare_repository(self.live / "remote.git")
        for name in ("alpha", "beta"):
            Machine.create(self.live, name).connect(self.live / "remote.git")
        shutil.copytree(self.live, self.template, symlinks=True)

    def fresh(self) -> dict[str, Machine]:
        shutil.rmtree(self.live)
        shutil.copytree(self.template, self.live, symlinks=True)
        return {name: Machine.create(self.live, name) for name in ("alpha", "beta")}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("interleavings"))


class Run:
    """The steps of one example and what they leave alive."""

    def __init__(self, machines: dict[str, Machine]) -> None:
        self.machines = machines
        self.live: set[str] = set()
        self.numbers = itertools.count()

    def new_line(self, machine: str) -> str:
        line = f"{machine}-{next(self.numbers)}"
        self.live.add(line)
        return line

    def step(self, step: tuple) -> None:  # type: ignore[type-arg]
        kind, who = step[0], step[1]
        machine = self.machines[who]
        if kind == "sync":
            machine.sync()
            return
        path = _path(step[2])
        text = machine.text(path)
        if kind == "append":
            machine.write(path, (text or "") + self.new_line(who) + "\n")
        elif kind == "outside":
            physical = machine.home.global_root / step[2]
            physical.parent.mkdir(parents=True, exist_ok=True)
            with physical.open("a", encoding="utf-8") as file:
                file.write(self.new_line(who) + "\n")
        elif text is None:
            return
        elif kind == "replace":
            lines = text.splitlines()
            if lines:
                index = step[3] % len(lines)
                self.live.discard(lines[index])
                lines[index] = self.new_line(who)
                machine.write(path, "\n".join(lines) + "\n")
        elif kind == "delete":
            self.live.difference_update(text.splitlines())
            machine.store.delete(path)
        elif kind == "rename":
            if step[3] != step[2] and machine.text(_path(step[3])) is None:
                machine.store.move(path, _path(step[3]))
        elif kind == "pin":
            with contextlib.suppress(MemoryStoreError):
                machine.store.set_pinned(path, step[3])

    def settle(self) -> None:
        """Resolve every conflict keeping both texts and sync until the machines agree."""
        alpha, beta = self.machines["alpha"], self.machines["beta"]
        for _round in range(6):
            for machine in (alpha, beta):
                for path in machine.conflicts():
                    machine.resolve(path, keep="both")
                machine.sync()
            if not (alpha.conflicts() or beta.conflicts()) and alpha.files() == beta.files():
                return


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, max_size=10))
def test_interleaved_edits_and_syncs_lose_nothing(world: World, steps: list[tuple]) -> None:  # type: ignore[type-arg]
    run = Run(world.fresh())
    for step in steps:
        run.step(step)
    run.settle()
    alpha, beta = run.machines["alpha"], run.machines["beta"]
    assert alpha.conflicts() == beta.conflicts() == []
    for machine in (alpha, beta):
        assert machine.service.status().targets[0].unapplied == ()
    files = alpha.files()
    assert files == beta.files()
    written = {line for text in files.values() for line in text.splitlines()}
    assert run.live <= written, f"lost: {sorted(run.live - written)}"
    for path in files:
        assert alpha.pinned(path) == beta.pinned(path), path
