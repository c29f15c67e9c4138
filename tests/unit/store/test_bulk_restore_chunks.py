"""How a bulk import (`store.restore.bulk_restore`) splits into chunks under the scope lock:
by how long publishing takes under it, on a fake clock (the module's `time`)."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.fs.atomic import Directory
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore import bulk_restore
from memtab.store.restore.bulk_restore import CHUNK_HOLD_S, Restore, restore_contents
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath


class _Clock:
    """`time` as bulk_restore sees it: monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.gaps = 0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.gaps += 1
        self.now += seconds


def _slowed(clock: _Clock, monkeypatch: pytest.MonkeyPatch, name: str, seconds: float) -> None:
    """`Directory.<name>` takes `seconds` on the clock."""
    original = getattr(Directory, name)

    def slowly(self: Directory, *args: Any, **kwargs: Any) -> Any:
        clock.now += seconds
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Directory, name, slowly)


@pytest.fixture
def mono(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(bulk_restore, "time", fake)
    return fake


def test_a_batch_goes_in_one_chunk_when_publishing_it_fits_however_slow_its_temps(
    store: MemoryStore, mono: _Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine joining under load: writing its temps (before the lock) was slow, which
    # said nothing of publishing them (a rename each, ~8× quicker); the chunks were sized
    # by the temps, so 1,000 files went in several, each a 30 ms gap, the history index
    # read back and two more fsyncs.
    _slowed(mono, monkeypatch, "write_temp", CHUNK_HOLD_S / 10)
    items = [
        Restore(parse_file_path(f"/memories/global/n{i}.md"), b"%d\n" % i, None) for i in range(100)
    ]
    done = restore_contents(store, Scope.GLOBAL, items)
    monkeypatch.undo()

    assert len(done.written) == 100 and not done.failed and not done.changed
    assert mono.gaps == 0  # one hold of the scope


def test_a_slow_publish_lets_go_of_the_scope_and_every_file_goes_in_once(
    store: MemoryStore, mono: _Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Temps written in no time said publishing would be as quick: a chunk took every file
    # and held the scope (and xum's lock) as long as publishing them took. Now a chunk
    # stops publishing two thirds into its hold and the next goes on from there — in
    # folders that interleave in path order ("a/n…", "a/b/m", "a/o…") too.
    _slowed(mono, monkeypatch, "publish", CHUNK_HOLD_S / 5)
    names = [f"a/n{i}.md" for i in range(6)] + ["a/b/m.md"] + [f"a/o{i}.md" for i in range(6)]
    items = [Restore(parse_file_path(f"/memories/global/{name}"), b"x\n", None) for name in names]
    done = restore_contents(store, Scope.GLOBAL, items)
    monkeypatch.undo()

    assert not done.failed and not done.changed
    assert sorted(str(path) for path in done.written) == sorted(str(i.path) for i in items)
    assert len(done.recorded) == len(items)
    assert mono.gaps >= 3  # 4 files a hold: the lock let go between
    for name in names:
        assert store.read_whole(vpath(f"/memories/global/{name}")) == b"x\n"
    assert list(store.root(Scope.GLOBAL).rglob(".*.tmp")) == []
