"""The check in the window, on the demo: the Check panel lists what `memtab check` finds
(the demo's projects not on this disk once each), file rows and the open file's lines are
marked, Apply fix goes through Consolidate now's review, and a change is checked again."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded
from gui.memory_tree_support import WindowFactory, action, wait_for
from memtab.check.records import CheckReport, Finding
from memtab.components.check import jobs as check_ops
from memtab.components.check.check import row_marks, shown_in
from memtab.demo import MAIN_ID, acme_api, webapp
from memtab.gui.check import feature
from memtab.gui.check.feature import CheckFeature, CheckPanel
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.tree.model import MARKS_ROLE
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.demo_homes import copied_demo_home, demo_home_moved_away

make_window = support.make_window

DEV_SETUP = parse_file_path("/memories/workspace/dev-setup.md")
DEV_SETUP_KEY = f"file:{DEV_SETUP}"


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def checked(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> tuple[MainWindow, CheckFeature]:
    window = make_window(demo, MAIN_ID)
    window.show()
    check = window.part(keys.CHECK)
    assert check is not None
    wait_for(qtbot, lambda: check.report is not None and not check.busy)
    return window, check


def kinds(findings: list[Finding]) -> list[tuple[str, str | None]]:
    return [(f.kind, f.project) for f in findings]


def test_the_panel_lists_the_findings_and_each_missing_project_once(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    moved = demo_home_moved_away(tmp_path / "moved")  # its projects' checkouts elsewhere
    window, check = checked(qtbot, make_window, moved)
    action(window, "check.panel").trigger()
    assert check.dock.isVisible()
    listed = check.panel.findings
    missing = [f.project for f in listed if f.kind == "project-missing"]
    assert sorted(missing) == [acme_api(moved), webapp(moved)]
    assert {"missing-path", "missing-script", "not-in-index", "disagreement"} <= {
        f.kind for f in listed
    }
    assert check.panel.list.topLevelItemCount() == len(listed)
    item = check.panel.list.topLevelItem(0)
    assert item is not None and item.text(3) == listed[0].message
    assert "memory files checked" in check.panel.status.text()

    model = window.memory_tab.model
    index = model.index_for_key(DEV_SETUP_KEY)
    assert index.isValid()
    assert [mark.text for mark in model.data(index, MARKS_ROLE)] == ["2 to check"]
    assert "The check found lines to look at" in model.data(index, Qt.ItemDataRole.ToolTipRole)


def test_the_panel_is_built_when_first_shown_with_what_the_checks_said_meanwhile(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The panel is no part of the settled window until it shows; the checks until then
    # are shown at once when it does: the last report's findings, the latest status.
    window, check = checked(qtbot, make_window, demo)
    assert check.dock.widget() is None and not check.dock.isVisible()
    found = check.report
    assert found is not None and found.findings
    monkeypatch.setattr(check._engine, "check", lambda _scope, _ctx: check_ops.NotChecked("gone"))
    check.check_now()
    wait_for(qtbot, lambda: not check.busy)
    assert check.dock.widget() is None

    action(window, "check.panel").trigger()
    assert check.dock.isVisible() and check.dock.widget() is check.panel
    assert check.panel.findings == list(found.findings)
    assert check.panel.list.topLevelItemCount() == len(found.findings)
    assert check.panel.status.text() == "Could not check: gone"
    check.check_now()  # from now on the panel follows at once
    assert check.panel.status.text() == "Checking…"
    wait_for(qtbot, lambda: not check.busy)


def test_the_open_file_s_lines_are_marked(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, check = checked(qtbot, make_window, demo)
    editor = window.memory_tab.controller.editor
    open_loaded(qtbot, editor, DEV_SETUP)
    wait_for(qtbot, lambda: editor.current_path == DEV_SETUP)
    wait_for(qtbot, lambda: check.line_marks.notes)
    notes = check.line_marks.notes
    assert sorted(notes) == [5, 6]  # lines 6 and 7
    assert "settings_local.py" in notes[5][0]
    assert check.line_marks.isVisible()
    assert window.memory_tab.controller.editor.text_edit.viewportMargins().right() > 0


def test_open_puts_the_cursor_on_the_finding_s_line(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, check = checked(qtbot, make_window, demo)
    action(window, "check.panel").trigger()
    (index,) = [i for i, f in enumerate(check.panel.findings) if f.kind == "missing-path"]
    finding = check.panel.findings[index]
    assert finding.line is not None
    check.panel.select(index)
    check.panel.open_button.click()
    editor = window.memory_tab.controller.editor
    wait_for(qtbot, lambda: editor.current_path == DEV_SETUP)
    text_edit = editor.text_edit
    wait_for(qtbot, lambda: text_edit.textCursor().blockNumber() > 0)
    line = text_edit.textCursor().block().text()
    assert text_edit.textCursor().blockNumber() == finding.line - 1  # lines count from 1
    assert "settings_local.py" in line, line


def test_enter_on_a_finding_opens_it(qtbot: QtBot) -> None:
    panel = CheckPanel()
    qtbot.addWidget(panel)
    finding = Finding(
        path="/memories/workspace/dev-setup.md",
        line=3,
        kind="missing-path",
        message="settings_local.py is not in the checkout",
        why="The memory names a file the code does not have.",
        scope="workspace",
    )
    panel.set_findings([finding])
    panel.select(0)
    panel.list.setFocus()
    with qtbot.waitSignal(panel.open_requested) as opened:
        qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    assert opened.args == [finding]


@pytest.mark.slow
def test_apply_fix_is_reviewed_like_consolidate_now_then_checked_again(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, check = checked(qtbot, make_window, demo)
    support.wait_watching(qtbot, window)
    action(window, "check.panel").trigger()
    (index,) = [i for i, f in enumerate(check.panel.findings) if f.kind == "missing-path"]
    check.panel.select(index)
    assert check.panel.fix_button.isEnabled()
    assert "Fix:" in check.panel.why.text()
    check.panel.fix_button.click()
    footer = window.memory_tab.controller.footer
    wait_for(qtbot, lambda: footer.review_dialog is not None, timeout=20_000)  # type: ignore[attr-defined]
    review = footer.review_dialog  # type: ignore[attr-defined]
    assert len(review.plan.proposed) == 1
    review.apply_button.click()
    physical = demo.workspace_root(MAIN_ID) / "dev-setup.md"
    wait_for(qtbot, lambda: "config/settings_local.py" in physical.read_text(), timeout=20_000)
    wait_for(
        qtbot,
        lambda: (
            check.report is not None
            and not any(f.kind == "missing-path" for f in check.report.findings)
        ),
        timeout=20_000,
    )


def test_a_change_on_disk_is_checked_again(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What is tested is that a change is checked again, not how long the disk stays quiet
    # first (2 s, idle).
    monkeypatch.setattr(feature, "RECHECK_DELAY_MS", 50)
    window, check = checked(qtbot, make_window, demo)
    support.wait_watching(qtbot, window)
    physical = demo.workspace_root(MAIN_ID) / "dev-setup.md"
    text = physical.read_text().replace("make serve", "make run-it-all")
    physical.write_text(text)
    wait_for(
        qtbot,
        lambda: (
            check.report is not None
            and any("run-it-all" in f.message for f in check.report.findings)
        ),
        timeout=20_000,
    )


def test_what_changes_is_checked_again_and_memtabs_own_files_are_not(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    # By the places the context's batches give: memory, the registry, a checkout or another
    # agent's file outside the home may change what the check finds; Memtab's own files
    # (history, locks, queues, sync), transcripts and dumps do not.
    window, check = checked(qtbot, make_window, demo)
    support.wait_watching(qtbot, window)
    window.watcher.stop()  # only the batches published here
    timer = check._recheck
    checked_again = [
        demo.workspace_root(MAIN_ID) / "dev-setup.md",
        demo.global_root,
        demo.config_path,
        demo.root,
        demo.root.parent / "checkout" / "Makefile",
        demo.root / "memtabby" / "x",
        demo.workspace_dir(MAIN_ID),  # it holds the workspace's memory
        demo.sessions_dir,
    ]
    not_checked_again = [
        demo.memtab_dir,
        demo.lock_path("meta"),
        demo.runs_log_path,
        demo.history_blobs_dir / "ab" / "cd.z",
        demo.history_index_dir / "global.jsonl",
        demo.memtab_dir / "suggestions" / f"{MAIN_ID}.json",
        demo.memtab_dir / "proposals" / "global.json",
        demo.sync_dir / "config.json",
        demo.sync_dir / "memory" / "repo.git" / "HEAD",
        demo.transcript_path(MAIN_ID),
        demo.trace_dir(MAIN_ID) / "1.json",
        demo.meta_path,
    ]
    for path in checked_again:
        timer.stop()
        window.context.changes.publish([str(path)])
        assert timer.isActive(), path
    for path in not_checked_again:
        timer.stop()
        window.context.changes.publish([str(path)])
        assert not timer.isActive(), path
    window.context.changes.publish(
        [str(path) for path in not_checked_again[:3]] + [str(demo.root.parent / "x")]
    )
    assert timer.isActive()
    timer.stop()


def test_the_heap_is_given_back_once_the_first_report_is_shown(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the first check freed goes back to the system as it ends, and what the start's
    # last steps freed once its report is shown (`fs.heap`), on the check's worker, not
    # the GUI thread; no more after. (That it happens, not how long after: 50 ms.)
    monkeypatch.setattr(feature, "HEAP_RELEASE_DELAY_MS", 50)
    events: list[str] = []
    show = CheckFeature._show

    def shown(self: CheckFeature, report: CheckReport) -> None:
        events.append("report shown")
        show(self, report)

    def release() -> bool:
        on_gui = threading.current_thread() is threading.main_thread()
        events.append("given back on the GUI thread" if on_gui else "given back")
        return True

    monkeypatch.setattr(CheckFeature, "_show", shown)
    monkeypatch.setattr(check_ops, "release_free_heap", release)
    monkeypatch.setattr(feature, "release_free_heap", release)
    window = make_window(demo, MAIN_ID)
    check = window.part(keys.CHECK)
    assert check is not None
    window.show()
    wait_for(qtbot, lambda: len(events) == 3 and not check.busy)
    assert events == ["given back", "report shown", "given back"]
    check.check_now()
    wait_for(qtbot, lambda: len(events) == 4 and not check.busy)
    qtbot.wait(100)  # no third time, however long after
    assert events == ["given back", "report shown", "given back", "report shown"]


def test_marks_are_for_what_the_shown_workspace_sees(demo: Home) -> None:
    from memtab.check.engine import CheckEngine

    report = CheckEngine(demo).check()
    shown = shown_in(report.findings, MAIN_ID, acme_api(demo))
    assert all(f.workspace in (None, MAIN_ID) for f in shown)
    elsewhere = shown_in(report.findings, "nobody", None)
    assert not any(f.scope == "workspace" and f.agent == "mux" for f in elsewhere)
    marks = row_marks(shown)
    assert marks[DEV_SETUP_KEY].text == "2 to check"
    assert not any(key.startswith("file:/memories/project") for key in marks)


def test_a_workspaces_folder_moved_away_takes_its_findings_and_brings_them_back(
    qtbot: QtBot,
    make_window: WindowFactory,
    demo: Home,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A scope that goes is its files going, in the Check as in the tree: the workspace's
    # folder moved away (its memory folder in it) is named alone in the watcher's batch.
    monkeypatch.setattr(feature, "RECHECK_DELAY_MS", 50)
    window, check = checked(qtbot, make_window, demo)
    support.wait_watching(qtbot, window)

    def dev_setup_findings() -> int:
        assert check.report is not None
        return sum(f.path.endswith("/dev-setup.md") for f in check.report.findings)

    assert dev_setup_findings() == 2
    away = tmp_path / "away"
    demo.workspace_dir(MAIN_ID).rename(away)
    wait_for(qtbot, lambda: not check.busy and dev_setup_findings() == 0, timeout=20_000)
    away.rename(demo.workspace_dir(MAIN_ID))
    wait_for(qtbot, lambda: not check.busy and dev_setup_findings() == 2, timeout=20_000)
