"""A file in sync conflict says so in its tab's bar, without Qt: when a tab shows the bar
(never over a bar asking something else, nor once dismissed) and takes it away, and what
each choice does (Compare and Keep both open Resolve conflicts…, mine and theirs decide)."""

from __future__ import annotations

from memtab.components.editor.session import Situation
from memtab.components.merge import COMPARE, KEEP_BOTH, KEEP_MINE, KEEP_THEIRS
from memtab.components.sync.conflicts import (
    BAR_DECISIONS as DECISIONS,
)
from memtab.components.sync.conflicts import (
    DEFAULT_ACTION,
    PREFIX,
    BarStep,
    Choice,
    bar_actions,
    bar_step,
    choice_of,
    not_resolved_text,
)


def test_the_bar_comes_with_a_conflict_and_never_covers_another_question() -> None:
    assert bar_step(True, Situation.NONE, reading=False, dismissed=False) is BarStep.SHOW
    assert bar_step(True, Situation.NONE, reading=True, dismissed=False) is BarStep.NOTHING
    assert bar_step(True, Situation.NONE, reading=False, dismissed=True) is BarStep.NOTHING
    assert bar_step(True, Situation.SYNC_CONFLICT, reading=False, dismissed=False) is (
        BarStep.NOTHING
    )
    others = [s for s in Situation if s not in (Situation.NONE, Situation.SYNC_CONFLICT)]
    assert others and all(
        bar_step(True, s, reading=False, dismissed=False) is BarStep.NOTHING for s in others
    )


def test_the_bar_goes_with_its_conflict_and_leaves_other_bars_alone() -> None:
    assert bar_step(False, Situation.SYNC_CONFLICT, reading=False, dismissed=False) is (
        BarStep.CLEAR
    )
    others = [s for s in Situation if s is not Situation.SYNC_CONFLICT]
    assert all(bar_step(False, s, reading=False, dismissed=True) is BarStep.NOTHING for s in others)


def test_compare_and_keep_both_open_the_dialog_mine_and_theirs_decide() -> None:
    assert choice_of(COMPARE.id) is Choice.COMPARE
    assert choice_of(KEEP_BOTH.id) is Choice.COMPARE_BOTH
    assert choice_of(KEEP_MINE.id) is Choice.DECIDE
    assert {KEEP_MINE.id: "mine", KEEP_THEIRS.id: "theirs"} == DECISIONS
    actions = bar_actions()
    assert actions[0][0] == DEFAULT_ACTION
    assert all(action.startswith(PREFIX) for action, _words in actions)
    assert not_resolved_text("SyncError: a sync is running") == "Not resolved: a sync is running. "
