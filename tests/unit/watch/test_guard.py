"""The guard (docs/formats.md §14.5): a consolidator that deletes or rewrites most of a
memory in one run — 745 of 931 files — is a mass change, listed by `memtab events --mass`
and put back whole as one event that one undo takes back; the edits of a normal session
(a person's, an agent's, a "save all", a consolidation that tidies a few files) are not."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.files.undo import UndoStack, restore_event, undo_step
from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import change_events
from memtab.watch.guard import MASS_MIN_FILES, is_mass, mass_changes

START_MS = 1_767_225_600_000
FILES = 931


class FakeClock:
    """The clock history's recording reads: moved by the test."""

    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        return self.now

    def tick(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(external, "now_ms", fake)
    yield fake


def _as(actor: str):  # type: ignore[no-untyped-def]
    def actor_of(_scope: Scope, _paths: Sequence[str]) -> str:
        return actor

    return actor_of


def _memory(tmp_path: Path, clock: FakeClock, count: int = FILES) -> tuple[MemoryStore, Path]:
    """A global memory of `count` notes, recorded as seen."""
    store = MemoryStore(Home(tmp_path / "home"), None)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    for index in range(count):
        (root / f"note{index:04d}.md").write_text(f"# Note {index}\n\nfact {index}\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,))
    clock.tick(60_000)
    return store, root


def _texts(root: Path) -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in sorted(root.glob("*.md"))}


@pytest.mark.slow  # slow: 745 files restored, then turned back, each recorded (~10-30 s)
def test_745_of_931_deleted_or_rewritten_in_one_run_is_a_mass_change_restored_whole(
    tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    store, root = _memory(tmp_path, clock)
    before = _texts(root)
    notes = sorted(root.glob("*.md"))
    for path in notes[:400]:  # xum's dream deletes 400 notes and rewrites 345
        path.unlink()
    for index, path in enumerate(notes[400:745]):
        path.write_text(f"# Merged {index}\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,), actor_of=_as("mux"))
    after = _texts(root)

    (change,) = mass_changes(store.home)
    assert (change.changed, change.files_before) == (745, FILES)
    assert (change.event.deleted, change.event.rewritten) == (400, 345)
    assert change.words().startswith("mux removed 400 and rewrote 345 of 931 files at ")

    main(["events", "--home", str(store.home.root), "--mass", "--json", "--days", "0"])
    (listed,) = json.loads(capsys.readouterr().out)["events"]
    assert list(listed) == [  # a stable contract: fields are only added
        "id", "at", "actor", "index", "deleted", "rewritten", "paths", "words", "restored",
        "restoredAt", "filesBefore", "mass", "indexes",
    ]  # fmt: skip
    assert listed["id"] == change.id and listed["mass"] is True
    assert (listed["filesBefore"], listed["deleted"], listed["rewritten"]) == (FILES, 400, 345)
    assert listed["index"] == "global" and listed["indexes"] == ["global"]

    stack = UndoStack()
    restored, said = restore_event(stack, store.home, change.event)
    assert len(restored.restored) == 745 and restored.left == ()
    assert said.ok and said.message.startswith("Restored 745 files of mux removed 400")
    assert _texts(root) == before  # every file as it was before the run
    assert len(stack) == 1  # one step

    undone = undo_step(store.home, stack.pop())  # type: ignore[arg-type]
    assert undone.ok and undone.message.endswith("745 files turned back"), undone.message
    assert _texts(root) == after  # as the run left it: the restore taken back whole


def test_a_normal_session_is_not_flagged(tmp_path: Path, clock: FakeClock) -> None:
    store, root = _memory(tmp_path, clock)
    notes = sorted(root.glob("*.md"))
    for path in notes[:12]:  # the user edits notes one after another
        path.write_text(path.read_text("utf-8") + "- one more line\n", "utf-8")
        record_external(store, scopes=(Scope.GLOBAL,))
        clock.tick(20_000)
    for path in notes[20:24]:  # an agent's session writes four notes at once
        path.write_text("# rewritten by the agent\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,), actor_of=_as("claude-code"))
    clock.tick(30_000)
    for path in notes[30:39]:  # an editor's "save all" of nine open notes
        path.write_text(path.read_text("utf-8") + "\n", "utf-8")
    record_external(store, scopes=(Scope.GLOBAL,))
    clock.tick(30_000)
    for path in notes[100:130]:  # a consolidation tidies 30 of 931 notes
        path.unlink()
    record_external(store, scopes=(Scope.GLOBAL,), actor_of=_as("mux"))

    assert len(change_events(store.home, min_files=2)) == 3  # bursts, each listed as one
    assert mass_changes(store.home) == []


def test_most_of_a_small_memory_at_once_is_a_mass_change(tmp_path: Path, clock: FakeClock) -> None:
    store, root = _memory(tmp_path, clock, count=14)
    for path in sorted(root.glob("*.md"))[:MASS_MIN_FILES]:
        path.unlink()
    record_external(store, scopes=(Scope.GLOBAL,), actor_of=_as("codex"))
    (change,) = mass_changes(store.home)
    assert (change.changed, change.files_before) == (MASS_MIN_FILES, 14)


@pytest.mark.parametrize(
    ("changed", "before", "mass"),
    [(9, 9, False), (10, 40, True), (10, 41, False), (99, 1000, False), (100, 100_000, True)],
)
def test_the_threshold(changed: int, before: int, mass: bool) -> None:
    assert is_mass(changed, before) is mass
