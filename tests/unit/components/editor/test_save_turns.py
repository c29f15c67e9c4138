"""components.editor.document: the open document's saves take turns, without Qt."""

from __future__ import annotations

from memtab.components.editor.document import SaveTurns, tell_all


def test_one_save_at_a_time_the_others_wait_for_it() -> None:
    turns, told = SaveTurns(), list[tuple[str, bool]]()
    assert not turns.busy
    assert turns.ask(lambda saved: told.append(("first", saved)))
    assert turns.busy
    assert not turns.ask(lambda saved: told.append(("second", saved)))
    assert not turns.ask(None)
    first, later = turns.landed()
    assert not turns.busy and len(later) == 2
    assert first is not None
    first(True)
    tell_all(later, False)
    assert told == [("first", True), ("second", False)]
    assert turns.ask(None), "the next save starts at once"


def test_the_saves_asked_meanwhile_are_one_more_save_only_when_there_is_more_to_write() -> None:
    later = (None,)
    assert SaveTurns.again(later, saved=True, dirty=True)
    assert not SaveTurns.again(later, saved=False, dirty=True), "not written: told at once"
    assert not SaveTurns.again(later, saved=True, dirty=False), "nothing more to write"
    assert not SaveTurns.again((), saved=True, dirty=True)


def test_following_the_disk_waits_for_the_save_on_its_way_then_happens_once() -> None:
    turns = SaveTurns()
    assert not turns.follow_later(), "no save on its way: follow now"
    turns.ask(None)
    assert turns.follow_later()
    assert not turns.follow_due(), "the save has not landed"
    turns.landed()
    turns.ask(None)  # one more save, from what was written
    assert not turns.follow_due(), "still a save on its way"
    turns.landed()
    assert turns.follow_due()
    assert not turns.follow_due(), "once"
