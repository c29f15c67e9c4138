"""The window's actions: one registry every feature adds its actions to, from which the
menus, the keyboard shortcuts, Help → Keyboard shortcuts and the palette are made.

    actions.add(
        "tree.rename", "Rename or move…", actions.rename_selected,
        keys=["F2"], focus=Focus.WIDGET, on=tree, menu="edit",
    )

`keys`: portable strings, or a `QKeySequence.StandardKey` for the platform's bindings; the
first is the one menus show. `focus` says where they work; `claim=True` lets an inner
widget's enabled action win over a window shortcut (the editor's Ctrl+F), and `conflicts()`
finds any other overlap. `enabled_when`, `text_when` and `checked_when` are asked by
`refresh()` before a menu shows; `release()` enables the actions again as it hides. A widget
made later is declared with `on=None` and bound once made (`bind`). QAction and QKeySequence
are named through `QtGui`: a class imported by name builds its enums at import.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QWidget

from memtab.fs.slotted import Slotted

Key: TypeAlias = "str | QtGui.QKeySequence.StandardKey"
"""A key: a portable string ("Ctrl+Shift+F") or the platform's standard binding(s)."""


class Focus(enum.Enum):
    """Where an action's keys work."""

    WINDOW = "window"
    """Anywhere in the window."""
    WITHIN = "within"
    """While the focus is in the action's widget or a widget inside it."""
    WIDGET = "widget"
    """Only while the action's widget itself has the focus."""


_QT_CONTEXT = {
    Focus.WINDOW: Qt.ShortcutContext.WindowShortcut,
    Focus.WITHIN: Qt.ShortcutContext.WidgetWithChildrenShortcut,
    Focus.WIDGET: Qt.ShortcutContext.WidgetShortcut,
}


# What each list of keys stands for, once per process: the platform's bindings do not
# change while it runs, and a window's ~48 lists are parsed again for every window opened.
_sequences_of: dict[tuple[Key, ...], tuple[QtGui.QKeySequence, ...]] = {}


def key_sequences(keys: Iterable[Key]) -> list[QtGui.QKeySequence]:
    """The key sequences `keys` stand for on this platform, in order, each once."""
    wanted = tuple(keys)
    known = _sequences_of.get(wanted)
    if known is None:
        known = _sequences_of[wanted] = tuple(_parsed(wanted))
    return list(known)


def _parsed(keys: tuple[Key, ...]) -> list[QtGui.QKeySequence]:
    sequences: list[QtGui.QKeySequence] = []
    for key in keys:
        found = (
            [QtGui.QKeySequence(key)]
            if isinstance(key, str)
            else QtGui.QKeySequence.keyBindings(key)
        )
        sequences += [s for s in found if not s.isEmpty() and s not in sequences]
    return sequences


def plain_title(text: str) -> str:
    """An action's text without `&` mnemonics or a trailing "…": "Rename or move"."""
    text = text.split("\t", 1)[0].replace("&&", "\0").replace("&", "")
    return text.replace("\0", "&").rstrip("…").strip()


class Registered(Slotted):
    """One registered action: its id, its action and how the registry keeps it current
    (`on`, a declared widget's, is set as `bind` binds it)."""

    __slots__ = (
        "action",
        "checked_when",
        "claim",
        "enabled_when",
        "focus",
        "id",
        "menu",
        "name",
        "on",
        "text_when",
    )

    id: str
    name: str
    """What the action is called, as registered, in plain words ("Undo last change")."""
    action: QtGui.QAction
    focus: Focus
    on: QWidget | None
    menu: str | None
    claim: bool
    enabled_when: Callable[[], bool] | None
    text_when: Callable[[], str] | None
    checked_when: Callable[[], bool] | None

    def __init__(
        self,
        id: str,
        name: str,
        action: QtGui.QAction,
        focus: Focus,
        on: QWidget | None,
        menu: str | None,
        claim: bool,
        enabled_when: Callable[[], bool] | None,
        text_when: Callable[[], str] | None,
        checked_when: Callable[[], bool] | None,
    ) -> None:
        self.id = id
        self.name = name
        self.action = action
        self.focus = focus
        self.on = on
        self.menu = menu
        self.claim = claim
        self.enabled_when = enabled_when
        self.text_when = text_when
        self.checked_when = checked_when

    @property
    def keys(self) -> list[QtGui.QKeySequence]:
        return [key for key in self.action.shortcuts() if not key.isEmpty()]


class Conflict(Slotted):
    """Two actions live at once with the same key, neither claiming it."""

    __slots__ = ("first", "key", "second")

    key: str
    first: str
    second: str

    def __init__(self, key: str, first: str, second: str) -> None:
        self.key = key
        self.first = first
        self.second = second


