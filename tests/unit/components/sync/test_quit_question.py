"""Quitting with changes sync has not sent, without Qt: each turn of the question — a look
first, close when nothing waits, ask when something does, a sync that sends it closes the
open question, Sync now that could not send asks again saying why, and closing again while
it syncs quits at once."""

from __future__ import annotations

from memtab.components.sync.status import (
    QuitQuestion,
    QuitStep,
    SyncLook,
    UnsentChoice,
    unsent_question,
    why_not_sent,
)

SET_UP = ("origin",)
WAITING = SyncLook(targets=SET_UP, to_send=("/memories/notes.md",))
NOTHING_WAITS = SyncLook(targets=SET_UP)


def test_nothing_waiting_closes_after_one_look() -> None:
    question = QuitQuestion()
    assert question.ask(lambda: None) is QuitStep.LOOK
    assert question.sync_changed(NOTHING_WAITS, busy=True).step is QuitStep.NOTHING
    assert question.sync_changed(NOTHING_WAITS, busy=False).step is QuitStep.CLOSE
    then = question.take_then()
    assert then is not None and question.take_then() is None


def test_a_change_waiting_is_asked_about_and_cancel_keeps_the_window() -> None:
    question = QuitQuestion()
    question.ask(lambda: None)
    action = question.sync_changed(WAITING, busy=False)
    assert action.step is QuitStep.ASK and action.text == "1 change not sent yet"
    assert question.asking
    assert question.answered(UnsentChoice.CANCEL) is QuitStep.NOTHING
    assert question.take_then() is None and not question.asking
    assert question.ask(lambda: None) is QuitStep.LOOK  # closing again looks again


def test_a_sync_that_sends_it_meanwhile_closes_the_question_and_the_window() -> None:
    question = QuitQuestion()
    question.ask(lambda: None)
    question.sync_changed(WAITING, busy=False)
    assert question.sync_changed(NOTHING_WAITS, busy=False).step is QuitStep.DISMISS_AND_CLOSE
    assert not question.asking


def test_sync_now_that_cannot_send_asks_again_saying_why() -> None:
    question = QuitQuestion()
    question.ask(lambda: None)
    question.sync_changed(WAITING, busy=False)
    assert question.answered(UnsentChoice.SYNC) is QuitStep.SYNC
    failed = SyncLook(targets=SET_UP, to_send=WAITING.to_send, error="git is missing")
    assert question.sync_finished(failed) is QuitStep.LOOK
    action = question.sync_changed(failed, busy=False)
    assert action.step is QuitStep.ASK
    assert action.detail.startswith("The sync could not send it: git is missing\n\n")


def test_sync_now_that_sends_it_closes_and_closing_again_while_it_syncs_quits() -> None:
    question = QuitQuestion()
    question.ask(lambda: None)
    question.sync_changed(WAITING, busy=False)
    question.answered(UnsentChoice.SYNC)
    assert question.sync_finished(NOTHING_WAITS) is QuitStep.CLOSE
    again = QuitQuestion()
    again.ask(lambda: None)
    again.sync_changed(WAITING, busy=False)
    again.answered(UnsentChoice.SYNC)
    assert again.ask(lambda: None) is QuitStep.CLOSE
    assert again.sync_finished(NOTHING_WAITS) is QuitStep.NOTHING


def test_the_question_names_three_files_and_counts_the_rest() -> None:
    look = SyncLook(targets=SET_UP, to_send=tuple(f"/memories/n{i}.md" for i in range(5)))
    text, detail = unsent_question(look)
    assert text == "5 changes not sent yet"
    assert detail.startswith("n0.md, n1.md, n2.md and 2 more changed here, and no sync has")
    assert why_not_sent(None) == "the sync was stopped"
    assert why_not_sent(NOTHING_WAITS) == "it is still waiting"
