"""Shared helpers for the Memory tab's GUI tests: the window, fake dialogs, waiting.

The home they run on is `support.memory_home` (its `home` fixture is re-exported here,
for `home = support.home` in the test modules).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from memtab.components.files.copy import CopyChoice, CopyTarget
from memtab.components.files.ops import DeletionCount
from memtab.components.files.questions import NewKind
from memtab.components.jobs import JobContext
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.trust.jobs import NotRead, WindowTrust
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.trust.review import ChangesReview
from memtab.gui.window import keys
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.report import TrustReport
from support import memory_home
from support.memory_home import MAIN

# Only bounds a broken run: a passing test goes on as soon as its condition holds. Two test
# workers on a loaded 2-core machine can take several seconds to show a search or a rescan.
WAIT_MS = 20_000
LOOK_MS = 120_000
"""The same for a Trust look: a spawned child (`WindowTrust`), whose interpreter and engines
start in 8-16 s on that machine, the look itself a moment."""

home = memory_home.home  # the fixture, for `home = support.home` in the tests


class FakeDialogs:
    """Canned answers for `TabDialogs`; records what was asked."""

    def __init__(self) -> None:
        self.new_item: tuple[VirtualPath, str] | None = None
        self.move_target: VirtualPath | None = None
        self.confirm = True
        self.without_copy = False
        """The answer to "History cannot keep a copy": go on without one?"""
        self.dont_ask_again = False
        self.copy_to: Callable[[Sequence[CopyTarget]], CopyChoice | None] | None = None
        """Picks the Copy to… answer from the targets offered."""
        self.asked: list[tuple[object, ...]] = []
        self.deletions: list[DeletionCount] = []
        """What each delete question counted (files, hidden by the search)."""

    def ask_new_item(
        self, store: MemoryStore, location: VirtualPath, kind: NewKind
    ) -> tuple[VirtualPath, str] | None:
        self.asked.append(("new", location, kind))
        return self.new_item

    def ask_move_target(self, store: MemoryStore, source: VirtualPath) -> VirtualPath | None:
        self.asked.append(("move", source))
        return self.move_target

    def ask_copy_target(
        self, label: str, targets: Sequence[CopyTarget], name: str, topic_type: str | None
    ) -> CopyChoice | None:
        self.asked.append(("copy", label, name, topic_type))
        return self.copy_to(targets) if self.copy_to is not None else None

    def confirm_delete(
        self, names: list[str], count: DeletionCount, only_files: bool, loses_draft: bool
    ) -> bool:
        self.asked.append(("delete", tuple(names), count.files, loses_draft))
        self.deletions.append(count)
        return self.confirm

    def confirm_without_copy(self, refusal: str, done: str) -> bool:
        self.asked.append(("without-copy", refusal, done))
        return self.without_copy

    def confirm_delete_orphan(self, dir_name: str, file_count: int) -> bool:
        self.asked.append(("delete-orphan", dir_name, file_count))
        return self.confirm

    def confirm_cross_scope_move(self, names: list[str], target: str) -> tuple[bool, bool]:
        self.asked.append(("cross-scope", tuple(names), target))
        return self.confirm, self.confirm and self.dont_ask_again


WindowFactory = Callable[..., MainWindow]


NO_BACKGROUND_RUNS = "no_background_runs"
"""A test module's mark (`pytestmark = pytest.mark.no_background_runs`): its windows run
no memory writer and no check against the code at their start (`start_writer`,
`start_check` False unless a test asks for them) — ~20 ms of CPU a window, a fifth of
its cost, for modules whose tests touch neither. The writer's, the check's and the
window-wide tests (the GUI-thread I/O guard, layout, keys, menus) keep whole windows."""


@pytest.fixture
def make_window(
    qtbot: QtBot, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[WindowFactory]:
    """Build windows with `create_main_window`, waiting for the first scan; closes them."""
    windows: list[MainWindow] = []
    quiet = request.node.get_closest_marker(NO_BACKGROUND_RUNS) is not None

    def make(home: Home, workspace_id: str | None = MAIN, **options: object) -> MainWindow:
        options.setdefault("ui_state", UiState(tmp_path / f"ui-{len(windows)}.json"))
        options.setdefault("watcher", HomeWatcher(debounce_ms=30, max_latency_ms=300))
        if quiet:
            options.setdefault("start_writer", False)
            options.setdefault("start_check", False)
        window = create_main_window(home, workspace_id, **options)  # type: ignore[arg-type]
        qtbot.addWidget(window)
        windows.append(window)
        qtbot.waitUntil(lambda: window.memory_tab.is_loaded, timeout=WAIT_MS)
        return window

    yield make
    for window in windows:
        window.close_without_asking()


def wait_watching(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until the window's watcher runs (it starts just after the first scan)."""
    qtbot.waitUntil(lambda: window.watcher.root is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)


