"""The editor reads its files on the window's file channel, never on the GUI thread: a
file opens at once, its text follows (a slow read says "Reading…"), and what the user
types or asks for meanwhile is neither lost nor applied to the wrong text."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import (
    NOTES,
    ORIGINAL,
    OTHER,
    disk_text,
    ref,
    settle,
    show_and_focus,
    write_disk,
)
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.panel import READING, READING_SHOWN_AFTER_MS
from memtab.components.editor.session import FileState
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.store.scopes.memory import MemoryStore
from support.gui_clock import FakeGuiClock
from support.gui_thread_io import GuiThreadIo

store = editor_support.store
own_writes = editor_support.own_writes


@pytest.fixture
def context(store: MemoryStore, own_writes: OwnWrites) -> Iterator[WindowContext]:
    window_context = WindowContext(store.home, own_writes=own_writes)
    yield window_context
    window_context.shutdown()


def _editor_panel(
    qtbot: QtBot, store: MemoryStore, context: WindowContext, clock: GuiClock = QT_CLOCK
) -> Iterator[EditorPanel]:
    editor = EditorPanel(context, clock=clock)
    context.owned_by(editor)  # the panel is the window here
    context.actions.attach(editor)
    qtbot.addWidget(editor)
    editor.resize(900, 600)
    editor.set_store(store)
    yield editor
    editor.shutdown()


@pytest.fixture
def panel(qtbot: QtBot, store: MemoryStore, context: WindowContext) -> Iterator[EditorPanel]:
    yield from _editor_panel(qtbot, store, context)


@pytest.fixture
def clock() -> FakeGuiClock:
    return FakeGuiClock()


@pytest.fixture
def clocked_panel(
    qtbot: QtBot, store: MemoryStore, context: WindowContext, clock: FakeGuiClock
) -> Iterator[EditorPanel]:
    """A panel whose "Reading…" delay runs on `clock`."""
    yield from _editor_panel(qtbot, store, context, clock)


def busy_disk(context: WindowContext) -> threading.Event:
    """Make the files lane busy (a save waiting for a lock, say) until the event is set."""
    gate = threading.Event()

    def busy(_ctx: JobContext) -> None:
        assert gate.wait(10), "the test never let the disk go on"

    context.files.write(busy)
    return gate


@pytest.fixture
def slow_disk(context: WindowContext) -> Iterator[threading.Event]:
    """The files lane is busy (a save waiting for a lock, say) until the event is set:
    every read asked meanwhile waits behind it."""
    gate = busy_disk(context)
    yield gate
    gate.set()


def in_body(typed: str, text: str) -> str:
    """`text` with `typed` at the start of its body, after the frontmatter's closing fence."""
    fence = "\n---\n"
    body = text.index(fence) + len(fence)
    return text[:body] + typed + text[body:]


def test_a_file_opens_at_once_reading_and_keys_typed_meanwhile_land_in_its_text(
    qtbot: QtBot, panel: EditorPanel, slow_disk: threading.Event
) -> None:
    panel.open_file(NOTES)
    assert panel.current_path == NOTES and panel.is_reading
    assert panel.current_tab is not None and panel.current_tab.view.state is FileState.READING
    assert panel.buffer_text() == "" and panel.text_edit.placeholderText() == READING
    show_and_focus(qtbot, panel)
    qtbot.keyClicks(panel.text_edit, "Hi ")
    assert panel.buffer_text() == "" and not panel.is_dirty  # held: no text to type into
    assert not panel.save_button.isEnabled()
    slow_disk.set()
    settle(qtbot, panel)
    # At the start of the body: typed at the cursor's place, the first line, they would
    # have broken the frontmatter's fence.
    assert panel.buffer_text() == in_body("Hi ", ORIGINAL)
    assert panel.is_dirty and panel.text_edit.placeholderText() == ""
    assert panel.current_tab is not None and panel.current_tab.view.state is FileState.UNSAVED


