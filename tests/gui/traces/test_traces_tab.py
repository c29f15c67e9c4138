"""The Traces tab on the fixture dumps: list, filters, detail, raw JSON, live updates."""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from memtab.demo import DARK_MODE_ID, MAIN_ID, MULTI_ID, acme_api, create_demo_home
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.context import ChangeFeed
from memtab.gui.tasks.jobs import JobService
from memtab.gui.traces import feature as trace_ops
from memtab.gui.traces.detail import AttemptPage
from memtab.gui.traces.feature import EMPTY_TEXT, TracesTab
from memtab.gui.traces.models import FAILED_ROLE, TraceListModel
from memtab.store.home import Home
from memtab.traces.describe import format_json
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceDump
from support.trace_dumps import (
    DEMO_STARTED,
    LARGE_EVENT_COUNT,
    ODD_TYPES_STARTED,
    OLD_FORMAT_STARTED,
    fixture_dump,
    install_dump,
    write_large_dump,
)

# The offscreen platform says this whenever a top-level window is shown.

WAIT_MS = 10_000
TRUNCATED_NAME = f"{DEMO_STARTED + 60_000}_assistant-0002.json"

TabFactory = Callable[..., TracesTab]


@pytest.fixture(scope="module")
def template_home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """The demo home (its failed run's dump is the newest) plus the old-format, odd and
    truncated dumps (the demo's dump of the run that wrote its notes is left out: these
    tests are about failures and odd files)."""
    demo = create_demo_home(tmp_path_factory.mktemp("traces") / "home")
    for path in demo.trace_dir(MAIN_ID).glob("*.json"):
        if json.loads(path.read_text(encoding="utf-8"))["didWriteMemory"]:
            path.unlink()
    install_dump(demo, DARK_MODE_ID, fixture_dump("old-format"), f"{OLD_FORMAT_STARTED}_m.json")
    install_dump(demo, MULTI_ID, fixture_dump("odd-types"), f"{ODD_TYPES_STARTED}_1234567.json")
    install_dump(demo, MAIN_ID, fixture_dump("truncated"), TRUNCATED_NAME)
    return demo


@pytest.fixture
def home(template_home: Home, tmp_path: Path) -> Home:
    """A fresh copy of the template home for each test (cheaper than rebuilding it)."""
    return Home(Path(shutil.copytree(template_home.root, tmp_path / "home")))


@pytest.fixture
def make_tab(qtbot: QtBot, jobs: JobService) -> Iterator[TabFactory]:
    tabs: list[TracesTab] = []

    def make(home: Home, changes: ChangeFeed | None = None) -> TracesTab:
        tab = TracesTab(home, changes, jobs)
        qtbot.addWidget(tab)
        tabs.append(tab)
        tab.resize(1300, 800)
        with qtbot.waitSignal(tab.scan_finished, timeout=WAIT_MS):
            tab.show()
        if tab.model.rowCount():
            qtbot.waitUntil(lambda: tab.detail.dump is not None, timeout=WAIT_MS)
        return tab

    yield make
    for tab in tabs:
        tab.shutdown()


def open_path(qtbot: QtBot, tab: TracesTab, path: Path) -> TraceDump:
    with qtbot.waitSignal(tab.trace_shown, timeout=WAIT_MS) as shown:
        tab.show_trace(path)
    dump = shown.args[0]
    assert isinstance(dump, TraceDump)
    return dump


def dump_path(home: Home, workspace_id: str, name: str) -> Path:
    return home.trace_dir(workspace_id) / name


def demo_path(home: Home) -> Path:
    return next(p for p in home.trace_dir(MAIN_ID).glob("*.json") if p.name != TRUNCATED_NAME)


def column(model: TraceListModel | QModelIndex, col: int) -> list[str]:
    assert isinstance(model, TraceListModel)
    return [model.index(row, col).data() for row in range(model.rowCount())]


# --- the list ------------------------------------------------------------------------------


