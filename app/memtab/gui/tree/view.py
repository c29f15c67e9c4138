"""The scope tree's view: selection and expansion by row key, the context menu (mouse or
keyboard), drag and drop, the room the Memory tab's overlay takes at its bottom
(`reserve_bottom`), and what waits for its next paint (`after_next_paint`: the start-up
steps). How each row looks is `MemoryItemDelegate`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6 import QtCore
from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from memtab import humanize
from memtab.components.activity.badges import Badge
from memtab.components.search.highlight import highlight_spans
from memtab.components.tree.marks import RowMark
from memtab.components.tree.nodes import MessageKind, NodeKind, TreeNode
from memtab.components.tree.row_fit import Pill, PillTone, file_pills, pills_kept
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.icons import tinted_pixmap
from memtab.gui.toolkit.paint import fill, paint_row_panel
from memtab.gui.toolkit.style import Accent, accent_text, blend, muted
from memtab.gui.tree.model import BADGE_ROLE, MARKS_ROLE, NODE_ROLE, MemoryTreeModel

_PAD_X = 6
_ICON = 16
_GAP = 6
# Text alignments, combined once: combining enum flags in Python takes microseconds, and
# a row is painted with several.
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_COLOR_SETS_KEPT = 8  # palettes × selection states; more only after theme switches


class _Colors:
    """The colours of one row, from the palette and selection state."""

    def __init__(self, palette: QPalette, selected: bool) -> None:
        group = QPalette.ColorGroup.Normal
        if selected:
            self.text = palette.color(group, QPalette.ColorRole.HighlightedText)
            background = palette.color(group, QPalette.ColorRole.Highlight)
        else:
            self.text = palette.color(group, QPalette.ColorRole.Text)
            background = palette.color(group, QPalette.ColorRole.Base)
        self.muted = muted(self.text, background)
        self.faint = blend(self.text, background, 0.6)
        self.accent = self.text if selected else accent_text(palette, Accent.INFO)
        self.badge_fill = QColor(self.accent)
        self.badge_fill.setAlphaF(0.3 if selected else 0.16)
        self.error = self.text if selected else accent_text(palette, Accent.ERROR)
        self.pin = self.text if selected else accent_text(palette, Accent.WARNING)
        self._pills: dict[PillTone, tuple[QColor, QColor | None]] = {
            PillTone.MUTED: (self.muted, None),
            PillTone.BADGE: (self.accent, self.badge_fill),
            PillTone.ERROR: (self.error, None),
            PillTone.NOTE: (self.pin, None),
            PillTone.FAINT: (self.faint, None),
        }

    def of(self, tone: PillTone) -> tuple[QColor, QColor | None]:
        """A pill's colour and ground."""
        return self._pills[tone]