def test_the_file_shown_before_stays_until_a_slow_read_says_reading(
    qtbot: QtBot, clocked_panel: EditorPanel, context: WindowContext, clock: FakeGuiClock
) -> None:
    panel = clocked_panel
    editor_support.open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    gate = busy_disk(context)
    try:
        panel.open_file(OTHER)  # in the preview tab, while the disk is slow
        assert panel.current_path == OTHER and panel.is_reading
        # A fast read would show its text next: nothing is painted in between.
        assert panel.buffer_text() == ORIGINAL
        assert panel.text_edit.placeholderText() != READING
        qtbot.keyClicks(panel.text_edit, "Hi ")
        assert panel.buffer_text() == ORIGINAL and not panel.is_dirty  # held for OTHER
        clock.advance(READING_SHOWN_AFTER_MS - 1)
        assert panel.buffer_text() == ORIGINAL
        clock.advance(1)  # overdue: the page says so
        assert panel.buffer_text() == "" and panel.text_edit.placeholderText() == READING
        assert panel.current_tab is not None
        assert panel.current_tab.view.state is FileState.READING
    finally:
        gate.set()
    settle(qtbot, panel)
    assert panel.buffer_text() == "Hi # Other\n" and panel.is_dirty
    assert panel.text_edit.placeholderText() == ""


def test_a_read_in_time_shows_its_text_without_the_reading_page(
    qtbot: QtBot, clocked_panel: EditorPanel, clock: FakeGuiClock
) -> None:
    panel = clocked_panel
    editor_support.open_loaded(qtbot, panel, NOTES)
    pages: list[str] = []
    panel.text_edit.textChanged.connect(lambda: pages.append(panel.buffer_text()))
    panel.open_file(OTHER)
    settle(qtbot, panel)
    assert pages == ["# Other\n"]  # from one text straight to the next
    clock.advance(READING_SHOWN_AFTER_MS)  # the delay ended with the read: nothing more
    assert panel.buffer_text() == "# Other\n" and panel.text_edit.placeholderText() == ""


def test_keys_typed_for_a_file_another_replaced_are_dropped(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, slow_disk: threading.Event
) -> None:
    panel.open_file(NOTES)  # the preview tab…
    show_and_focus(qtbot, panel)
    qtbot.keyClicks(panel.text_edit, "meant for notes")
    panel.open_file(OTHER)  # …shows another file before the first one was read
    slow_disk.set()
    settle(qtbot, panel)
    assert panel.current_path == OTHER and panel.open_refs == [ref(OTHER)]
    assert panel.buffer_text() == "# Other\n" and not panel.is_dirty
    assert disk_text(store, NOTES) == ORIGINAL


def test_a_change_on_disk_while_reading_shows_the_newer_text(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, slow_disk: threading.Event
) -> None:
    opened: list[str] = []
    panel.file_opened.connect(lambda _ref: opened.append(panel.buffer_text()))
    panel.open_file(NOTES)
    show_and_focus(qtbot, panel)
    qtbot.keyClicks(panel.text_edit, "Hi ")
    newer = ORIGINAL + "- third\n"
    write_disk(store, newer)
    panel.follow_changes({ref(NOTES)})  # the newer read supersedes the one on its way
    slow_disk.set()
    settle(qtbot, panel)
    assert opened == [newer]  # `file_opened` once, with its text shown…
    assert panel.buffer_text() == in_body("Hi ", newer)  # …then what was typed, kept meanwhile


def test_a_save_asked_while_reading_saves_what_was_typed_once_it_is_in(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, slow_disk: threading.Event
) -> None:
    panel.open_file(NOTES)
    show_and_focus(qtbot, panel)
    qtbot.keyClicks(panel.text_edit, "Hi ")
    outcome: list[bool] = []
    panel.save(outcome.append)  # Ctrl+S right after typing
    assert outcome == []
    slow_disk.set()
    qtbot.waitUntil(lambda: outcome == [True])
    assert disk_text(store, NOTES) == in_body("Hi ", ORIGINAL) and not panel.is_dirty


def test_a_tab_closed_while_reading_drops_its_read(
    qtbot: QtBot, panel: EditorPanel, slow_disk: threading.Event
) -> None:
    opened: list[MemoryFileRef] = []
    panel.file_opened.connect(opened.append)
    panel.open_file(NOTES)
    panel.close_current_tab()
    slow_disk.set()
    settle(qtbot, panel)
    qtbot.waitUntil(lambda: not panel.reading)
    assert panel.current_tab is None and opened == []


def test_opening_and_following_read_nothing_on_the_gui_thread(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, gui_thread_io: GuiThreadIo
) -> None:
    with gui_thread_io.watching(store.home.root):
        panel.open_file(NOTES)
        settle(qtbot, panel)
        write_disk(store, ORIGINAL + "- third\n")
        panel.follow_changes({ref(NOTES)})
        settle(qtbot, panel)
        assert panel.buffer_text() == ORIGINAL + "- third\n"
    gui_thread_io.check()