def test_list_shows_every_dump_newest_first(
    home: Home, make_tab: TabFactory, qtmodeltester: ModelTester
) -> None:
    tab = make_tab(home)
    model = tab.model
    qtmodeltester.check(model)
    qtmodeltester.check(tab.proxy)
    assert column(model, TraceListModel.WORKSPACE) == [
        "Fix the token refresh race",
        "Sync the API client",
        "Fix the token refresh race",
        "Dark mode",
    ]
    assert column(model, TraceListModel.OUTCOME) == [
        "Timed out",
        "Provider error",
        "Timed out",
        "Policy not satisfied",
    ]
    assert column(model, TraceListModel.TIME)[0] == "54 min ago"
    errors = column(model, TraceListModel.ERROR)
    assert errors[0] == "Timed out after 10000 ms"
    assert errors[2] == "memory_write: old_string mat"
    assert tab.count_label.text() == "4 dumps"
    assert tab.list_view.accessibleName() == "Trace dumps"
    # The newest dump opens on its own.
    assert tab.detail.dump is not None and tab.detail.dump.path == demo_path(home)
    assert tab.selected_path() == demo_path(home)


def test_empty_home_says_how_dumps_appear(tmp_path: Path, make_tab: TabFactory) -> None:
    tab = make_tab(Home(tmp_path / "nothing"))
    assert tab.stack.currentWidget() is tab.empty_label
    assert tab.empty_label.text() == EMPTY_TEXT
    assert EMPTY_TEXT == (
        "No trace dumps yet — the writer saves one when a run fails, a consolidation with a "
        "model after every run"
    )


def test_filters_by_workspace_and_outcome(home: Home, make_tab: TabFactory) -> None:
    tab = make_tab(home)
    assert tab.workspace_filter.accessibleName() == "Filter by workspace"
    assert tab.outcome_filter.accessibleName() == "Filter by outcome"
    names = [tab.workspace_filter.itemText(i) for i in range(tab.workspace_filter.count())]
    assert names == [
        "All workspaces",
        "Dark mode",
        "Fix the token refresh race",
        "Sync the API client",
    ]

    tab.workspace_filter.setCurrentIndex(tab.workspace_filter.findData(MAIN_ID))
    assert tab.proxy.rowCount() == 2
    assert tab.count_label.text() == "2 of 4 dumps"
    tab.outcome_filter.setCurrentIndex(
        tab.outcome_filter.findData(Outcome.POLICY_NOT_SATISFIED.value)
    )
    assert tab.proxy.rowCount() == 0
    assert tab.no_match.isVisibleTo(tab)

    tab.workspace_filter.setCurrentIndex(0)
    assert tab.proxy.rowCount() == 1
    summary = tab.proxy.index(0, 0).data(Qt.ItemDataRole.UserRole + 1)
    assert summary.workspace_id == DARK_MODE_ID
    assert not tab.no_match.isVisibleTo(tab)


# --- the detail ----------------------------------------------------------------------------


def field(tab: TracesTab, key: str) -> str:
    label = tab.detail.findChild(QLabel, f"field:{key}")
    assert label is not None
    full = getattr(label, "full_text", None)
    return full if isinstance(full, str) else label.text()


def test_detail_header_of_the_demo_dump(
    template_home: Home, home: Home, make_tab: TabFactory
) -> None:
    tab = make_tab(home)
    detail = tab.detail
    assert detail.title.full_text == "Timed out · Fix the token refresh race"
    assert detail.error_label.text() == "Timed out after 10000 ms"
    assert not detail.problem_banner.isVisibleTo(detail)
    assert field(tab, "workspace") == f"Fix the token refresh race ({MAIN_ID})"
    assert field(tab, "model") == "anthropic:claude-haiku-4-5"
    assert field(tab, "timeout") == "10.0 s (10,000 ms)"
    assert field(tab, "timed_out") == "Yes"
    assert field(tab, "wrote_memory") == "No"
    assert field(tab, "policy") == "No"
    assert field(tab, "trigger") == "assistant-0001"
    project = acme_api(template_home)  # as the dump says it: where the demo was made
    assert field(tab, "project") == project
    assert field(tab, "workspace_path") == f"{project}/.worktrees/fix-token-refresh"
    assert field(tab, "memory_path") == "/memories/workspace/notes.md"
    assert field(tab, "file") == str(demo_path(home))
    assert field(tab, "attempts") == "1 · 2 tool calls (1 failed)"

    tabs = [detail.tabs.tabText(i) for i in range(detail.tabs.count())]
    assert tabs == ["Attempt 1", "Memory", "Events (2)", "Prompt", "Raw JSON"]
    assert "Always run `make check`" in detail.memory_view.full_text
    assert detail.events_summary.full_text.startswith("2 events sent to the model, of 2 in the")


