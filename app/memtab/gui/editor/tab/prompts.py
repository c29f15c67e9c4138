"""Where the editor asks the user: its inline message bar and its diff window.

Conflicts, disk changes, notes and errors are shown here, and the user's choice comes from
here. `EditorPrompts` shows a message with choices in the `MessageBar` (never a modal),
opens the diff window, computes the diff off the GUI thread (`components.editor.merge.compare`; the
latest diff job wins: a newer one, or closing the window, drops the older result) and
reports every choice by action id through `action_chosen` — the panel
(`editor.EditorPanel`) decides what it means, by the rules of `components.editor.session`.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from memtab.components import merge as choices
from memtab.components.editor.merge import Comparison, KeepBoth, MergeBasis, MergeOutcome, compare
from memtab.components.editor.session import MERGE, BarKind, Choice, default_choice
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.tasks.jobs import JobClient
from memtab.gui.toolkit.text import diff_view
from memtab.gui.toolkit.text.three_way import ThreeWayView

logger = logging.getLogger(__name__)

TaskSource = Callable[[], JobClient]
"""Gives the job client the diffs run on (one for every tab, made on first use)."""

_diff_keys = itertools.count(1)


class EditorPrompts(QObject):
    """The message bar and the diff window of one editor panel.

    Signals:
        action_chosen(str): an action id, from a bar button or a diff window button.
        dismissed(): the bar was closed by the user.
    """

    action_chosen = Signal(str)
    dismissed = Signal()

    def __init__(self, page: QWidget, tasks: TaskSource) -> None:
        """A hidden bar on `page`; `tasks()` gives the job client the diffs run on (shared
        by every tab: each tab's diff has its own key, the latest of which wins)."""
        super().__init__(page)
        self._page = page
        self._task_source = tasks
        self._tasks: JobClient | None = None
        self._diff_key = f"editor-diff-{next(_diff_keys)}"
        self._diff_dialog: diff_view.DiffDialog | None = None
        self._keep_both = KeepBoth()
        self._three_way: ThreeWayView | None = None
        self._filling = False  # the three-way view is being filled (not edited)
        self.bar = MessageBar(page)
        self.bar.action_triggered.connect(self._on_bar_action_triggered)
        self.bar.dismissed.connect(self._on_bar_dismissed)

    @property
    def diff_dialog(self) -> diff_view.DiffDialog | None:
        """The diff window, while one is open."""
        return self._diff_dialog

    @property
    def merge(self) -> MergeOutcome | None:
        """The text the open diff window's Keep both would put in place of the draft
        (`components.editor.merge.KeepBoth`); None when there is none."""
        view = self._three_way
        kept = view.merged_text() if view is not None and view.texts is not None else None
        return self._keep_both.outcome(kept)

    def show(self, kind: BarKind, text: str, choices: list[Choice] | None = None) -> None:
        """Show `text` in the bar with a button for each choice (Enter: the safe one)."""
        choices = choices or []
        self.bar.show_message(kind, text, choices, default=default_choice(choices))

    def clear(self) -> None:
        """Hide the bar."""
        self.bar.clear()

    def open_diff(
        self,
        title: str,
        old_label: str,
        old: str,
        new: str,
        choices: list[Choice],
        merge_basis: MergeBasis | None = None,
    ) -> None:
        """Open a window comparing `old` (red) with the draft `new` (green), offering
        `choices`; the diff (and, with `merge_basis`, the merge of the draft with `old`)
        is computed on the worker thread."""
        self.close_diff()
        dialog = diff_view.DiffDialog(title, old_label, "Your draft", choices, self._page)
        dialog.action_triggered.connect(self._on_diff_dialog_action_triggered)
        dialog.finished.connect(self._on_diff_dialog_finished)
        if merge_basis is not None:
            # Three ways: each side's changes tinted by who made them (the agent's added
            # line is not a red "−"), and the text to keep, which Keep both puts in place.
            self._three_way = ThreeWayView(dialog)
            self._three_way.merged_edited.connect(self._on_three_way_merged_edited)
            dialog.add_first_view(self._three_way, "Three ways")
        self._diff_dialog = dialog
        self._runner().submit_latest(
            self._diff_key, functools.partial(compare, old, new, merge_basis)
        )
        dialog.show()

    def close_diff(self) -> None:
        """Close the diff window, if open, and drop its diff job."""
        self._keep_both.reset()
        self._three_way = None
        if self._diff_dialog is not None:
            dialog, self._diff_dialog = self._diff_dialog, None
            dialog.finished.disconnect(self._on_diff_dialog_finished)
            dialog.close()
            dialog.deleteLater()
        if self._tasks is not None:
            self._tasks.cancel_latest(self._diff_key)

    def _runner(self) -> JobClient:
        if self._tasks is None:
            self._tasks = self._task_source()
            self._tasks.latest_finished.connect(self._on_tasks_latest_finished)
            self._tasks.latest_failed.connect(self._on_tasks_latest_failed)
        return self._tasks

    # --- slots ---------------------------------------------------------------------------

    @Slot(str)
    def _on_bar_action_triggered(self, action: str) -> None:
        self.action_chosen.emit(action)

    @Slot()
    def _on_bar_dismissed(self) -> None:
        self.dismissed.emit()

    @Slot(str)
    def _on_diff_dialog_action_triggered(self, action: str) -> None:
        self.action_chosen.emit(action)

    @Slot()
    def _on_three_way_merged_edited(self) -> None:
        dialog = self._diff_dialog
        if self._filling or dialog is None or not self._keep_both.text_edited():
            return
        with contextlib.suppress(KeyError):  # the user made a text to keep: it may be used
            button = dialog.button(MERGE)
            button.setEnabled(True)
            button.setText(choices.KEEP_TEXT.label)  # what it keeps now, as Resolve conflicts…
            button.setToolTip(choices.KEEP_TEXT.tip)

    @Slot(int)
    def _on_diff_dialog_finished(self, _result: int) -> None:
        self._keep_both.reset()
        self._three_way = None
        dialog, self._diff_dialog = self._diff_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if self._tasks is not None:
            self._tasks.cancel_latest(self._diff_key)

    @Slot(str, object)
    def _on_tasks_latest_finished(self, key: str, result: object) -> None:
        dialog = self._diff_dialog
        if key != self._diff_key or dialog is None or not isinstance(result, Comparison):
            return
        dialog.set_diff(result.diff)
        self._keep_both.merged(result.merge, result.disk_sha)
        if self._three_way is not None and result.three_way is not None:
            self._filling = True
            try:
                self._three_way.set_texts(result.three_way)
            finally:
                self._filling = False
        dialog.set_merge(result.merge)

    @Slot(str, str)
    def _on_tasks_latest_failed(self, key: str, message: str) -> None:
        if key == self._diff_key and self._diff_dialog is not None:
            self._diff_dialog.show_failure(message)