def activate(qtbot: QtBot, window: MainWindow) -> None:
    """Show and activate the window: keyboard shortcuts need an active window."""
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)


def wait_for(qtbot: QtBot, condition: Callable[[], object], timeout: int = WAIT_MS) -> None:
    qtbot.waitUntil(lambda: bool(condition()), timeout=timeout)


def wait_for_look(qtbot: QtBot, trust: TrustFeature) -> None:
    """Wait until the Trust look asked for (`find_now`) has its report."""
    qtbot.waitUntil(lambda: trust.report is not None and not trust.busy, timeout=LOOK_MS)


def trust_looked(
    qtbot: QtBot, make_window: WindowFactory, home: Home, workspace_id: str
) -> tuple[MainWindow, TrustFeature]:
    """A window on `home`, shown, once Trust looked (not after the start's delay)."""
    window = make_window(home, workspace_id)
    window.show()
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    return window, trust


def model_confirmed(
    monkeypatch: pytest.MonkeyPatch, chosen: Callable[[DuplicateGroup], bool]
) -> None:
    """Trust's look answering with the candidates `chosen` picks confirmed by the user's
    model (what Ask the model makes of one): findings it judged, with their actions."""
    real = WindowTrust.find

    def find(self: WindowTrust, ctx: JobContext) -> TrustReport | NotRead | None:
        report = real(self, ctx)
        if not isinstance(report, TrustReport):
            return report
        picked = tuple(g for g in report.duplicate_candidates if chosen(g))
        judged = tuple(g.replaced(judged_by="judge-1", reason="the same") for g in picked)
        return replace(
            report,
            duplicates=(*report.duplicates, *judged),
            duplicate_candidates=tuple(g for g in report.duplicate_candidates if g not in picked),
        )

    monkeypatch.setattr(WindowTrust, "find", find)


def trust_review(qtbot: QtBot, trust: TrustFeature) -> ChangesReview:
    """The review a Trust action opened, once it shows."""
    qtbot.waitUntil(lambda: trust.review is not None and trust.review.isVisible(), timeout=WAIT_MS)
    assert trust.review is not None
    return trust.review


def wait_idle(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until the Memory tab has nothing left to scan, search, run or merge (instead
    of sleeping before asserting that something did not happen)."""
    qtbot.waitUntil(lambda: window.memory_tab.is_idle, timeout=WAIT_MS)


def choose_target(qtbot: QtBot, panel: InboxPanel, path: str) -> None:
    """Choose the file the Inbox accepts into, once its chooser offers `path`: the files
    it offers are listed off the GUI thread and may come after the items were selected."""
    qtbot.waitUntil(lambda: panel.target.combo.findData(path) >= 0, timeout=WAIT_MS)
    panel.target.choose(path)


def refresh_menus(qtbot: QtBot, window: MainWindow) -> None:
    """Ask the menus' texts and states as they show once the file operations asked for
    have ended (while one runs, Undo cannot name its step yet: it says "Undo")."""
    qtbot.waitUntil(lambda: not window.context.file_ops.busy, timeout=WAIT_MS)
    window.part(keys.MENUS).refresh()


def action(window: MainWindow, action_id: str) -> QAction:
    """The window's action registered as `action_id` ("files.undo", "tree.delete")."""
    return window.context.actions.action(action_id)


def node(window: MainWindow, key: str) -> TreeNode | None:
    """The tree node with `key`, if shown."""
    return window.memory_tab.model.node_for_key(key)


def file_names(window: MainWindow) -> list[str]:
    """Every file row, as `section:name`, in tree order."""
    return [
        f"{item.section}:{item.name}"
        for item in window.memory_tab.model.nodes()
        if item.kind is NodeKind.FILE
    ]