def test_tool_execution_table_highlights_the_error_row(
    home: Home, make_tab: TabFactory, qtmodeltester: ModelTester
) -> None:
    tab = make_tab(home)
    (page,) = tab.detail.attempt_pages
    model = page.tool_model
    qtmodeltester.check(model)
    rows = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(2)]
    assert rows[0][:2] == ["memory_read", "{}"]
    assert rows[0][3:] == ["3 ms", "+1.2 s"]
    assert rows[1][0] == "memory_write"
    assert rows[1][2] == "old_string matched 0 times (expected 1)"
    assert [model.index(r, 0).data(FAILED_ROLE) for r in range(2)] == [False, True]
    assert model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is None
    assert_error_tint(model.index(1, 2))
    # The failed call is selected and shown in full.
    assert page.tool_table.currentIndex().row() == 1
    assert "Error\nold_string matched 0 times (expected 1)" in page.call_view.full_text
    assert page.error_label.text() == "Timed out after 10000 ms"


def assert_error_tint(index: QModelIndex) -> None:
    background = index.data(Qt.ItemDataRole.BackgroundRole)
    foreground = index.data(Qt.ItemDataRole.ForegroundRole)
    assert isinstance(background, QColor) and isinstance(foreground, QColor)
    base = QGuiApplication.palette().color(QPalette.ColorRole.Base)
    assert background != base
    assert background.red() > background.green()  # tinted towards red, gently
    assert abs(background.lightness() - base.lightness()) < 60
    assert foreground.red() > foreground.green() + 40


def test_error_highlight_works_in_a_dark_palette(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.palette()
    light_error = tab.detail.error_label.palette().color(QPalette.ColorRole.WindowText)
    assert light_error.lightness() < 150
    dark = QPalette(original)
    for role, color in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.WindowText, "#e6e6e6"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.Text, "#e6e6e6"),
    ):
        dark.setColor(role, QColor(color))
    app.setPalette(dark)
    try:
        model = tab.detail.attempt_pages[0].tool_model
        assert_error_tint(model.index(1, 2))
        background = model.index(1, 2).data(Qt.ItemDataRole.BackgroundRole)
        assert background.lightness() < 80  # still a dark row

        # The header's error text is re-derived for the dark background: lighter, still red.
        def error_colour() -> QColor:
            return tab.detail.error_label.palette().color(QPalette.ColorRole.WindowText)

        qtbot.waitUntil(lambda: error_colour().lightness() > 150, timeout=WAIT_MS)
        assert error_colour().red() > error_colour().green() + 40
    finally:
        app.setPalette(original)


def test_messages_step_results_and_events_are_listed(
    home: Home, make_tab: TabFactory, qtmodeltester: ModelTester
) -> None:
    tab = make_tab(home)
    page = tab.detail.attempt_pages[0]
    assert page.messages.model is not None and page.steps.model is not None
    qtmodeltester.check(page.messages.model)
    qtmodeltester.check(page.steps.model)
    assert page.messages.model.index(0, 1).data() == "user"
    assert page.steps.model.index(0, 1).data() == "tool-calls"
    events = tab.detail.events.model
    assert events is not None
    qtmodeltester.check(events)
    assert [events.index(r, 1).data() for r in range(2)] == ["user", "assistant"]
    assert events.index(1, 3).data() == "bash ×3 (1 failed)"
    assert events.index(1, 0).data(FAILED_ROLE) is True
    prompt = tab.detail.prompt.model
    assert prompt is not None
    qtmodeltester.check(prompt)
    assert [prompt.index(r, 0).data() for r in range(prompt.rowCount())] == [
        "System prompt",
        "User message",
    ]


