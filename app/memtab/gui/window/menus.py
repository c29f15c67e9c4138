"""The window's menu bar, made from the action registry (`MENU_LAYOUT` in
`components/window/menus.py` says what each menu holds); filled again each time it opens,
each entry with a letter of its own.
"""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import QKeyCombination, QObject, Qt, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from memtab.components.window.menus import MENUS, MenuAction, ShortcutRow, plan_menu
from memtab.components.window.menus import shortcut_rows as menu_shortcut_rows
from memtab.gui.actions import ActionRegistry, Registered
from memtab.gui.toolkit.dialog_layout import give_menu_letters


def listed_key(key: QKeySequence) -> bool:
    """Whether a key is one every keyboard has (not Save, Undo, Help, F13…): only those
    are listed."""
    if key.count() == 0:
        return False
    first: QKeyCombination = cast("Any", key)[0]  # PySide's stubs lack __getitem__
    return first.key().value < Qt.Key.Key_F13.value


def keys_text(entry: Registered) -> str:
    """An action's keys as this platform writes them, the menus' first: "Ctrl+S, Ctrl+Return"."""
    native = QKeySequence.SequenceFormat.NativeText
    return ", ".join(key.toString(native) for key in entry.keys if listed_key(key))


def menu_plan(actions: ActionRegistry, menu: str) -> list[Registered | None]:
    """What `menu` shows (`plan_menu`): its actions, `None` for a separator."""
    planned = plan_menu(menu, [MenuAction(e.id, e.name, e.menu) for e in actions.entries()])
    return [None if action_id is None else actions.entry(action_id) for action_id in planned]


def shortcut_rows(actions: ActionRegistry) -> list[ShortcutRow]:
    """Help → Keyboard shortcuts' rows of the registered actions (see the module docstring)."""
    return menu_shortcut_rows(
        [MenuAction(e.id, e.name, e.menu, keys_text(e)) for e in actions.entries()]
    )


class WindowMenus(QObject):
    """Fills a menu bar from the registry (see the module docstring)."""

    def __init__(self, actions: ActionRegistry, bar: QMenuBar, parent: QObject) -> None:
        """Add the menus to `bar` and fill them."""
        super().__init__(parent)
        self._actions = actions
        self._menus: dict[str, QMenu] = {}
        self._filled: dict[str, tuple[str | None, ...]] = {}
        for menu_id, title in MENUS:
            menu = bar.addMenu(title)
            menu.setToolTipsVisible(True)
            self._menus[menu_id] = menu
            menu.aboutToShow.connect(self._on_menu_about_to_show)
            menu.aboutToHide.connect(self._actions.release)
            self._fill(menu_id)

    @property
    def menus(self) -> list[QMenu]:
        return list(self._menus.values())

    def menu(self, menu_id: str) -> QMenu:
        """The menu `menu_id` ("file", "edit", "view", "help")."""
        return self._menus[menu_id]

    def refresh(self) -> None:
        """Bring every menu's actions up to date (as before a menu shows)."""
        self._actions.refresh()
        for menu_id in self._menus:
            self._fill(menu_id)

    def _fill(self, menu_id: str) -> None:
        """Show the menu's plan, if it changed since the last fill. (Not `QMenu.clear`:
        PySide invalidates the wrappers of the actions it removed, ours included.)"""
        plan = menu_plan(self._actions, menu_id)
        ids = tuple(entry.id if entry is not None else None for entry in plan)
        menu = self._menus[menu_id]
        if self._filled.get(menu_id) == ids:
            give_menu_letters(menu)  # texts may have changed (`refresh`)
            return
        self._filled[menu_id] = ids
        for action in menu.actions():
            menu.removeAction(action)
            if action.isSeparator():
                action.deleteLater()  # made by `addSeparator`, for this fill only
        for entry in plan:
            if entry is None:
                menu.addSeparator()
            else:
                menu.addAction(entry.action)
        give_menu_letters(menu)

    @Slot()
    def _on_menu_about_to_show(self) -> None:
        self._actions.refresh()
        menu = self.sender()
        menu_id = next((key for key, value in self._menus.items() if value is menu), None)
        if menu_id is not None:
            self._fill(menu_id)
