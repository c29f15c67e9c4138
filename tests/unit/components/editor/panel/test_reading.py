"""components.editor.panel: when a tab's page says "Reading…", and what is held while
its text is on its way — without Qt."""

from __future__ import annotations

from memtab.components.editor.panel import READING_SHOWN_AFTER_MS, Held, ReadingPage


def says_reading(page: ReadingPage) -> bool:
    """Whether the page says "Reading…" (asked anew: each call may change it)."""
    return page.page


def test_a_tab_showing_no_text_says_reading_at_once() -> None:
    page = ReadingPage()
    assert page.say("notes.md", "/memories/global/notes.md", has_file=False) is None
    assert (page.title, page.tooltip) == ("notes.md", "/memories/global/notes.md")


def test_the_file_shown_before_stays_until_the_read_is_overdue() -> None:
    page = ReadingPage()
    assert page.say("other.md", "tip", has_file=True) == READING_SHOWN_AFTER_MS
    assert not says_reading(page)
    page.shown()  # overdue
    assert says_reading(page)
    # Said already: a read again (following the disk) says it at once, its new title too.
    assert page.say("renamed.md", "tip 2", has_file=True) is None
    assert page.title == "renamed.md"
    page.ended()  # the text is shown
    assert not says_reading(page)
    assert page.say("next.md", "tip", has_file=True) == READING_SHOWN_AFTER_MS


def test_what_is_held_comes_back_in_order_once_and_only_while_holding() -> None:
    held: Held[str] = Held()
    assert held.add("x") is False  # not holding: it goes where it was sent
    assert held.hold() is True  # starts now: catch the keys
    assert held.add("a") and held.add("b")
    assert held.hold() is False  # read again: what is held stays
    assert held.add("c")
    assert held.release() == (["a", "b", "c"], True)
    assert not held.holding
    assert held.release() == ([], False)  # once


def test_dropping_forgets_what_was_held() -> None:
    held: Held[str] = Held()
    assert held.drop() is False
    held.hold()
    held.add("meant for the file before")
    assert held.drop() is True
    held.hold()
    assert held.release() == ([], True)