def test_raw_json_is_read_only_and_copies_the_whole_file(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    raw = tab.detail.raw_view
    editor = raw.text_view.editor
    assert editor.accessibleName() == "Raw JSON"
    assert editor.toPlainText() == ""  # loaded only when its tab is opened
    tab.detail.tabs.setCurrentWidget(raw)
    text = demo_path(home).read_text(encoding="utf-8")
    assert editor.isReadOnly()
    assert editor.toPlainText() == text
    QGuiApplication.clipboard().clear()
    assert raw.copy_button.accessibleName() == "Copy raw JSON"
    qtbot.mouseClick(raw.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == text
    assert raw.copy_button.text() == "Copied"


def test_old_format_dump_opens_with_what_it_has(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    tab.detail.tabs.setCurrentIndex(tab.detail.tabs.count() - 1)  # raw, to check it follows
    dump = open_path(qtbot, tab, dump_path(home, DARK_MODE_ID, f"{OLD_FORMAT_STARTED}_m.json"))
    assert dump.outcome is Outcome.POLICY_NOT_SATISFIED
    assert tab.detail.title.full_text == "Policy not satisfied · Dark mode"
    assert field(tab, "policy") == "not recorded (older dump)"
    assert not tab.detail.problem_banner.isVisibleTo(tab.detail)
    titles = [tab.detail.tabs.tabText(i) for i in range(tab.detail.tabs.count())]
    assert titles[:2] == ["Attempt 1", "Attempt 2"]
    assert tab.detail.tabs.currentWidget() is tab.detail.raw_view  # the section is kept
    assert "agentDiscoveryPath" in tab.detail.raw_view.text_view.full_text
    second: AttemptPage = tab.detail.attempt_pages[1]
    assert not second.tool_table.isVisibleTo(second)
    assert second.messages.model is not None and second.messages.model.rowCount() == 2
    prompt = tab.detail.prompt.model
    assert prompt is not None
    sections = [prompt.index(r, 0).data() for r in range(prompt.rowCount())]
    assert sections == [
        "System prompt",
        "User message",
        "agentDiscoveryPath",
        "globalAgentsMd",
        "contextAgentsMd",
    ]


def test_truncated_file_opens_with_a_banner_and_what_was_recovered(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    open_path(qtbot, tab, dump_path(home, MAIN_ID, TRUNCATED_NAME))
    detail = tab.detail
    assert detail.problem_banner.isVisibleTo(detail)
    assert detail.problem_label.text().startswith(
        "The file is truncated (it ends inside `attempts[0].toolExecutions[1].error`)"
    )
    assert field(tab, "model") == "anthropic:claude-haiku-4-5"
    model = detail.attempt_pages[0].tool_model
    assert model.rowCount() == 2
    assert model.index(1, 2).data() == "old_string mat"
    assert tab.selected_path() == dump_path(home, MAIN_ID, TRUNCATED_NAME)


def test_odd_types_dump_lists_its_problems(home: Home, make_tab: TabFactory, qtbot: QtBot) -> None:
    tab = make_tab(home)
    open_path(qtbot, tab, dump_path(home, MULTI_ID, f"{ODD_TYPES_STARTED}_1234567.json"))
    text = tab.detail.problem_label.text()
    assert text.startswith("11 fields had unexpected values:")
    assert "…and 5 more" in text
    assert field(tab, "timed_out") == "—"
    assert tab.detail.error_label.text() == "Overloaded (529)"


def test_deeply_nested_dumps_open_with_what_can_be_read(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    template = json.loads(fixture_dump("demo").read_text(encoding="utf-8"))
    template["events"] = "@@"
    text = json.dumps(template, indent=2)
    too_deep = dump_path(home, MAIN_ID, f"{DEMO_STARTED + 120_000}_deep.json")
    too_deep.write_text(text.replace('"@@"', "[" * 100_000 + "]" * 100_000), encoding="utf-8")
    readable = dump_path(home, MAIN_ID, f"{DEMO_STARTED + 180_000}_nested.json")
    nested = "[" * 100 + "]" * 100  # deep, but within what the reader accepts
    readable.write_text(text.replace('"@@"', f'[{nested}, {{"role": "user"}}]'), encoding="utf-8")
    tab = make_tab(home)
    assert tab.model.row_of(too_deep) is not None

    open_path(qtbot, tab, too_deep)
    assert tab.detail.problem_label.text().startswith(
        "The file is nested too deeply to read (in `events"
    )
    assert field(tab, "model") == "anthropic:claude-haiku-4-5"

    dump = open_path(qtbot, tab, readable)
    assert dump.file_problem is None
    events = tab.detail.events
    assert events.model is not None and events.model.rowCount() == 2
    events.table.setCurrentIndex(events.model.index(0, 0))
    assert events.viewer.full_text == format_json(dump.record.events[0])


# --- large dumps ---------------------------------------------------------------------------


@pytest.mark.slow
def test_large_dump_parses_off_the_gui_thread_while_it_keeps_ticking(
    home: Home, make_tab: TabFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    large = write_large_dump(home.trace_dir(MAIN_ID) / "1767400000000_assistant-9999.json")
    tab = make_tab(home)
    gate = threading.Event()
    parse_threads: list[threading.Thread] = []
    real_parse = trace_ops.parse_trace

    def gated_parse(path: Path) -> TraceDump:
        parse_threads.append(threading.current_thread())
        gate.wait(WAIT_MS / 1000)
        return real_parse(path)

    monkeypatch.setattr(trace_ops, "parse_trace", gated_parse)
    ticks: list[int] = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: ticks.append(1))
    heartbeat.start()
    try:
        tab.show_trace(large)
        # The parse is stuck on the runner, and the GUI thread keeps running its timers.
        qtbot.waitUntil(lambda: bool(parse_threads) and len(ticks) >= 5, timeout=WAIT_MS)
        assert parse_threads[0] is not threading.main_thread()
        assert tab.detail.dump is not None and tab.detail.dump.path != large
        with qtbot.waitSignal(tab.trace_shown, timeout=WAIT_MS):
            gate.set()
    finally:
        gate.set()
        heartbeat.stop()

    detail = tab.detail
    assert detail.dump is not None and detail.dump.path == large
    events = detail.events.model
    assert events is not None and events.rowCount() == LARGE_EVENT_COUNT
    assert detail.tabs.tabText(detail.tabs.indexOf(detail.events.parentWidget())) == "Events (9000)"
    user_message = detail.attempt_pages[0].messages.viewer
    assert not user_message.is_complete  # only the start of a long text is in the widget
    assert len(user_message.editor.toPlainText()) < len(user_message.full_text)
    with qtbot.waitSignal(user_message.fully_loaded, timeout=WAIT_MS):
        qtbot.mouseClick(user_message.more_button, Qt.MouseButton.LeftButton)
    assert user_message.editor.toPlainText() == user_message.full_text  # appended in chunks

    detail.tabs.setCurrentWidget(detail.raw_view)
    raw = detail.raw_view.text_view
    assert not raw.is_complete
    assert len(raw.editor.toPlainText()) <= 256 * 1024
    assert raw.more_button.isVisibleTo(raw)
    assert detail.raw_view.copy_button.isEnabled()


def test_only_the_newest_selection_lands(
    home: Home, make_tab: TabFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab = make_tab(home)
    gate = threading.Event()
    started = threading.Event()
    real_parse = trace_ops.parse_trace

    def gated_parse(path: Path) -> TraceDump:
        started.set()
        gate.wait(WAIT_MS / 1000)
        return real_parse(path)

    monkeypatch.setattr(trace_ops, "parse_trace", gated_parse)
    shown: list[Path] = []
    tab.trace_shown.connect(lambda dump: shown.append(dump.path))
    try:
        tab.list_view.setCurrentIndex(tab.proxy.index(1, 0))  # its parse blocks the runner
        qtbot.waitUntil(started.is_set, timeout=WAIT_MS)
        tab.list_view.setCurrentIndex(tab.proxy.index(2, 0))  # queued, then superseded
        tab.list_view.setCurrentIndex(tab.proxy.index(3, 0))
        last = tab.selected_path()
        with qtbot.waitSignal(tab.trace_shown, timeout=WAIT_MS):
            gate.set()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: tab.detail.dump is not None and tab.detail.dump.path == last)
    assert shown == [last]


# --- live updates and show_trace -----------------------------------------------------------


def test_new_and_pruned_dumps_update_the_list_live(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    watcher = HomeWatcher(debounce_ms=50, max_latency_ms=300, polling_interval_s=0.05)
    changes = ChangeFeed(home)
    watcher.paths_changed.connect(changes.publish)
    watcher.start(home.root)
    try:
        tab = make_tab(home, changes)
        assert tab.model.rowCount() == 4
        new = install_dump(home, DARK_MODE_ID, fixture_dump("demo"), "1800000000000_new.json")
        qtbot.waitUntil(lambda: tab.model.row_of(new) is not None, timeout=WAIT_MS)
        assert tab.count_label.text() == "5 dumps"

        open_path(qtbot, tab, new)
        new.unlink()
        qtbot.waitUntil(lambda: tab.model.row_of(new) is None, timeout=WAIT_MS)
        assert tab.detail.stack.currentWidget() is tab.detail.placeholder
        assert "was deleted" in tab.detail.placeholder.text()
    finally:
        watcher.stop()


def test_show_trace_clears_filters_that_hide_the_dump(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    tab.workspace_filter.setCurrentIndex(tab.workspace_filter.findData(MULTI_ID))
    target = dump_path(home, DARK_MODE_ID, f"{OLD_FORMAT_STARTED}_m.json")
    dump = open_path(qtbot, tab, target)
    assert dump.path == target
    assert tab.workspace_filter.currentIndex() == 0
    assert tab.selected_path() == target


def test_show_trace_of_a_dump_the_list_has_not_seen_yet(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)  # no watcher: only show_trace's own rescan can find it
    new = install_dump(home, MULTI_ID, fixture_dump("old-format"), "1900000000000_fresh.json")
    with qtbot.waitSignal(tab.scan_finished, timeout=WAIT_MS):
        dump = open_path(qtbot, tab, new)
    assert dump.path == new
    qtbot.waitUntil(lambda: tab.selected_path() == new, timeout=WAIT_MS)
    assert tab.detail.dump is not None and tab.detail.dump.path == new


def test_rewritten_dump_is_reopened(home: Home, make_tab: TabFactory, qtbot: QtBot) -> None:
    tab = make_tab(home)
    target = dump_path(home, MAIN_ID, TRUNCATED_NAME)
    open_path(qtbot, tab, target)
    target.write_bytes(fixture_dump("demo").read_bytes())  # the rest of the write landed
    os.utime(target, ns=(1, 1))
    with qtbot.waitSignal(tab.trace_shown, timeout=WAIT_MS) as shown:
        tab.refresh()
    assert shown.args[0].file_problem is None
    assert not tab.detail.problem_banner.isVisibleTo(tab.detail)


# --- keyboard ------------------------------------------------------------------------------


def test_keyboard_moves_through_the_list_and_into_the_detail(
    home: Home, make_tab: TabFactory, qtbot: QtBot
) -> None:
    tab = make_tab(home)
    tab.activateWindow()
    tab.setFocus()
    assert tab.focusProxy() is tab.list_view
    with qtbot.waitSignal(tab.trace_shown, timeout=WAIT_MS) as shown:
        qtbot.keyClick(tab.list_view, Qt.Key.Key_Down)
    assert shown.args[0].path.name == f"{ODD_TYPES_STARTED}_1234567.json"
    # Tab order: the filters, the list, then the detail's sections.
    chain: list[object] = []
    widget = tab.workspace_filter.nextInFocusChain()
    while widget is not tab.workspace_filter and len(chain) < 200:
        chain.append(widget)
        widget = widget.nextInFocusChain()
    assert chain.index(tab.outcome_filter) < chain.index(tab.list_view)
    assert chain.index(tab.list_view) < chain.index(tab.detail.tabs)
    sections = tab.detail.tabs
    sections.setCurrentIndex(0)
    qtbot.keyClick(sections, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert sections.tabText(sections.currentIndex()) == "Memory"
