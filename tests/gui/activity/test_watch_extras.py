"""HomeWatcher's extra directories (other agents' memory outside the home): a directory
watched anew while watching is reported at once — what was written in it before its watch
began is unknown — and followed from then on; those of the first hand-over are not (they
come with the first listing of every source)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from memtab.gui.activity import watch
from memtab.gui.activity.watch import HomeWatcher

WAIT_MS = 15_000  # only bounds a broken run: real watchers at load 14 took over 5 s
BACKENDS = ["native", "polling"]


class Batches:
    def __init__(self, watcher: HomeWatcher) -> None:
        self.batches: list[list[str]] = []
        watcher.paths_changed.connect(self.batches.append)

    @property
    def union(self) -> set[str]:
        return {path for batch in self.batches for path in batch}


@pytest.fixture
def watcher(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[HomeWatcher]:
    (tmp_path / "home" / "memory" / "global").mkdir(parents=True)
    made = HomeWatcher(
        use_polling=request.param == "polling",
        polling_interval_s=0.05,
        debounce_ms=50,
        max_latency_ms=300,
    )
    made.start(tmp_path / "home")
    yield made
    made.stop()


@pytest.mark.parametrize("watcher", BACKENDS, indirect=True)
def test_a_directory_watched_anew_is_reported_then_followed(
    qtbot: QtBot, watcher: HomeWatcher, tmp_path: Path
) -> None:
    batches = Batches(watcher)
    claude = tmp_path / "claude-memory"
    claude.mkdir()
    (claude / "old.md").write_text("x\n")
    watcher.set_extra_targets([(str(claude), True)])  # the first hand-over, with the listing
    marker = tmp_path / "home" / "memory" / "global" / "marker.md"
    marker.write_text("x\n")
    qtbot.waitUntil(lambda: str(marker) in batches.union, timeout=WAIT_MS)
    assert str(claude) not in batches.union

    # Gemini CLI's first extraction: its folder, with a note and a patch written at once.
    gemini = tmp_path / "gemini" / "memory"
    (gemini / ".inbox" / "private").mkdir(parents=True)
    (gemini / "MEMORY.md").write_text("# Project Memory\n")
    (gemini / ".inbox" / "private" / "extraction.patch").write_text("--- a\n")
    watcher.set_extra_targets([(str(claude), True), (str(gemini), True)])
    qtbot.waitUntil(lambda: str(gemini) in batches.union, timeout=WAIT_MS)
    assert str(claude) not in batches.union  # kept: its watch never stopped

    later = gemini / "later.md"
    later.write_text("x\n")
    kept = claude / "new.md"
    kept.write_text("x\n")
    qtbot.waitUntil(lambda: {str(later), str(kept)} <= batches.union, timeout=WAIT_MS)

    watcher.set_extra_targets([(str(gemini), True)])  # Claude Code's folder no longer wanted
    (claude / "unwatched.md").write_text("x\n")
    last = gemini / "last.md"
    last.write_text("x\n")
    qtbot.waitUntil(lambda: str(last) in batches.union, timeout=WAIT_MS)
    assert str(claude / "unwatched.md") not in batches.union


@pytest.mark.parametrize("watcher", BACKENDS, indirect=True)
def test_a_directory_removed_and_made_again_is_watched_anew_and_the_watcher_keeps_going(
    qtbot: QtBot, watcher: HomeWatcher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its watch ends with it: no failure of the watcher (the native one not replaced),
    # and the folder made at its path again — before the sources are listed anew, so the
    # targets never change — is watched anew and reported.
    monkeypatch.setattr(watch, "_HEALTH_CHECK_MS", 50)
    watcher.start(tmp_path / "home")  # again, for the health check's new period
    backend = watcher.backend
    batches = Batches(watcher)
    project = tmp_path / "gemini" / "tmp" / "acme-api"
    memory = project / "memory"
    memory.mkdir(parents=True)
    watcher.set_extra_targets([(str(project), False), (str(memory), True)])
    shutil.rmtree(memory)
    qtbot.waitUntil(lambda: str(memory) in batches.union, timeout=WAIT_MS)
    batches.batches.clear()
    # Gemini CLI's next extraction makes it again, a patch in it at once.
    (memory / ".inbox" / "private").mkdir(parents=True)
    (memory / ".inbox" / "private" / "extraction.patch").write_text("--- a\n")
    qtbot.waitUntil(lambda: str(memory) in batches.union, timeout=WAIT_MS)  # watched anew
    later = memory / "later.md"
    later.write_text("x\n")
    qtbot.waitUntil(lambda: str(later) in batches.union, timeout=WAIT_MS)
    # The health checks (every 50 ms) passed over the ended watch: the native watcher
    # still runs — a fallback to polling would have logged a warning, failing the test.
    assert watcher.backend is backend
