"""components.editor.leaving: closing tabs and leaving with unsaved changes, without Qt —
one question for all, Save goes on only once every one is written, Cancel does nothing."""

from __future__ import annotations

from collections.abc import Callable

from memtab.components.editor.leaving import (
    LISTED_NAMES,
    DiscardChoice,
    Leaving,
    save_label,
    unsaved_question,
)


class Tab:
    """A tab whose save is answered when the test says (`land`)."""

    def __init__(self, title: str, *, dirty: bool = True) -> None:
        self.title = title
        self.is_dirty = dirty
        self.saving: list[Callable[[bool], None] | None] = []

    def save(self, then: Callable[[bool], None] | None = None) -> None:
        self.saving.append(then)

    def land(self, ok: bool) -> None:
        then = self.saving.pop(0)
        if ok:
            self.is_dirty = False
        if then is not None:
            then(ok)


class Panel:
    """The open tabs, the one shown, and the questions asked (answered by the test)."""

    def __init__(self, *tabs: Tab) -> None:
        self.tabs = list(tabs)
        self.current: Tab | None = tabs[0] if tabs else None
        self.asked: list[list[str]] = []
        self.answers: list[Callable[[DiscardChoice], None]] = []
        self.went_on = 0
        self.leaving = Leaving[Tab](
            lambda tab: tab in self.tabs, lambda: self.current, self.show, self.close, self.ask
        )

    def show(self, tab: Tab) -> None:
        self.current = tab

    def close(self, tab: Tab) -> None:
        self.tabs.remove(tab)

    def ask(self, names: list[str], answer: Callable[[DiscardChoice], None]) -> None:
        self.asked.append(names)
        self.answers.append(answer)

    def answer(self, choice: DiscardChoice) -> None:
        self.answers.pop(0)(choice)

    def go_on(self) -> None:
        self.went_on += 1


def test_a_tab_without_unsaved_changes_closes_without_a_question() -> None:
    clean = Tab("a.md", dirty=False)
    panel = Panel(clean)
    panel.leaving.close_asking(clean)
    assert panel.tabs == [] and panel.asked == []


def test_closing_a_dirty_tab_asks_and_save_closes_it_once_written() -> None:
    first, dirty = Tab("a.md", dirty=False), Tab("b.md")
    panel = Panel(first, dirty)
    panel.leaving.close_asking(dirty)
    assert panel.asked == [["b.md"]] and panel.current is dirty, "shown while asked"
    panel.answer(DiscardChoice.SAVE)
    assert panel.tabs == [first, dirty], "not before it is written"
    dirty.land(True)
    assert panel.tabs == [first]


def test_a_save_that_fails_keeps_the_tab_open_and_shown() -> None:
    dirty, other = Tab("a.md"), Tab("b.md", dirty=False)
    panel = Panel(dirty, other)
    panel.leaving.close_asking(dirty)
    panel.answer(DiscardChoice.SAVE)
    panel.current = other
    dirty.land(False)
    assert panel.tabs == [dirty, other] and panel.current is dirty


def test_discard_closes_cancel_keeps_and_a_tab_closed_meanwhile_is_left_alone() -> None:
    a, b = Tab("a.md"), Tab("b.md")
    panel = Panel(a, b)
    panel.leaving.close_asking(a)
    panel.answer(DiscardChoice.CANCEL)
    assert panel.tabs == [a, b]
    panel.leaving.close_asking(a)
    panel.answer(DiscardChoice.DISCARD)
    assert panel.tabs == [b]
    panel.leaving.close_asking(b)
    panel.close(b)  # closed while the question was open
    panel.answer(DiscardChoice.SAVE)
    assert b.saving == []


def test_leaving_asks_once_for_every_dirty_tab_and_goes_on_once_all_are_written() -> None:
    clean, a, b = Tab("clean.md", dirty=False), Tab("a.md"), Tab("b.md")
    panel = Panel(clean, a, b)
    panel.leaving.leave(panel.go_on, panel.tabs)
    assert panel.asked == [["a.md", "b.md"]] and panel.current is a, "a dirty one shown"
    panel.answer(DiscardChoice.SAVE)
    a.land(True)
    assert panel.went_on == 0
    b.land(True)
    assert panel.went_on == 1


def test_leaving_goes_nowhere_when_a_save_fails_and_shows_that_tab() -> None:
    a, b = Tab("a.md"), Tab("b.md")
    panel = Panel(a, b)
    panel.leaving.leave(panel.go_on, panel.tabs)
    panel.answer(DiscardChoice.SAVE)
    b.land(False)
    a.land(True)
    assert panel.went_on == 0 and panel.current is b


def test_leaving_without_unsaved_changes_goes_on_at_once_and_cancel_never() -> None:
    panel = Panel(Tab("a.md", dirty=False))
    panel.leaving.leave(panel.go_on, panel.tabs)
    assert panel.went_on == 1 and panel.asked == []
    dirty = Panel(Tab("b.md"))
    dirty.leaving.leave(dirty.go_on, dirty.tabs)
    dirty.answer(DiscardChoice.CANCEL)
    assert dirty.went_on == 0
    dirty.leaving.leave(dirty.go_on, dirty.tabs)
    dirty.answer(DiscardChoice.DISCARD)
    assert dirty.went_on == 1


def test_the_question_names_the_files_up_to_eight() -> None:
    assert unsaved_question(["notes.md"]) == (
        "Save the changes to notes.md?",
        "Your changes are lost if you don't save them.",
    )
    assert save_label(["a.md"]) == "&Save"
    names = [f"file{n}.md" for n in range(LISTED_NAMES + 2)]
    question, detail = unsaved_question(names)
    assert question == f"Save the changes to {LISTED_NAMES + 2} files?"
    assert detail.splitlines()[:2] == ["• file0.md", "• file1.md"]
    assert detail.splitlines()[LISTED_NAMES] == "… and 2 more"
    assert save_label(names) == "&Save all"
    assert len(unsaved_question(names[:LISTED_NAMES])[1].splitlines()) == LISTED_NAMES + 2
