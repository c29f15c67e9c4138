"""Room (issue 21): half a laptop screen holds the window with a file open, one pane at a
time; panels that come and go never move the tree; the status bar's notes elide."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded
from gui.every_dialog import dialog_classes, open_every_dialog
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_watching
from memtab.components.blame import GutterEntry
from memtab.components.tree.nodes import file_key
from memtab.gui.blame.feature import BlameCard
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.first_paint.memory_tab import DEFAULT_SPLITTER_SIZES
from memtab.gui.memory_tab.overlay import MOST_OF_THE_TREE
from memtab.gui.memory_tab.panes import NARROW_WIDTH, Pane
from memtab.gui.toolkit import dialog_layout
from memtab.gui.toolkit.screen_room import room_on
from memtab.gui.window import keys
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.offline.notes import Note
from support.memory_home import MAIN
from support.memory_paths import vpath

home = support.home
make_window = support.make_window

HALF_LAPTOP = 683  # half a 1366-px screen: beside a terminal
LAPTOP_WINDOW = (1280, 712)
LAPTOP_HEIGHT = 700  # a 768-px screen less its panel and a title bar
SMALL_SCREENS = {
    "half a laptop": QRect(0, 28, HALF_LAPTOP, 740),  # 1366×768 beside a terminal, a panel
    "netbook": QRect(0, 28, 1024, 572),  # 1024×600 less a panel
}
PREFERENCES = parse_file_path("/memories/global/preferences.md")


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def place_of(widget: QWidget, window: MainWindow) -> QRect:
    """Where `widget` is in the window."""
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def laptop_window(qtbot: QtBot, make_window: WindowFactory, home: Home) -> MainWindow:
    """A window as a laptop's screen holds it (1366×768 less the panels), shown."""
    window = make_window(home)
    window.resize(*LAPTOP_WINDOW)
    activate(qtbot, window)
    return window


def click_row(qtbot: QtBot, window: MainWindow, key: str) -> None:
    tree = window.memory_tab.tree
    index = window.memory_tab.model.index_for_key(key)
    assert index.isValid()
    tree.scrollTo(index)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center()
    )