class MemoryItemDelegate(QStyledItemDelegate):
    """Paints the tree's rows — sections, folders, sources, files with their badges, marks
    and description, messages, search matches — in the palette's colours; no editors."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.highlight_terms: tuple[str, ...] = ()
        # Row heights by (font, kind, two lines): sizeHint runs for every row on layout.
        self._heights: dict[tuple[str, NodeKind, bool], int] = {}
        # A row's colours by (palette, selected): every row of a paint uses the same few.
        self._colors: dict[tuple[int, bool], _Colors] = {}

    @staticmethod
    def _small_font(font: QFont) -> QFont:
        small = QFont(font)
        small.setPointSizeF(max(6.0, font.pointSizeF() * 0.9))
        return small

    @staticmethod
    def _section_font(font: QFont) -> QFont:
        section = QFont(font)
        section.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        section.setBold(True)
        section.setCapitalization(QFont.Capitalization.AllUppercase)
        section.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 106)
        return section

    @staticmethod
    def _has_second_line(node: TreeNode) -> bool:
        return bool(node.description or node.access_count > 0)

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Row heights by kind: files with a description or usage get two lines."""
        node = index.data(NODE_ROLE)
        if not isinstance(node, TreeNode):
            kind, two_lines = NodeKind.DIRECTORY, False
        else:
            kind, two_lines = node.kind, node.kind is NodeKind.FILE and self._has_second_line(node)
        font: QFont = option.font
        cache_key = (font.key(), kind, two_lines)
        height = self._heights.get(cache_key)
        if height is None:
            line = QFontMetrics(font).height()
            if kind is NodeKind.SECTION:
                height = line + 16
            elif two_lines:
                height = line + QFontMetrics(self._small_font(font)).height() + 12
            elif kind is NodeKind.MESSAGE:
                height = line + 12
            else:
                height = line + 10
            self._heights[cache_key] = height
        return QSize(200, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        node = index.data(NODE_ROLE)
        if not isinstance(node, TreeNode):
            super().paint(painter, option, index)
            return
        selected, focused = paint_row_panel(painter, option, index, self)
        colors = self._row_colors(option.palette, selected)
        rect: QRect = option.rect.adjusted(_PAD_X, 0, -_PAD_X, 0)
        dpr = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.save()
        painter.setClipRect(option.rect)
        if focused:
            self._paint_focus(painter, option.rect, colors)
        font = QFont(option.font)
        if node.kind is NodeKind.SECTION:
            self._paint_section(painter, rect, node, font, colors)
        elif node.kind is NodeKind.FILE:
            badge = index.data(BADGE_ROLE)
            label = badge.label if isinstance(badge, Badge) else None
            marks = index.data(MARKS_ROLE)
            self._paint_file(painter, rect, node, font, colors, label, dpr, marks or ())
        elif node.kind is NodeKind.MESSAGE:
            self._paint_message(painter, rect, node, font, colors)
        elif node.kind is NodeKind.MATCH:
            self._paint_match(painter, rect, node, font, colors)
        else:
            self._paint_directory(painter, rect, node, font, colors, dpr)
        painter.restore()

    def _row_colors(self, palette: QPalette, selected: bool) -> _Colors:
        key = (palette.cacheKey(), selected)
        colors = self._colors.get(key)
        if colors is None:
            if len(self._colors) >= _COLOR_SETS_KEPT:
                self._colors.clear()
            colors = self._colors[key] = _Colors(palette, selected)
        return colors

    @staticmethod
    def _paint_focus(painter: QPainter, rect: QRect, colors: _Colors) -> None:
        """The keyboard's row: an outline, so the tree shows where the keys act from the
        start (the native focus frame is not drawn by this delegate)."""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colors.accent, 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(rect).adjusted(1.5, 1.5, -1.5, -1.5), 3.0, 3.0)
        painter.restore()

    def _paint_section(
        self, painter: QPainter, rect: QRect, node: TreeNode, font: QFont, colors: _Colors
    ) -> None:
        title_font = self._section_font(font)
        metrics = QFontMetrics(title_font)
        count = str(node.file_count)
        if node.total_count is not None:
            count = f"{node.file_count} of {node.total_count}"
        small = self._small_font(font)
        small_metrics = QFontMetrics(small)
        count_width = small_metrics.horizontalAdvance(count)
        painter.setFont(small)
        painter.setPen(colors.muted)
        painter.drawText(rect, _RIGHT, count)
        painter.setFont(title_font)
        painter.setPen(blend(colors.text, colors.muted, 0.35))
        title_width = metrics.horizontalAdvance(node.name)
        painter.drawText(rect, _LEFT, node.name)
        if node.subtitle:
            room = rect.width() - title_width - count_width - 3 * _GAP
            subtitle = small_metrics.elidedText(node.subtitle, Qt.TextElideMode.ElideRight, room)
            painter.setFont(small)
            painter.setPen(colors.muted)
            sub_rect = rect.adjusted(title_width + 2 * _GAP, 0, 0, 0)
            painter.drawText(sub_rect, _LEFT, subtitle)

    def _paint_directory(
        self,
        painter: QPainter,
        rect: QRect,
        node: TreeNode,
        font: QFont,
        colors: _Colors,
        dpr: float,
    ) -> None:
        name = f"agent-{node.agent}" if node.kind is NodeKind.SOURCE else "folder"
        icon = tinted_pixmap(name, colors.muted, _ICON, dpr)
        top = rect.top() + (rect.height() - _ICON) // 2
        painter.drawPixmap(rect.left(), top, icon)
        small = self._small_font(font)
        count = str(node.file_count)
        count_width = QFontMetrics(small).horizontalAdvance(count)
        painter.setFont(small)
        painter.setPen(colors.faint)
        painter.drawText(rect, _RIGHT, count)
        text_rect = rect.adjusted(_ICON + _GAP, 0, -(count_width + _GAP), 0)
        painter.setFont(font)
        painter.setPen(colors.text)
        name = QFontMetrics(font).elidedText(
            node.name, Qt.TextElideMode.ElideMiddle, text_rect.width()
        )
        painter.drawText(text_rect, _LEFT, name)
        if node.subtitle:  # a source's "consolidated 5 d ago", after its name
            shift = QFontMetrics(font).horizontalAdvance(name) + 2 * _GAP
            room = text_rect.width() - shift
            if room > 0:
                small_metrics = QFontMetrics(small)
                subtitle = small_metrics.elidedText(
                    node.subtitle, Qt.TextElideMode.ElideRight, room
                )
                painter.setFont(small)
                painter.setPen(colors.muted)
                painter.drawText(
                    text_rect.adjusted(shift, 0, 0, 0),
                    _LEFT,
                    subtitle,
                )

    def _paint_message(
        self, painter: QPainter, rect: QRect, node: TreeNode, font: QFont, colors: _Colors
    ) -> None:
        italic = QFont(font)
        italic.setItalic(node.message_kind is not MessageKind.ERROR)
        painter.setFont(italic)
        painter.setPen(colors.error if node.message_kind is MessageKind.ERROR else colors.muted)
        text = QFontMetrics(italic).elidedText(node.name, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, _LEFT, text)

    def _paint_match(
        self, painter: QPainter, rect: QRect, node: TreeNode, font: QFont, colors: _Colors
    ) -> None:
        match = node.line_match
        if match is None:
            return
        small = self._small_font(font)
        small_metrics = QFontMetrics(small)
        number = str(match.line + 1)
        number_width = max(
            small_metrics.horizontalAdvance("0000"), small_metrics.horizontalAdvance(number)
        )
        painter.setFont(small)
        painter.setPen(colors.faint)
        painter.drawText(
            QRect(rect.left(), rect.top(), number_width, rect.height()),
            _RIGHT,
            number,
        )
        left = rect.left() + number_width + _GAP
        room = max(0, rect.right() - left)
        lead = "…" if match.cut else ""  # the line starts further left
        text = small_metrics.elidedText(lead + node.name, Qt.TextElideMode.ElideRight, room)
        shift = len(lead)
        spans = [
            (start + shift, min(end + shift, len(text)))
            for start, end in match.spans
            if start + shift < len(text)
        ]
        self._paint_spans(painter, text, spans, small, rect, left, colors.text, colors.badge_fill)

    def _paint_file(
        self,
        painter: QPainter,
        rect: QRect,
        node: TreeNode,
        font: QFont,
        colors: _Colors,
        badge_label: str | None,
        dpr: float,
        marks: Sequence[RowMark] = (),
    ) -> None:
        metrics = QFontMetrics(font)
        small = self._small_font(font)
        small_metrics = QFontMetrics(small)
        two_lines = self._has_second_line(node)
        if two_lines:
            line1 = QRect(rect.left(), rect.top() + 5, rect.width(), metrics.height())
            line2 = QRect(rect.left(), line1.bottom() + 2, rect.width(), small_metrics.height())
        else:
            line1 = QRect(rect.left(), rect.top(), rect.width(), rect.height())
            line2 = QRect()
        icon_top = line1.top() + (line1.height() - _ICON) // 2
        painter.drawPixmap(rect.left(), icon_top, tinted_pixmap("file", colors.muted, _ICON, dpr))
        left = rect.left() + _ICON + _GAP
        right = rect.right()

        # First line, right to left: the pills, then name and pin (`first_line`).
        painter.setFont(small)
        name, pills = self.first_line(node, badge_label, marks, font, right - left, colors)
        for text, color, background in pills:
            right = self._paint_pill(painter, text, line1, right, color, background)
        name_end = self._paint_highlighted(painter, name, font, line1, left, colors.text)
        if node.pinned:
            size = _ICON - 2
            pin = tinted_pixmap("pin", colors.pin, size, dpr)
            painter.drawPixmap(name_end + 4, line1.top() + (line1.height() - size) // 2, pin)
        if not two_lines:
            return

        usage = humanize.usage_text(node.access_count, node.last_accessed_at)
        usage_width = small_metrics.horizontalAdvance(usage) if usage else 0
        painter.setFont(small)
        if usage:
            painter.setPen(colors.faint)
            painter.drawText(line2, _RIGHT, usage)
        if node.description:
            room = line2.width() - (_ICON + _GAP) - (usage_width + 2 * _GAP if usage else 0)
            text = small_metrics.elidedText(node.description, Qt.TextElideMode.ElideRight, room)
            self._paint_highlighted(painter, text, small, line2, left, colors.muted)

    def first_line(
        self,
        node: TreeNode,
        badge_label: str | None,
        marks: Sequence[RowMark],
        font: QFont,
        width: int,
        colors: _Colors | None = None,
    ) -> tuple[str, list[tuple[str, QColor, QColor | None]]]:
        """What a file row's first line shows in `width` pixels right of its icon: the name
        (elided only when it does not fit alone) and the pills kept beside it, right to left
        — hit count, agent-edited badge, the warning, the marks, the tag (`row_fit`)."""
        colors = colors or self._row_colors(QPalette(), False)
        metrics = QFontMetrics(font)
        small_metrics = QFontMetrics(self._small_font(font))
        pills = file_pills(node, badge_label, marks)
        pin_room = _ICON - 2 + _GAP if node.pinned else 0
        sizes = [Pill(small_metrics.horizontalAdvance(pill.text) + 10, pill.rank) for pill in pills]
        name_width = metrics.horizontalAdvance(node.name) + pin_room
        kept = pills_kept(name_width, sizes, width - _GAP, _GAP)
        shown = [
            (pill.text, *colors.of(pill.tone)) for pill, on in zip(pills, kept, strict=True) if on
        ]
        used = sum(size.width + _GAP for size, on in zip(sizes, kept, strict=True) if on)
        name_room = max(0, width - used - pin_room - _GAP)
        return metrics.elidedText(node.name, Qt.TextElideMode.ElideMiddle, name_room), shown

    def _paint_highlighted(
        self, painter: QPainter, text: str, font: QFont, line: QRect, left: int, color: QColor
    ) -> int:
        """Draw `text` with the search terms in bold; return where it ends."""
        spans = highlight_spans(text, self.highlight_terms) if self.highlight_terms else []
        return self._paint_spans(painter, text, spans, font, line, left, color, None)

    @staticmethod
    def _paint_spans(
        painter: QPainter,
        text: str,
        spans: Sequence[tuple[int, int]],
        font: QFont,
        line: QRect,
        left: int,
        color: QColor,
        background: QColor | None,
    ) -> int:
        """Draw `text` with `spans` in bold (on `background`, if given); return where it
        ends."""
        bold = QFont(font)
        bold.setBold(True)
        x = left
        position = 0
        pieces: list[tuple[str, QFont]] = []
        for start, end in spans:
            if start > position:
                pieces.append((text[position:start], font))
            pieces.append((text[start:end], bold))
            position = end
        if position < len(text):
            pieces.append((text[position:], font))
        for piece, piece_font in pieces:
            painter.setFont(piece_font)
            width = QFontMetrics(piece_font).horizontalAdvance(piece)
            if background is not None and piece_font is bold:
                height = QFontMetrics(piece_font).height()
                box = QRect(x - 1, line.top() + (line.height() - height) // 2, width + 2, height)
                fill(painter, box, background)
            painter.setPen(color)
            painter.drawText(
                QRect(x, line.top(), width + 2, line.height()),
                _LEFT,
                piece,
            )
            x += width
        return x

    @staticmethod
    def _paint_pill(
        painter: QPainter,
        text: str,
        line: QRect,
        right: int,
        color: QColor,
        background: QColor | None,
    ) -> int:
        """A small rounded label ending at `right`; returns where the next one may end."""
        metrics = QFontMetrics(painter.font())
        width = metrics.horizontalAdvance(text) + 10
        height = min(line.height(), metrics.height() + 2)
        box = QRect(right - width, line.top() + (line.height() - height) // 2, width, height)
        if background is not None:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(background)
            painter.drawRoundedRect(box, height / 2, height / 2)
        painter.setPen(color)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        return box.left() - _GAP


ModelIndex = QModelIndex | QPersistentModelIndex
# How long what waits for a paint waits at most: a minimised window paints nothing.
PAINT_WAIT_MS = 250


def own_viewport(view: QTreeView) -> QWidget:
    """A viewport for `view` made in Python, set up as Qt sets up its own: shiboken then
    knows its type (Qt's own made it build every QWidget subclass, ~8 ms at start-up)."""
    viewport = QWidget(view)
    viewport.setObjectName("qt_scrollarea_viewport")  # Qt's name (style sheets match it)
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setAutoFillBackground(True)
    return viewport


class _AfterPaint(QObject):
    """Runs what waits for a view's next paint right after it (`after_next_paint`)."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self._view = view
        self._waiting: list[Callable[[], object]] = []
        self._no_paint = qtimer(self, self._run, PAINT_WAIT_MS)

    def add(self, then: Callable[[], object]) -> None:
        if not self._view.isVisible():
            then()  # nothing will paint
            return
        if not self._waiting:
            self._view.viewport().installEventFilter(self)
            self._no_paint.start()
        self._waiting.append(then)
        self._view.viewport().update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The viewport's paint: what waits runs once it is done."""
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self._run)
        return False

    def _run(self) -> None:
        if not self._waiting:
            return
        self._view.viewport().removeEventFilter(self)
        self._no_paint.stop()
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()


class MemoryTreeView(QTreeView):
    """The one tree of the Memory tab: sections, directories and files; drag to move."""

    # where (in viewport coordinates) a context menu was asked for — by mouse, or by keyboard for
    # the current row
    context_menu_requested = Signal(QPoint)
    _bottom_reserve = 0  # `reserve_bottom` (a class default: Qt asks before __init__ ends)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Configure the view (the model is set by the tab)."""
        super().__init__(parent)
        self.setViewport(own_viewport(self))
        self.setObjectName("memoryTree")
        self.setAccessibleName("Memory files")
        self.setHeaderHidden(True)
        self.setUniformRowHeights(False)
        self.setIndentation(14)
        self.setAnimated(False)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setItemDelegate(MemoryItemDelegate(self))
        # Qt fetches a container's rows on expanding only while the view is laid out on
        # screen; a fill on `expanded` also covers a hidden or not yet painted view.
        self.expanded.connect(self._on_expanded)
        self._after_paint = _AfterPaint(self)

    def after_next_paint(self, then: Callable[[], object]) -> None:
        """Run `then` right after the rows' next paint — at once when the view is not
        shown, and after `PAINT_WAIT_MS` when no paint comes (a minimised window)."""
        self._after_paint.add(then)

    def reserve_bottom(self, height: int) -> None:
        """Keep the bottom `height` pixels free of rows: panels lie over them
        (`memory_tab.overlay`); the last rows scroll up above them."""
        if height != self._bottom_reserve:
            self._bottom_reserve = height
            self.updateGeometries()

    def updateGeometries(self) -> None:
        """Qt's (which sets the viewport's margins for the hidden header), then the
        bottom margin `reserve_bottom` asked for."""
        super().updateGeometries()
        if self._bottom_reserve:
            self.setViewportMargins(0, 0, 0, self._bottom_reserve)

    def _on_expanded(self, index: QModelIndex) -> None:
        node = self.node_at(index)
        if node is not None and node.unfilled_files:
            self.memory_model().fill(node)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Mouse: where clicked; keyboard (Menu key, Shift+F10): at the current row."""
        position = event.pos()
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            current = self.currentIndex()
            if current.isValid():
                position = self.visualRect(current).center()
        self.context_menu_requested.emit(position)
        event.accept()

    @property
    def delegate(self) -> MemoryItemDelegate:
        delegate = self.itemDelegate()
        assert isinstance(delegate, MemoryItemDelegate)
        return delegate

    def as_widget(self) -> QWidget:
        """The tree as a widget: what the file actions' keys work on while it has the focus."""
        return self

    def memory_model(self) -> MemoryTreeModel:
        model = self.model()
        assert isinstance(model, MemoryTreeModel)
        return model

    def is_file_row(self, index: ModelIndex) -> bool:
        """Whether the row at `index` is a file (or a search match in one)."""
        node = self.node_at(index)
        return node is not None and node.kind in (NodeKind.FILE, NodeKind.MATCH)

    def node_at(self, index: ModelIndex) -> TreeNode | None:
        """The node of an index of this view's model."""
        node = index.data(NODE_ROLE) if index.isValid() else None
        return node if isinstance(node, TreeNode) else None

    def current_node(self) -> TreeNode | None:
        return self.node_at(self.currentIndex())

    def selectAll(self) -> None:
        """Ctrl+A: every file and folder row shown (what Delete, a drag or Copy to… act
        on), never a section header, a message or a search result's line."""
        model = self.memory_model()
        selection = QtCore.QItemSelection()
        for node in model.nodes():
            if node.kind not in (NodeKind.FILE, NodeKind.DIRECTORY):
                continue
            index = model.index_for_node(node)
            parent = index.parent()
            while parent.isValid() and self.isExpanded(parent):
                parent = parent.parent()
            if not parent.isValid():  # every row above it is open
                selection.select(index, index)
        flags = QtCore.QItemSelectionModel.SelectionFlag
        self.selectionModel().select(selection, flags.ClearAndSelect | flags.Rows)

    def selected_nodes(self) -> list[TreeNode]:
        """The nodes of the selected rows, in tree order, falling back to the current row."""
        nodes = [self.node_at(index) for index in self.selectionModel().selectedRows()]
        chosen = [node for node in nodes if node is not None]
        if not chosen:
            current = self.current_node()
            return [current] if current is not None else []
        model = self.memory_model()
        order = {node.key: position for position, node in enumerate(model.nodes())}
        return sorted(chosen, key=lambda node: order.get(node.key, 0))

    def expanded_keys(self) -> set[str]:
        """Keys of every expanded row."""
        model = self.memory_model()
        return {
            node.key
            for node in model.nodes()
            if (node.children or node.unfilled_files)
            and self.isExpanded(model.index_for_node(node))
        }

    def set_expanded_keys(self, keys: Iterable[str], *, collapse_others: bool = False) -> None:
        """Expand the rows with these keys, parents first (and, optionally, collapse every
        other)."""
        model = self.memory_model()
        wanted = set(keys)
        if not collapse_others:
            found = (model.node_for_key(key) for key in wanted)
            shown = [node for node in found if node is not None]
            for node in sorted(shown, key=_depth):
                if node.children or node.unfilled_files:
                    self.setExpanded(model.index_for_node(node), True)
            return
        for node in model.nodes():
            if not node.children and not node.unfilled_files:
                continue
            index = model.index_for_node(node)
            if node.key in wanted:
                self.setExpanded(index, True)
            elif collapse_others:
                self.setExpanded(index, False)

    def select_key(self, key: str) -> bool:
        """Make the row with `key` current and selected, scrolled into view (filling its
        container first if its rows are not built yet)."""
        model = self.memory_model()
        node = model.reveal(key)
        if node is None:
            return False
        index = model.index_for_node(node)
        parent = index.parent()
        while parent.isValid():
            self.setExpanded(parent, True)
            parent = parent.parent()
        self.setCurrentIndex(index)
        self.scrollTo(index)
        return True


def _depth(node: TreeNode) -> int:
    """How many rows are above `node` (a section's: 0)."""
    depth, parent = -1, node.parent
    while parent is not None:
        depth, parent = depth + 1, parent.parent
    return depth
