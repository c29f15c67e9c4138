"""The consolidation footer's coverage lines: how recently each scope was consolidated.

One line per scope — `Workspace:`, `Project:` (or `unavailable`), `Global:`, each the
`coverage_text` of its record, counting the files that run changed in that scope
(docs/formats.md §9.6); `Session: never consolidated` when the workspace shows xum's
session scope (§3.1) — and `Harvest:` when mux wrote harvest records, with the last
harvest's error on the same line (their words: `components.consolidation`).
The lines show what the footer is given (`show_status`) and never read disk. Every value
elides (whole in its tooltip).
"""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QWidget

from memtab.components import glossary
from memtab.components.consolidation import (
    LINE_KEYS,
    WAITING,
    harvest_line,
    scope_lines,
)
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet
from memtab.gui.toolkit.widgets import ElidedLabel
from memtab.store.sidecars.journal import ConsolidationStatus

logger = logging.getLogger(__name__)


class CoverageLines(QWidget):
    """The grid of scope lines under the footer's header (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Empty lines; `show_status` or `show_waiting` fills them."""
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(22, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        self._keys: dict[str, QLabel] = {}
        self._values: dict[str, ElidedLabel] = {}
        for row, key in enumerate(LINE_KEYS):
            key_label = QLabel(f"{key}:", self)
            value = ElidedLabel("", self, min_width=0)
            value.setAccessibleName(f"{key} consolidation")
            grid.addWidget(key_label, row, 0)
            grid.addWidget(value, row, 1)
            self._keys[key] = key_label
            self._values[key] = value
        self._keys["Harvest"].setToolTip(glossary.HARVEST)
        # The last harvest's error, on the Harvest line (whole in its tooltip).
        self.harvest_error = ElidedLabel("", self, min_width=0)
        self.harvest_error.setAccessibleName("Harvest error")
        # In a widget of its own, hidden with the line: a layout whose widgets are all
        # hidden still counts in the grid, and left no width to the other values.
        self._harvest_row = QWidget(self)
        harvest = QHBoxLayout(self._harvest_row)
        harvest.setContentsMargins(0, 0, 0, 0)
        harvest.setSpacing(6)
        harvest.addWidget(self._values["Harvest"], 1)
        harvest.addWidget(self.harvest_error, 2)
        grid.addWidget(self._harvest_row, LINE_KEYS.index("Harvest"), 1)
        grid.setColumnStretch(1, 1)
        self._values["Session"].set_full_text(glossary.SESSION_NEVER_CONSOLIDATED, glossary.SESSION)
        self._keys["Session"].setToolTip(glossary.SESSION)
        self.show_session(False)

    def value(self, key: str) -> ElidedLabel:
        """The value label after `Workspace:`, `Project:`, `Global:`, `Session:` or
        `Harvest:`."""
        return self._values[key]

    def show_session(self, shown: bool) -> None:
        """Show the `Session:` line: the workspace shows xum's session scope, which no run
        consolidates."""
        for widget in (self._keys["Session"], self._values["Session"]):
            widget.setVisible(shown)

    def show_waiting(self) -> None:
        """A workspace whose status is not known yet: "…" on each scope's line."""
        for key in ("Workspace", "Project", "Global"):
            self._values[key].set_full_text(WAITING)
        self._set_harvest(None)

    def show_status(self, status: ConsolidationStatus) -> None:
        """Each scope's last run, and the last harvest when there is one."""
        muted = muted_text(self.palette()).name()
        for key, line in scope_lines(status).items():
            value = self._values[key]
            value.set_full_text(line.text, line.tooltip)
            set_style_sheet(value, f"color: {muted}" if line.muted else "")
        self._set_harvest(status)

    def apply_palette(self) -> None:
        """Muted keys, the harvest error in the error colour (light ↔ dark)."""
        palette = self.palette()
        muted = muted_text(palette).name()
        for key_label in self._keys.values():
            set_style_sheet(key_label, f"color: {muted}")
        set_style_sheet(self.harvest_error, f"color: {accent_text(palette, Accent.ERROR).name()}")

    def _set_harvest(self, status: ConsolidationStatus | None) -> None:
        harvest = harvest_line(status)
        for widget in (self._keys["Harvest"], self._harvest_row, self._values["Harvest"]):
            widget.setVisible(harvest is not None)
        error = harvest.error if harvest is not None else None
        self.harvest_error.setVisible(bool(error))
        self.harvest_error.set_full_text(error or "")
        if harvest is None:
            return
        self._values["Harvest"].set_full_text(harvest.text, harvest.tooltip)
        failed = harvest.error is not None
        color = accent_text(self.palette(), Accent.ERROR) if failed else None
        set_style_sheet(
            self._values["Harvest"], f"color: {color.name()}" if color is not None else ""
        )