def test_with_a_file_open_the_window_fits_half_a_laptop_one_pane_at_a_time(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = laptop_window(qtbot, make_window, home)
    tab = window.memory_tab
    panes = tab.panes
    open_loaded(qtbot, tab.controller.editor, PREFERENCES)
    window.part(keys.HISTORY).show_history()  # the History dock beside the editor, too
    qtbot.waitUntil(lambda: window.part(keys.HISTORY).panel.subject is not None, timeout=WAIT_MS)
    settle()
    assert not panes.narrow and tab.tree.isVisible() and tab.controller.editor.isVisible()
    wide_sizes = tab.splitter.sizes()
    back = tab.findChild(QAbstractButton, "backToFiles")
    assert back is not None and back.icon().isNull()  # drawn when first shown: not at the start

    assert window.traces_tab is not None  # built: its page counts in the window's width too
    settle()
    assert window.minimumSizeHint().width() <= HALF_LAPTOP
    window.resize(HALF_LAPTOP, 700)
    settle()
    assert window.width() == HALF_LAPTOP
    assert tab.width() < NARROW_WIDTH and panes.narrow
    assert (
        panes.shown is Pane.FILES and tab.tree.isVisible() and not tab.controller.editor.isVisible()
    )
    assert window.part(keys.HISTORY).dock.isVisible()

    # A click on a file shows the editor, the cursor in the text; Files goes back.
    key = file_key(PREFERENCES)
    click_row(qtbot, window, key)
    qtbot.waitUntil(lambda: panes.shown is Pane.EDITOR, timeout=WAIT_MS)
    assert tab.controller.editor.isVisible() and not tab.tree.isVisible()
    assert tab.controller.editor.current_path == PREFERENCES
    qtbot.waitUntil(lambda: tab.controller.editor.text_edit.hasFocus(), timeout=WAIT_MS)
    # ... past the frontmatter: the first key typed goes to the body, not into the YAML.
    text = tab.controller.editor.text_edit
    assert text.toPlainText().startswith("---\n") and not text.in_frontmatter()
    assert text.textCursor().block().previous().text() == "---"  # the closing fence
    assert back.isVisible() and not back.icon().isNull()
    qtbot.mouseClick(back, Qt.MouseButton.LeftButton)
    assert panes.shown is Pane.FILES and tab.tree.hasFocus()

    # Enter on a file goes to the editor; Ctrl+0 (View → Files) comes back.
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panes.shown is Pane.EDITOR, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tab.controller.editor.text_edit.hasFocus(), timeout=WAIT_MS)
    qtbot.keyClick(
        tab.controller.editor.text_edit, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier
    )
    assert panes.shown is Pane.FILES and tab.tree.hasFocus()

    # Arrow keys walk the tree, opening files, without leaving it.
    qtbot.keyClick(tab.tree, Qt.Key.Key_Down)
    settle()
    assert panes.shown is Pane.FILES

    # Closing the last file open (Ctrl+W) leaves nothing to edit: back to the files.
    click_row(qtbot, window, key)
    qtbot.waitUntil(lambda: panes.shown is Pane.EDITOR, timeout=WAIT_MS)
    for _ in range(len(tab.controller.editor.tabs)):  # each close waited for: never a spin
        still_open = len(tab.controller.editor.tabs)
        qtbot.keyClick(
            tab.controller.editor.text_edit, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier
        )
        qtbot.waitUntil(lambda: len(tab.controller.editor.tabs) < still_open, timeout=WAIT_MS)  # noqa: B023
    assert not tab.controller.editor.tabs
    assert panes.shown is Pane.FILES and tab.tree.hasFocus()

    # Wide again: both panes, the tree as wide as it was, the editor taking the rest (the
    # History dock beside it may have settled at another width); what is remembered is
    # what the user left, not what the narrow window squeezed.
    window.resize(*LAPTOP_WINDOW)
    settle()
    assert not panes.narrow and tab.tree.isVisible() and tab.controller.editor.isVisible()
    assert not back.isVisible()
    again = tab.splitter.sizes()
    assert (
        again[0] == wide_sizes[0]
        and sum(again) == tab.splitter.width() - tab.splitter.handleWidth()
    )
    window.resize(HALF_LAPTOP, 700)
    settle()
    assert panes.narrow and panes.wide_sizes() == DEFAULT_SPLITTER_SIZES


