"""The search box in the Memory tab: filtering off the GUI thread, keys, restoring."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names
from memtab.components.search import search as search_module
from memtab.components.search import search as search_tasks
from memtab.components.tree.nodes import NodeKind, SectionId, directory_key, file_key, section_key
from memtab.fs import memo
from memtab.fs.atomic import atomic_write_text
from memtab.search_index.index import Refreshed, SearchIndex
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.agent_machine import notes_home
from support.indexed import indexed_text
from support.memory_home import memory

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window


def key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def search_box(window: object) -> QLineEdit:
    box = window.memory_tab.controller.search_box.edit  # type: ignore[attr-defined]
    assert box.accessibleName() == "Search memories"
    return box


def test_typing_filters_every_scope_off_the_gui_thread(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = search_tasks.find_matches

    def recording(*args: object, **options: object) -> object:
        threads.append(threading.current_thread())
        return real(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(search_tasks, "find_matches", recording)
    window = make_window(home)
    tab = window.memory_tab
    qtbot.keyClicks(search_box(window), "ruff")
    qtbot.waitUntil(lambda: file_names(window) == ["global:python.md"], timeout=WAIT_MS)
    assert threads and all(thread is not threading.main_thread() for thread in threads)
    python = tab.model.node_for_key(key("/memories/global/tools/python.md"))
    # "Use ruff. ruff!": one line, however many times the word is on it — what the row
    # counts is lines, as the rows under it are.
    assert python is not None and python.content_hits == 1
    index = tab.model.index_for_key(key("/memories/global/tools/python.md"))
    heard = index.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "1 matching line" in heard and "match in text" not in heard
    global_section = tab.model.node_for_key(section_key(SectionId.GLOBAL))
    assert global_section is not None
    assert (global_section.file_count, global_section.total_count) == (1, 4)
    assert tab.tree.delegate.highlight_terms == ("ruff",)
    tools = tab.model.index_for_key(directory_key(parse_file_path("/memories/global/tools")))
    assert tab.tree.isExpanded(tools)  # results are shown expanded


def test_clearing_the_search_restores_the_tree_and_its_expansion(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    everything = file_names(window)
    tools_key = directory_key(parse_file_path("/memories/global/tools"))
    tab.tree.setExpanded(tab.model.index_for_key(tools_key), False)
    box = search_box(window)
    box.setText("postgres")
    qtbot.waitUntil(lambda: file_names(window) == ["project:db.md"], timeout=WAIT_MS)
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == ""
    qtbot.waitUntil(lambda: file_names(window) == everything, timeout=WAIT_MS)
    assert not tab.tree.isExpanded(tab.model.index_for_key(tools_key))
    assert tab.tree.delegate.highlight_terms == ()


def test_ctrl_f_focuses_the_search_box_and_down_goes_to_the_results(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    tab = window.memory_tab
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert search_box(window).hasFocus()
    qtbot.keyClicks(search_box(window), "zeta")
    qtbot.waitUntil(lambda: file_names(window) == ["global:Zeta.md"], timeout=WAIT_MS)
    qtbot.keyClick(search_box(window), Qt.Key.Key_Down)
    assert tab.tree.hasFocus()
    current = tab.tree.current_node()
    assert current is not None and current.name == "Zeta.md"


def test_no_matches_says_so_in_each_section(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    search_box(window).setText("xyzzy")
    qtbot.waitUntil(lambda: file_names(window) == [], timeout=WAIT_MS)
    tab = window.memory_tab
    for section in (SectionId.GLOBAL, SectionId.PROJECT, SectionId.WORKSPACE):
        node = tab.model.node_for_key(section_key(section))
        assert node is not None and node.children[0].name == "No matches"


def match_rows(window: object) -> list[tuple[str, int, str]]:
    """(file, line number, matched text) of every matching-line row."""
    model = window.memory_tab.model  # type: ignore[attr-defined]
    rows = []
    for node in model.nodes():
        if node.kind is NodeKind.MATCH and node.line_match is not None:
            match = node.line_match
            first = match.text[match.spans[0][0] : match.spans[0][1]] if match.spans else ""
            rows.append((node.parent.name, match.line + 1, first))
    return rows


def test_results_show_the_matching_lines_with_the_match_highlighted(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    search_box(window).setText("RUFF")
    qtbot.waitUntil(lambda: match_rows(window) == [("python.md", 5, "ruff")], timeout=WAIT_MS)
    python = tab.model.index_for_key(key("/memories/global/tools/python.md"))
    assert tab.tree.isExpanded(python)  # the lines show without a click
    line = tab.model.index(0, 0, python)
    assert line.data(Qt.ItemDataRole.ToolTipRole) == "Line 5: Use ruff. ruff!"
    assert not line.flags() & Qt.ItemFlag.ItemIsDragEnabled
    # The row paints its matches on the highlight fill: the pixels differ from a row
    # painted without the spans.
    node = tab.tree.node_at(line)
    assert node is not None and node.line_match is not None
    with_spans = paint_row(tab.tree, line)
    node.line_match = node.line_match._replace(spans=())
    assert paint_row(tab.tree, line) != with_spans


def paint_row(tree: object, index: object) -> bytes:
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionViewItem

    view = tree  # a MemoryTreeView
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())  # type: ignore[attr-defined]
    option.rect = QRect(0, 0, 400, 24)
    option.font = view.font()  # type: ignore[attr-defined]
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    view.delegate.paint(painter, option, index)  # type: ignore[attr-defined]
    painter.end()
    return bytes(image.constBits())


def test_opening_a_result_selects_its_first_match_in_the_editor(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    search_box(window).setText("ruff")
    qtbot.waitUntil(lambda: bool(match_rows(window)), timeout=WAIT_MS)
    tab.controller.editor_link.select_key(key("/memories/global/tools/python.md"), open_it=True)
    settle(qtbot, tab.controller.editor)
    cursor = tab.controller.editor.text_edit.textCursor()
    assert cursor.selectedText() == "ruff"
    assert cursor.blockNumber() == 4 and cursor.selectionStart() == cursor.block().position() + 4


def test_next_and_previous_match_go_through_the_lines_file_after_file(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    (home.global_root / "tools" / "git.md").write_text("Rebase often.\nmerge? no: rebase\n")
    window = make_window(home)
    tab = window.memory_tab
    search_box(window).setText("rebase")
    qtbot.waitUntil(lambda: len(match_rows(window)) == 2, timeout=WAIT_MS)
    tab.context.actions.action("search.next_result").trigger()
    assert tab.controller.editor.current_path == parse_file_path("/memories/global/tools/git.md")
    settle(qtbot, tab.controller.editor)
    editor = tab.controller.editor.text_edit  # the file's tab's
    assert (editor.textCursor().blockNumber(), editor.textCursor().selectedText()) == (
        0,
        "Rebase",
    )
    tab.context.actions.action("search.next_result").trigger()
    assert editor.textCursor().blockNumber() == 1
    assert editor.textCursor().selectedText() == "rebase"
    tab.context.actions.action("search.next_result").trigger()  # wraps around
    assert editor.textCursor().blockNumber() == 0
    tab.context.actions.action("search.previous_result").trigger()
    assert editor.textCursor().blockNumber() == 1


def test_next_match_without_results_says_what_to_do(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    with qtbot.waitSignal(window.context.status.shown) as message:
        window.memory_tab.context.actions.action("search.next_result").trigger()
    assert "search box" in message.args[0]


def test_a_term_in_more_files_than_are_shown_says_so(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "MAX_MATCHED_FILES", 2)
    window = make_window(home)
    with qtbot.waitSignal(window.context.status.shown, timeout=WAIT_MS) as message:
        search_box(window).setText("e")  # in nearly every file
    assert message.args[0] == "The first 2 matching files are shown: type more to narrow them"
    model = window.memory_tab.model  # type: ignore[attr-defined]
    files = [node for node in model.nodes() if node.kind is NodeKind.FILE]
    assert len(files) == 2


def test_the_files_are_read_for_search_once_the_field_takes_the_focus(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window nobody searches in reads no file for it: the search index on disk is
    brought to the scan when the field first takes the focus (so the first query is
    quick), once; the search then reads nothing again."""
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    indexed: list[int] = []
    real = SearchIndex.refresh

    def recording(index: SearchIndex, *args: object, **options: object) -> Refreshed:
        done = real(index, *args, **options)  # type: ignore[arg-type]
        indexed.append(done.read)
        return done

    monkeypatch.setattr(SearchIndex, "refresh", recording)
    window = make_window(home)
    tab = window.memory_tab
    qtbot.wait(200)
    assert indexed == [] and not tab.controller.search_box.busy
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    search_box(window).setFocus()
    qtbot.waitUntil(lambda: bool(indexed), timeout=WAIT_MS)
    scan = window.context.shown.scan
    assert scan is not None and indexed[0] >= scan.file_count
    tab.tree.setFocus()
    search_box(window).setFocus()
    qtbot.keyClicks(search_box(window), "ruff")
    qtbot.waitUntil(lambda: file_names(window) == ["global:python.md"], timeout=WAIT_MS)
    assert sum(indexed[1:]) == 0  # the search read no file again


