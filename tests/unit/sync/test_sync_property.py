"""Random interleavings of edits and syncs on two and three machines lose nothing (a
property test).

Each example starts from fresh homes connected to one fresh bare repository, then runs
up to ten (twelve for three machines) steps: on any machine, a note added at the end of
a file, a line replaced, a file deleted, renamed or (un)pinned, a line added by a program
that is not Memtab (as mux writes), or a sync. Conflicts are left pending while the
steps run (later edits and syncs meet them); at the end every machine resolves its own
keeping both texts and they sync until they agree.

Then: every home holds the same files, nothing waits, pins agree, and every line that was
written and not later replaced or deleted by a step is in a file.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memtab.store.errors import MemoryStoreError
from memtab.sync import export
from support.memory_paths import vpath
from support.property_examples import examples
from support.sync_machines import Machine, bare_repository

FILES = ("a.md", "b.md", "c.md")
NAMES = st.sampled_from(FILES)
TWO = ("alpha", "beta")
THREE = ("alpha", "beta", "gamma")


def _steps(machines: tuple[str, ...]) -> st.SearchStrategy[tuple]:  # type: ignore[type-arg]
    who = st.sampled_from(machines)
    return st.one_of(
        st.tuples(st.just("append"), who, NAMES),
        st.tuples(st.just("replace"), who, NAMES, st.integers(0, 9)),
        st.tuples(st.just("delete"), who, NAMES),
        st.tuples(st.just("rename"), who, NAMES, NAMES),
        st.tuples(st.just("pin"), who, NAMES, st.booleans()),
        st.tuples(st.just("outside"), who, NAMES),
        st.tuples(st.just("sync"), who),
        st.tuples(st.just("sync"), who),
    )


def _path(name: str) -> str:
    return f"/memories/global/{name}"


class World:
    """Machines restored to a fresh, connected state for each example."""

    def __init__(self, root: Path, names: tuple[str, ...]) -> None:
        self.root = root
        self.names = names
        self.live = root / "live"
        self.template = root / "template"
        self.live.mkdir()
        bare_repository(self.live / "remote.git")
        for name in names:
            Machine.create(self.live, name).connect(self.live / "remote.git")
        shutil.copytree(self.live, self.template, symlinks=True)

    def fresh(self) -> dict[str, Machine]:
        shutil.rmtree(self.live)
        shutil.copytree(self.template, self.live, symlinks=True)
        return {name: Machine.create(self.live, name) for name in self.names}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("interleavings"), TWO)


@pytest.fixture(scope="module")
def world_of_three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    # Steps minutes apart, as on real machines: each half of a move is a change of its own.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(export, "_MOVE_WINDOW_MS", -1)
        yield World(tmp_path_factory.mktemp("three"), THREE)


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
            machine.store.delete(vpath(path))
        elif kind == "rename":
            if step[3] != step[2] and machine.text(_path(step[3])) is None:
                machine.store.move(vpath(path), vpath(_path(step[3])))
        elif kind == "pin":
            with contextlib.suppress(MemoryStoreError):
                machine.store.set_pinned(vpath(path), step[3])

    def settle(self) -> None:
        """Resolve every conflict keeping both texts and sync until the machines agree."""
        machines = list(self.machines.values())
        for _round in range(4 + 2 * len(machines)):
            for machine in machines:
                for path in machine.conflicts():
                    machine.resolve(path, keep="both")
                machine.sync()
            if not any(m.conflicts() for m in machines) and all(
                m.files() == machines[0].files() for m in machines
            ):
                return

    def check(self) -> None:
        """Every machine holds the same files and pins, nothing waits, nothing is lost."""
        first, *others = self.machines.values()
        files = first.files()
        for machine in (first, *others):
            assert machine.conflicts() == []
            assert machine.service.status().targets[0].unapplied == ()
            assert machine.files() == files, machine.name
        written = {line for text in files.values() for line in text.splitlines()}
        assert self.live <= written, f"lost: {sorted(self.live - written)}"
        for path in files:
            assert {m.pinned(path) for m in self.machines.values()} in ({True}, {False}), path


def _settings(count: int) -> settings:
    return settings(
        max_examples=examples(count),
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@pytest.mark.slow
@_settings(100)
@given(steps=st.lists(_steps(TWO), max_size=10))
def test_interleaved_edits_and_syncs_lose_nothing(world: World, steps: list[tuple]) -> None:  # type: ignore[type-arg]
    run = Run(world.fresh())
    for step in steps:
        run.step(step)
    run.settle()
    run.check()


@pytest.mark.slow
@_settings(40)
@given(steps=st.lists(_steps(THREE), max_size=12))
@example(  # renamed, then the new name deleted, before a sync (an IndexError once)
    steps=[
        ("append", "gamma", "a.md"),
        ("sync", "gamma"),
        ("rename", "gamma", "a.md", "b.md"),
        ("append", "beta", "c.md"),
        ("delete", "gamma", "b.md"),
        ("sync", "gamma"),
        ("sync", "beta"),
    ]
)
def test_three_machines_converge_and_lose_nothing(
    world_of_three: World,
    steps: list[tuple],  # type: ignore[type-arg]
) -> None:
    run = Run(world_of_three.fresh())
    for step in steps:
        run.step(step)
    run.settle()
    run.check()