def test_beside_a_terminal_typing_at_once_goes_to_the_body_of_the_file_clicked(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """The click hands the text the keyboard while the file is still read: what is typed
    lands past the frontmatter, whichever comes first, the keys or the text."""
    window = laptop_window(qtbot, make_window, home)
    tab = window.memory_tab
    window.resize(HALF_LAPTOP, 700)
    settle()
    assert tab.panes.narrow
    click_row(qtbot, window, file_key(PREFERENCES))
    text = tab.controller.editor.text_edit
    qtbot.waitUntil(text.hasFocus, timeout=WAIT_MS)
    qtbot.keyClicks(text, "zz")
    qtbot.waitUntil(lambda: "zz" in tab.controller.editor.buffer_text(), timeout=WAIT_MS)
    assert tab.controller.editor.buffer_text().startswith(
        "---\ndescription: How I like code written\n---\nzz"
    )


@pytest.mark.parametrize("width", [1366, LAPTOP_WINDOW[0]])
def test_the_files_pane_opens_as_wide_as_asked_and_keeps_the_users_split(
    qtbot: QtBot, make_window: WindowFactory, home: Home, width: int
) -> None:
    """A first start (nothing remembered) on a laptop: the files pane gets its default
    width, though the tab is first laid out narrow (the tree was left 321 px of 1366);
    a drag is what the tab remembers, and it survives going narrow and wide."""
    window = make_window(home)
    window.resize(width, 740)
    activate(qtbot, window)
    tab = window.memory_tab
    settle()
    assert tab.splitter.sizes()[0] == DEFAULT_SPLITTER_SIZES[0]
    assert tab.panes.wide_sizes() == DEFAULT_SPLITTER_SIZES
    tab.splitter.moveSplitter(520, 1)  # the user's drag
    dragged = tab.panes.wide_sizes()
    assert dragged[0] == tab.splitter.sizes()[0] > DEFAULT_SPLITTER_SIZES[0]
    window.resize(HALF_LAPTOP, 740)
    settle()
    window.resize(width - 200, 740)  # a resize is not a drag
    settle()
    assert tab.splitter.sizes()[0] == dragged[0] and tab.panes.wide_sizes() == dragged


def test_panels_that_come_and_go_never_move_the_tree(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = laptop_window(qtbot, make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    settle()
    where = place_of(tab.tree, window)

    # An error banner lies over the bottom of the tree; the rows under it scroll up.
    tab.show_error("Cannot move notes.md: the target exists. " * 4)
    qtbot.waitUntil(lambda: tab.controller.message_bar.isVisible(), timeout=WAIT_MS)
    settle()
    assert place_of(tab.tree, window) == where
    overlay = tab.findChild(QWidget, "treeOverlay")
    assert overlay is not None and overlay.isVisible()
    covered = place_of(overlay, window)
    assert covered.bottom() == where.bottom() and covered.height() > 0
    assert tab.tree.viewport().height() <= where.height() - covered.height()

    # The writer's suggestions, shown by the watcher.
    SuggestionQueue(home, MAIN).propose(
        [Note("Directives", "Always use pnpm.")], memory_path="/memories/workspace/notes.md"
    )
    qtbot.waitUntil(lambda: tab.controller.inbox.isVisible(), timeout=WAIT_MS)
    settle()
    assert place_of(tab.tree, window) == where

    # The footer's line about another agent's file takes the status line, not a new one.
    tab.controller.footer.set_mux_only_note("Claude Code")
    settle()
    assert tab.controller.footer.mux_only_note.isVisible()
    assert place_of(tab.tree, window) == where

    tab.controller.message_bar.clear()
    tab.controller.footer.set_mux_only_note(None)
    settle()
    assert place_of(tab.tree, window) == where
    assert not overlay.isVisible()  # a wide tab's Inbox is below the editor: the tree whole

    # The Inbox is whole below the editor, and the keyboard reaches it: Tab from the tree,
    # or "review" (show_suggestions) puts it in the list; a selected item's details show
    # in it, and the tree stays put.
    inbox = tab.controller.inbox
    assert tab.controller.inbox_room.below_editor
    assert place_of(inbox, window).left() > where.right()
    assert inbox.height() >= inbox.minimumSizeHint().height()
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Tab)
    assert inbox.isAncestorOf(QApplication.focusWidget())
    tab.show_suggestions(MAIN)
    qtbot.waitUntil(lambda: inbox.list.hasFocus(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: inbox.details.isVisible(), timeout=WAIT_MS)
    settle()
    assert place_of(tab.tree, window) == where
    details = place_of(inbox.details, window)
    assert details.left() > where.right() and window.rect().contains(details)
    qtbot.keyClick(inbox.list, Qt.Key.Key_Tab)  # on to the details, then the buttons
    assert QApplication.focusWidget() is inbox.details
    qtbot.keyClick(inbox.details, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is inbox.accept_button


def test_over_a_short_tree_the_inbox_gives_way_and_leaves_rows_to_click(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """A short tree (a low window, the Check panel docked below) of a narrow tab, where
    the Inbox lies over the tree: it covers at most MOST_OF_THE_TREE of it — its list and
    details scroll in less room — and its buttons stay whole."""
    long = "The staging database is read-only for this team: fix concurrency bugs with row locks."
    SuggestionQueue(home, MAIN).propose(
        [Note("Directives", text) for text in (long, long + " Really.", "Use pnpm.")],
        memory_path="/memories/workspace/notes.md",
    )
    window = make_window(home)
    window.resize(683, 480)  # half a laptop
    activate(qtbot, window)
    tab = window.memory_tab
    inbox = tab.controller.inbox
    qtbot.waitUntil(lambda: inbox.isVisible() and len(inbox.items) == 3, timeout=WAIT_MS)
    inbox.list.setCurrentRow(0)
    qtbot.waitUntil(inbox.details.isVisible, timeout=WAIT_MS)
    settle()
    overlay = tab.findChild(QWidget, "treeOverlay")
    assert overlay is not None
    tree, covered = place_of(tab.tree, window), place_of(overlay, window)
    assert covered.height() <= tree.height() * MOST_OF_THE_TREE + 1
    assert tab.tree.viewport().height() >= tree.height() - covered.height() - 1
    buttons = place_of(inbox.accept_button, window)
    assert covered.contains(buttons) and inbox.accept_button.isVisible()


def test_picking_a_version_in_history_never_widens_its_dock(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = laptop_window(qtbot, make_window, home)
    tab = window.memory_tab
    MemoryStore.of(tab.view()).edit_text(vpath(PREFERENCES), lambda text: text + "- another line\n")
    open_loaded(qtbot, tab.controller.editor, PREFERENCES)
    window.part(keys.HISTORY).show_history()
    panel = window.part(keys.HISTORY).panel
    qtbot.waitUntil(lambda: panel.versions.topLevelItemCount() > 0, timeout=WAIT_MS)
    settle()
    width, tree_place = window.part(keys.HISTORY).dock.width(), place_of(tab.tree, window)
    for row in range(panel.versions.topLevelItemCount()):
        panel.versions.setCurrentItem(panel.versions.topLevelItem(row))
        qtbot.waitUntil(lambda: panel.diff.result is not None, timeout=WAIT_MS)
        settle()
        assert window.part(keys.HISTORY).dock.width() == width
        assert place_of(tab.tree, window) == tree_place


def test_the_history_panel_opens_with_each_versions_words_whole_on_a_laptop(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """At 1366×768 its columns were cut ("Anot…" for Another program): the dock opens as
    wide as a version's row needs, who made it never cut."""
    store = MemoryStore(home, load_registry(home).require_workspace(MAIN))
    store.edit_text(PREFERENCES, lambda text: text + "- one more\n")
    (home.global_root / PREFERENCES.name).write_text("Edited by another program.\n")
    record_external(store)  # another program's change, as the recorder records it
    window = make_window(home)
    window.resize(1366, 740)
    activate(qtbot, window)
    tab = window.memory_tab
    open_loaded(qtbot, tab.controller.editor, PREFERENCES)
    window.part(keys.HISTORY).show_history()
    panel = window.part(keys.HISTORY).panel
    qtbot.waitUntil(lambda: panel.versions.topLevelItemCount() > 1, timeout=WAIT_MS)
    settle()
    header, metrics = panel.versions.header(), panel.versions.fontMetrics()
    for row in range(panel.versions.topLevelItemCount()):
        item = panel.versions.topLevelItem(row)
        assert item is not None
        for column in (0, 1, 3):  # when, who, size: whole
            assert metrics.horizontalAdvance(item.text(column)) <= header.sectionSize(column)


def test_a_status_note_shows_at_half_a_laptop_and_a_long_one_elides(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    window.resize(HALF_LAPTOP, 700)
    activate(qtbot, window)
    bar = window.status_bar
    home_label = window.findChild(QWidget, "homeStatus")
    assert home_label is not None
    settle()
    height, tree_place = bar.height(), place_of(window.memory_tab.tree, window)
    text = "Moved /memories/global/a-very-long-name.md to /memories/project/elsewhere.md. " * 3
    window.context.status.show(text)
    settle()
    assert bar.height() == height and place_of(window.memory_tab.tree, window) == tree_place
    assert bar.currentMessage() == text  # whole, for whoever asks
    note = bar.note
    assert note.text() != text and note.text().endswith("…")
    assert note.toolTip() == text
    assert not home_label.isVisible()  # it gives way to the note while the note shows
    assert bar.minimumSizeHint().width() <= HALF_LAPTOP
    assert window.minimumSizeHint().width() <= HALF_LAPTOP
    # A note of the usual length shows whole: beside the writer and the home it was "Tab…".
    usual = "Tab moves the focus now (Ctrl+M: Tab indents again)"
    window.context.status.show(usual)
    settle()
    assert note.text() == usual
    bar.clearMessage()
    settle()
    assert home_label.isVisible()


BIG_DIALOGS = {
    "ReviewDialog", "DiffDialog", "RunsDialog", "TrashDialog", "ConflictsDialog",
    "RevertResultDialog", "ShortcutsDialog", "LoadsDialog", "SideBySideDialog",
    "RecallDialog", "ChangesReview",
}  # fmt: skip
"""Dialogs of lists, diffs and reviews: they keep minimize and maximize."""


@pytest.mark.slow
@pytest.mark.parametrize("screen_name", list(SMALL_SCREENS))
def test_every_dialog_fits_a_small_screen(
    qtbot: QtBot,
    make_window: WindowFactory,
    home: Home,
    monkeypatch: pytest.MonkeyPatch,
    screen_name: str,
) -> None:
    """Each dialog and message box of the app opens whole on a small screen — half a
    laptop's (a window beside a terminal) or a netbook's — its frame included, every
    button inside it: it needs no more (`minimumSizeHint`) and opens no bigger. The
    small ones have no minimize or maximize button. Where a
    command opens a dialog, the test runs the command (the dialog is checked in place of
    its `exec`)."""
    screen = SMALL_SCREENS[screen_name]
    room = room_on(screen)
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(screen))
    window = laptop_window(qtbot, make_window, home)

    def fits(dialog: QWidget) -> None:
        assert isinstance(dialog, QDialog)
        if dialog.parent() is None and not dialog.testAttribute(
            Qt.WidgetAttribute.WA_DeleteOnClose
        ):
            qtbot.addWidget(dialog)
        name = dialog.windowTitle()
        least = dialog.minimumSizeHint()
        assert least.height() <= room.height(), name
        assert least.width() <= room.width(), name
        dialog.show()
        qtbot.waitExposed(dialog)
        settle()
        assert dialog.height() <= room.height(), name
        assert dialog.width() <= room.width(), name
        for button in dialog.findChildren(QAbstractButton):
            if button.isVisibleTo(dialog):
                place = QRect(button.mapTo(dialog, QPoint(0, 0)), button.size())
                assert dialog.rect().contains(place), (name, button.text())
        dialog.reject()  # as closing it does: workers it started stop
        if type(dialog).__name__ not in BIG_DIALOGS:  # a form or a question: close only
            flags = dialog.windowFlags()
            assert not flags & Qt.WindowType.WindowMinimizeButtonHint, name
            assert not flags & Qt.WindowType.WindowMaximizeButtonHint, name
            assert flags & Qt.WindowType.CustomizeWindowHint, name  # else the WM's defaults

    checked = open_every_dialog(window, home, fits)
    assert dialog_classes() <= set(checked), "a dialog this test does not open"
    window.part(keys.HISTORY).show_history()
    assert window.part(keys.HISTORY).dock.minimumSizeHint().height() <= LAPTOP_HEIGHT
    card = BlameCard(GutterEntry("you", "you 1 h", "you", "You", ("1 hour ago",) * 12), window)
    assert card.sizeHint().height() <= LAPTOP_HEIGHT and card.width() <= HALF_LAPTOP


def test_dialogs_opened_from_a_window_on_half_a_laptop_fit_its_width(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a whole laptop screen, a window beside a terminal (683 px) opens its big dialogs
    over itself, no wider — not over the terminal (Resolve conflicts… opened 1000 px wide;
    issue 36). The screen's room alone is what `test_every_dialog_fits_a_small_screen` checks."""
    laptop = QRect(0, 28, 2 * HALF_LAPTOP, 740)
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(laptop))
    window = make_window(home)
    window.resize(HALF_LAPTOP, LAPTOP_HEIGHT)
    activate(qtbot, window)
    assert window.part(keys.SYNC) is not None
    window.part(keys.SYNC).open_conflicts()
    for dialog in (
        window.part(keys.SYNC).dialog,
        window.part(keys.HISTORY).open_runs(),
        window.part(keys.HISTORY).open_trash(),
    ):
        assert dialog is not None
        dialog.show()
        qtbot.waitExposed(dialog)
        settle()
        assert dialog.width() <= window.width(), dialog.windowTitle()
        dialog.reject()
