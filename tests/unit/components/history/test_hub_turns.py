"""The window's history features without Qt: a recording pass once the scans settle (at most
the longest wait after the first), a batch routed by place, and the History panel away
while another tab shows."""

from __future__ import annotations

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.history.burst_news import (
    BatchRoutes,
    PanelAway,
    RecordingWait,
    batch_routes,
)
from memtab.store.home import PathKind, PathPlace

QUIET, MOST = 1500, 20_000


def batch(*places: PathPlace) -> ChangeBatch:
    return ChangeBatch(tuple(f"/p{i}" for i in range(len(places))), places)


def test_recording_waits_for_quiet_but_never_longer_than_the_longest_wait() -> None:
    wait: RecordingWait[str] = RecordingWait()
    assert wait.scanned("a", 1000, quiet_ms=QUIET, max_wait_ms=MOST) == QUIET
    assert wait.scanned("b", 15_000, quiet_ms=QUIET, max_wait_ms=MOST) == QUIET
    assert wait.scanned("c", 20_000, quiet_ms=QUIET, max_wait_ms=MOST) == 1000
    assert wait.scanned("d", 25_000, quiet_ms=QUIET, max_wait_ms=MOST) == 0
    assert wait.take() == "d"  # the last scan's store
    assert wait.take() is None
    # After a pass the longest wait counts from the next scan.
    assert wait.scanned("e", 40_000, quiet_ms=QUIET, max_wait_ms=MOST) == QUIET


def test_a_history_index_reloads_the_panel_of_its_scope_only() -> None:
    change = batch(PathPlace(PathKind.HISTORY_INDEX, "proj-a"))
    routes = batch_routes(change, panel_index="proj-a", trash_shown=True, runs_shown=True)
    assert routes == BatchRoutes(panel=True, trash=True, news=True)
    other = batch_routes(change, panel_index="proj-b", trash_shown=False, runs_shown=False)
    assert other == BatchRoutes(news=True)
    assert not batch_routes(change, panel_index=None, trash_shown=False, runs_shown=False).panel


def test_the_runs_log_journal_and_recording_state_each_go_their_way() -> None:
    runs = batch(PathPlace(PathKind.RUNS_LOG))
    assert batch_routes(runs, panel_index=None, trash_shown=False, runs_shown=True) == (
        BatchRoutes(runs=True)
    )
    assert batch_routes(runs, panel_index=None, trash_shown=False, runs_shown=False) == (
        BatchRoutes()
    )
    journal = batch(PathPlace(PathKind.CONSOLIDATION_JOURNAL, "ws"))
    assert batch_routes(journal, panel_index=None, trash_shown=False, runs_shown=False) == (
        BatchRoutes(import_runs=True)
    )
    state = batch(PathPlace(PathKind.HISTORY_RECORDING))
    assert batch_routes(state, panel_index=None, trash_shown=False, runs_shown=False) == (
        BatchRoutes(recording=True)
    )
    closing = batch_routes(
        state, panel_index=None, trash_shown=False, runs_shown=False, closing=True
    )
    assert closing == BatchRoutes()


def test_a_storm_of_the_whole_home_goes_everywhere() -> None:
    routes = batch_routes(
        batch(PathPlace(PathKind.HOME)), panel_index="proj-a", trash_shown=True, runs_shown=True
    )
    assert routes == BatchRoutes(
        panel=True, trash=True, news=True, runs=True, import_runs=True, recording=True
    )


def test_the_panel_hides_with_the_memory_tab_and_comes_back_with_it() -> None:
    away = PanelAway()
    assert away.tab_shown(False, visible=True) is False
    assert away.remembered(visible=False)  # still remembered as shown
    assert away.tab_shown(False, visible=False) is None
    assert away.tab_shown(True, visible=False) is True
    assert away.tab_shown(True, visible=True) is None
    assert not away.remembered(visible=False)


def test_a_panel_closed_before_another_tab_shows_stays_closed() -> None:
    away = PanelAway()
    assert away.tab_shown(False, visible=False) is None
    assert away.tab_shown(True, visible=False) is None