def test_the_search_answers_from_the_index_on_disk_as_other_programs_write(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Another program writes a file and deletes one while the window shows a search: the
    search finds the new file and not the deleted one, from the home's search index on disk
    (the file the MCP servers and `memtab search` share), which holds the new file's row."""
    window = make_window(home)
    box = search_box(window)
    box.setText("kestrel")
    qtbot.waitUntil(lambda: file_names(window) == [], timeout=WAIT_MS)
    atomic_write_text(home.global_root / "birds.md", memory("Birds", "The kestrel hovers.\n"))
    (home.global_root / "tools" / "python.md").unlink()
    qtbot.waitUntil(lambda: file_names(window) == ["global:birds.md"], timeout=WAIT_MS)
    box.setText("ruff")  # python.md's word: gone with it
    qtbot.waitUntil(lambda: file_names(window) == [], timeout=WAIT_MS)
    index = SearchIndex.of_home(home.root)
    try:
        global_root = os.fspath(home.global_root)
        assert "kestrel" in indexed_text(index, global_root, "/memories/global/birds.md")
        assert indexed_text(index, global_root, "/memories/global/tools/python.md") == ""
    finally:
        index.close()


def test_korean_words_inside_longer_ones_find_the_notes_holding_them(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real Korean auto memory: 검증 stands in 재검증 and 검증할, 동기화 in 동기화를."""
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    window = make_window(notes_home(tmp_path / "home", "claude-code-auto-memory"), None)
    box = search_box(window)
    for word, note in (
        ("검증", "global:feedback_verify-before-asserting.md"),
        ("동기화", "global:project_config-sync.md"),
    ):
        box.setText(word)
        found = sorted([note, "global:MEMORY.md"])
        qtbot.waitUntil(lambda found=found: sorted(file_names(window)) == found, timeout=WAIT_MS)


def test_the_search_box_finds_a_partial_word_as_it_is_typed(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Typed a letter at a time, the middle of a word finds the file holding it once three
    letters narrow it (the engine's own regular expression over its words), and every
    keystroke shows the files its terms match so far."""
    atomic_write_text(home.global_root / "ops.md", memory("Ops", "Roll out with kubernetes.\n"))
    window = make_window(home)
    box = search_box(window)
    box.setFocus()
    for letter in "berne":
        qtbot.keyClicks(box, letter)
        if len(box.text()) >= 3:
            qtbot.waitUntil(lambda: file_names(window) == ["global:ops.md"], timeout=WAIT_MS)
    qtbot.keyClicks(box, " roll")
    qtbot.waitUntil(lambda: file_names(window) == ["global:ops.md"], timeout=WAIT_MS)
    qtbot.keyClicks(box, "ing")  # "rolling" is in no file
    qtbot.waitUntil(lambda: file_names(window) == [], timeout=WAIT_MS)