class ActionRegistry(QObject):
    """Every action of a window, by id (see the module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        """An empty registry; `attach(window)` puts window-wide actions on the window."""
        super().__init__(parent)
        self._entries: dict[str, Registered] = {}
        self._window: QWidget | None = None
        self._claimers: dict[QWidget, list[Registered]] = {}
        self._sharing: dict[QWidget, list[QWidget]] = {}  # `on` → where its keys work too

    def add(
        self,
        action_id: str,
        text: str,
        handler: Callable[[], object],
        *,
        keys: Sequence[Key] = (),
        focus: Focus = Focus.WINDOW,
        on: QWidget | None = None,
        menu: str | None = None,
        tip: str = "",
        claim: bool = False,
        enabled_when: Callable[[], bool] | None = None,
        text_when: Callable[[], str] | None = None,
        checked_when: Callable[[], bool] | None = None,
        checkable: bool = False,
        role: QtGui.QAction.MenuRole | None = None,
    ) -> QtGui.QAction:
        """Make and register the action `action_id` (see the module docstring)."""
        if action_id in self._entries:
            raise ValueError(f"The action {action_id!r} is registered already")
        if (focus is Focus.WINDOW) != (on is None) and focus is not Focus.WIDGET:
            raise ValueError(f"{action_id}: window-wide actions have no widget, others one")
        if claim and focus is not Focus.WITHIN:
            raise ValueError(f"{action_id}: only keys that work within a widget are claimed")
        action = QtGui.QAction(text, on if on is not None else self)
        action.setCheckable(checkable)
        if role is not None:
            action.setMenuRole(role)
        action.triggered.connect(lambda _checked=False: handler())
        if keys:
            action.setShortcuts(key_sequences(keys))
        action.setShortcutContext(_QT_CONTEXT[focus])
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        name = plain_title(text)
        entry = Registered(
            action_id, name, action, focus, on, menu, claim, enabled_when, text_when, checked_when
        )
        self._entries[action_id] = entry
        if on is not None:
            on.addAction(action)
            if focus is Focus.WITHIN:
                for panel in self._sharing.get(on, []):
                    panel.addAction(action)
        elif focus is Focus.WINDOW and self._window is not None:
            self._window.addAction(action)
        if claim and on is not None:
            if on not in self._claimers:
                on.installEventFilter(self)
            self._claimers.setdefault(on, []).append(entry)
        return action

    def add_panel_toggle(
        self, action_id: str, text: str, dock: QtWidgets.QDockWidget, **options: Any
    ) -> QtGui.QAction:
        """A checkable action that shows or hides `dock` (which takes the keyboard, Escape
        giving it back); the registry's own, as PySide dropped `toggleViewAction()`'s wrapper."""
        # lazy: panels are added after the first paint, the registry before it — the way
        # back builds QKeySequence's enums (~10 M instructions) and is one module more
        # than the paint's budget (first_paint.boundary, tests/gui/test_startup_boundary.py)
        from memtab.gui.toolkit.keyboard_return import KeyboardReturn

        way_back = KeyboardReturn(dock)

        def toggle() -> None:
            if dock.isVisible():
                way_back.give_back_if_held()
                dock.hide()
            else:
                dock.show()
                dock.raise_()
                way_back.take()

        action = self.add(action_id, text, toggle, checkable=True, **options)
        action.setChecked(dock.isVisible())
        dock.visibilityChanged.connect(action.setChecked)
        return action

    def bind(self, action_id: str, on: QWidget) -> None:
        """The keys of `action_id`, declared before its widget was made (`Focus.WIDGET`,
        `on=None`), work on `on` from now on."""
        entry = self._entries[action_id]
        if entry.focus is not Focus.WIDGET or entry.on is not None:
            raise ValueError(f"{action_id}: only a declared widget's keys are bound later")
        entry.on = on
        on.addAction(entry.action)

    def attach(self, window: QWidget) -> None:
        """Put the window-wide actions (those registered and those to come) on `window`."""
        self._window = window
        for entry in self._entries.values():
            if entry.focus is Focus.WINDOW:
                window.addAction(entry.action)

    def share_keys(self, widget: QWidget, panel: QWidget) -> None:
        """The keys that work within `widget` (`Focus.WITHIN`: registered and to come) work
        within `panel` too — a dock beside it, whose focus is not inside it."""
        self._sharing.setdefault(widget, []).append(panel)
        for entry in self._entries.values():
            if entry.on is widget and entry.focus is Focus.WITHIN:
                panel.addAction(entry.action)

    def action(self, action_id: str) -> QtGui.QAction:
        """The action registered as `action_id` (KeyError if none is)."""
        return self._entries[action_id].action

    def __contains__(self, action_id: object) -> bool:
        return action_id in self._entries

    def entries(self) -> list[Registered]:
        return list(self._entries.values())

    def entry(self, action_id: str) -> Registered:
        """The registration of `action_id` (KeyError if none)."""
        return self._entries[action_id]

    def refresh(self) -> None:
        """Ask every action's `enabled_when`, `text_when` and `checked_when` (before a menu
        shows)."""
        for entry in self._entries.values():
            if entry.text_when is not None:
                entry.action.setText(entry.text_when())
            if entry.enabled_when is not None:
                entry.action.setEnabled(entry.enabled_when())
            if entry.checked_when is not None:
                entry.action.setChecked(entry.checked_when())

    def release(self) -> None:
        """Enable again every action with an `enabled_when` (after a menu hid), so its
        keys work for whatever is selected next."""
        for entry in self._entries.values():
            if entry.enabled_when is not None:
                entry.action.setEnabled(True)

    def conflicts(self) -> list[Conflict]:
        """Pairs of actions live at once with the same key, neither claiming it."""
        found: list[Conflict] = []
        entries = [entry for entry in self._entries.values() if entry.keys]
        for index, first in enumerate(entries):
            for second in entries[index + 1 :]:
                shared = [key for key in first.keys if key in second.keys]
                if shared and _overlap(first, second) and not _claimed(first, second):
                    native = shared[0].toString(QtGui.QKeySequence.SequenceFormat.PortableText)
                    found.append(Conflict(native, first.id, second.id))
        return found

    def claiming(self, widget: QWidget, event: QKeyEvent) -> QtGui.QAction | None:
        """The enabled action claimed within `widget` whose key `event` is, if any."""
        pressed = QtGui.QKeySequence(event.keyCombination())
        for entry in self._claimers.get(widget, []):
            action = entry.action
            if action.isEnabled() and any(
                key.matches(pressed) == QtGui.QKeySequence.SequenceMatch.ExactMatch
                for key in entry.keys
            ):
                return action
        return None

    def live_action(
        self, pressed: QtGui.QKeySequence, focus: QWidget | None
    ) -> QtGui.QAction | None:
        """The enabled action whose key `pressed` is and whose keys work with the focus in
        `focus` (a widget's own before those within it, those before the window's): the one
        Qt's shortcuts would run — for a key pressed before the actions existed."""
        reach = {Focus.WIDGET: 0, Focus.WITHIN: 1, Focus.WINDOW: 2}
        live = [
            entry
            for entry in self._entries.values()
            if entry.action.isEnabled()
            and self._works_in(entry, focus)
            and any(
                key.matches(pressed) == QtGui.QKeySequence.SequenceMatch.ExactMatch
                for key in entry.keys
            )
        ]
        live.sort(key=lambda entry: reach[entry.focus])
        return live[0].action if live else None

    def _works_in(self, entry: Registered, focus: QWidget | None) -> bool:
        if entry.focus is Focus.WINDOW:
            return True
        if entry.on is None or focus is None:
            return False
        if entry.focus is Focus.WIDGET:
            return entry.on is focus
        places = [entry.on, *self._sharing.get(entry.on, [])]
        return any(_contains(place, focus) for place in places)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Claimed keys: take them before shortcuts are looked up (`ShortcutOverride`),
        then carry them out when the key press comes unhandled by the focused widget."""
        if isinstance(watched, QWidget) and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.ShortcutOverride and self.claiming(watched, event):
                event.accept()
                return True
            if event.type() == QEvent.Type.KeyPress and (action := self.claiming(watched, event)):
                action.trigger()
                return True
        return super().eventFilter(watched, event)


def _contains(outer: QWidget, inner: QWidget) -> bool:
    return outer is inner or outer.isAncestorOf(inner)


def _overlap(first: Registered, second: Registered) -> bool:
    """Whether the two actions' keys can be live at the same time."""
    if first.focus is Focus.WINDOW or second.focus is Focus.WINDOW:
        return True
    if first.on is None or second.on is None:  # a widget not made yet: its keys work nowhere
        return False
    if first.focus is Focus.WIDGET and second.focus is Focus.WIDGET:
        return first.on is second.on
    if first.focus is Focus.WITHIN and _contains(first.on, second.on):
        return True
    return second.focus is Focus.WITHIN and _contains(second.on, first.on)


def _claimed(first: Registered, second: Registered) -> bool:
    """Whether one of the two claims the key inside the other's reach — not both on one
    widget: neither is the inner one then, and Qt runs neither (Find next's standard keys
    held Ctrl+G on GNOME and XFCE, Go to line's key)."""
    if first.claim and second.claim and first.on is second.on:
        return False
    return any(
        inner.claim and inner.on is not None and (outer.on is None or _contains(outer.on, inner.on))
        for inner, outer in ((first, second), (second, first))
    )
