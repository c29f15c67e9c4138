"""Keys typed into a tab whose file is still being read, held and sent again in order once its
text is there (`release`), or dropped when another file opens (`drop`). Shortcuts act as
ever; mouse paste, drop and the context menu are refused while holding.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from memtab.components.editor.panel import Held
from memtab.gui.toolkit.clock import qtimer

_REFUSED = (
    QEvent.Type.ContextMenu,
    QEvent.Type.DragEnter,
    QEvent.Type.DragMove,
    QEvent.Type.Drop,
    QEvent.Type.InputMethod,
)
"""What would put text into a field other than a key press (refused while holding)."""


class HeldKeys(QObject):
    """Holds the key presses meant for `fields` while `holding` (see the module docstring);
    `surfaces()` (a text field's viewport, asked for anew each time: Qt may replace it)
    take the mouse and drops for a field."""

    def __init__(
        self,
        fields: list[QWidget],
        surfaces: Callable[[], list[QWidget]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._fields = list(fields)
        self._surfaces = surfaces
        self._watched: list[QWidget] = []
        self._held: Held[tuple[QWidget, QKeyEvent]] = Held()

    def hold(self) -> None:
        """Hold the key presses from now on (what is held already stays: the same file
        is read again)."""
        if self._held.hold():
            self._watched = [*self._fields, *self._surfaces()]
            for widget in self._watched:
                widget.installEventFilter(self)

    def release(self) -> None:
        """Stop holding and send the held key presses again, in order, to their widgets."""
        held, _was_holding = self._held.release()
        self._unwatch()
        for widget, event in held:
            QApplication.sendEvent(widget, event)

    def drop(self) -> None:
        """Stop holding; what was held is dropped."""
        self._held.drop()
        self._unwatch()

    def _unwatch(self) -> None:
        watched, self._watched = self._watched, []
        for widget in watched:
            if isValid(widget):  # a viewport Qt replaced is gone, and its filter
                widget.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self._held.holding:
            return False
        kind = event.type()
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            target = next((field for field in self._fields if field is watched), None)
            if target is not None:
                return self._held.add((target, _copy(event)))
        elif kind in _REFUSED:
            event.ignore()
            return True
        elif (
            kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease)
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.MiddleButton  # X11's paste of the selection
        ):
            return True
        return False


def _copy(event: QKeyEvent) -> QKeyEvent:
    """A key press to send again later (Qt reuses the event it delivers)."""
    return QKeyEvent(
        QEvent.Type.KeyPress,
        event.key(),
        event.modifiers(),
        event.nativeScanCode(),
        event.nativeVirtualKey(),
        event.nativeModifiers(),
        event.text(),
        event.isAutoRepeat(),
        event.count(),
    )


HOLD_MS = 5_000
"""How long `TypedAhead` holds the keys typed for a new file at most. Read when one is made:
a test on a loaded machine, where making the file may take longer, sets it to the bound of
its own waits."""


class TypedAhead(QObject):
    """Keys typed in a window while a new file is made (created, rescanned, read), for that
    file's text: `hold` takes them, `send_to` types them into the new text, `drop` forgets
    them; a hold ends by itself after `timeout_ms` (`HOLD_MS` unless given)."""

    def __init__(self, parent: QObject | None = None, timeout_ms: int | None = None) -> None:
        super().__init__(parent)
        self._window: QWidget | None = None
        self._held: Held[QKeyEvent] = Held()
        self._timeout = qtimer(self, self.drop, HOLD_MS if timeout_ms is None else timeout_ms)

    @property
    def holding(self) -> bool:
        return self._held.holding

    def hold(self, window: QWidget) -> None:
        """Hold the key presses `window`'s widgets get from now on."""
        self._window = window
        if self._held.hold():
            app = QApplication.instance()
            if app is not None:
                app.installEventFilter(self)
        self._timeout.start()

    def send_to(self, widget: QWidget) -> None:
        """Stop holding and type what was held into `widget`, in order."""
        held, was_holding = self._held.release()
        self._stop(was_holding)
        for event in held:
            QApplication.sendEvent(widget, event)

    def drop(self) -> None:
        """Stop holding; what was held is dropped."""
        self._stop(self._held.drop())

    def _stop(self, was_holding: bool) -> None:
        self._timeout.stop()
        app = QApplication.instance()
        if was_holding and app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self._held.holding
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and isinstance(watched, QWidget)
            and self._window is not None
            and watched.window() is self._window
        ):
            return self._held.add(_copy(event))
        return False
