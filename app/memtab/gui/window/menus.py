"""The window's menu bar, made from the action registry: File, Edit, View, Help.

`MENU_LAYOUT` is the one place that says what each menu holds, in order, by action id
(`None`: a separator). The actions are registered by the features that carry them out
(`gui/actions.py`); one that names a menu the layout does not place it in goes at the
end of that menu, so nothing registered for a menu is left out. A menu is filled again
each time it opens (a feature may register later), after `ActionRegistry.refresh()`
brought enabled states and texts up to date; when it hides, `release()` lets the keys of
what it disabled work again for whatever is selected next.

Help → Keyboard shortcuts lists `shortcut_rows(actions)`: every action with keys, under
its menu in menu order, the others under their feature — each once, by its registered
name (a text that changes, like "Undo delete of notes.md", is listed as registered).
Actions with the very same keys (F3: the file's next match, or the next search result,
by where the focus is) share one row; keys only special keyboards have (Save, Undo,
F13 and up) are bound but not listed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, cast

from PySide6.QtCore import QKeyCombination, QObject, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from memtab.gui.actions import ActionRegistry, Registered, plain_title

logger = logging.getLogger(__name__)

MENUS = (("file", "&File"), ("edit", "&Edit"), ("view", "&View"), ("help", "&Help"))
"""The menus, in menu-bar order: (id, title)."""

MENU_LAYOUT: dict[str, tuple[str | None, ...]] = {
    "file": (
        "window.quick_open",
        None,
        "tree.new_file",
        "tree.new_folder",
        "files.codex_note",
        "editor.save",
        "editor.revert",
        "editor.autosave",
        "editor.close_tab",
        None,
        "window.open_home",
        "window.add_workspace",
        None,
        "tree.reload",
        None,
        "sync.setup",
        "sync.now",
        "sync.conflicts",
        None,
        "window.settings",
        "window.quit",
    ),
    "edit": (
        "files.undo",
        "files.redo",
        None,
        "window.find",
        "editor.replace",
        "editor.find_next",
        "editor.find_previous",
        "editor.go_to_line",
        "loads.go_to_cut",
        None,
        "search.focus",
        "search.next_result",
        "search.previous_result",
        None,
        "tree.rename",
        "tree.delete",
        "tree.pin",
        "tree.copy_to",
        "tree.copy_path",
        "tree.reveal",
        None,
        "consolidation.run_now",
        "writer.pause",
        None,
        "editor.tab_moves_focus",
    ),
    "view": (
        "window.command_palette",
        None,
        "window.view_source",
        "window.view_split",
        "window.view_preview",
        "blame.toggle",
        None,
        "window.show_memory",
        "window.show_traces",
        "memory.show_files",
        "memory.show_editor",
        None,
        "editor.next_tab",
        "editor.previous_tab",
        "editor.back",
        "editor.forward",
        None,
        "window.switch_workspace",
        None,
        "history.panel",
        "history.trash",
        "history.runs",
        "check.panel",
    ),
    "help": ("window.shortcuts", "window.about"),
}
"""What each menu holds, in order, by action id (`None`: a separator)."""

FEATURE_TITLES = {
    "editor": "Editor",
    "tree": "Tree",
    "files": "Tree",
    "search": "Search",
    "history": "History",
    "blame": "Editor",
    "window": "Window",
}
"""Where Help → Keyboard shortcuts lists an action no menu shows, by its id's feature."""


@dataclass(frozen=True)
class ShortcutRow:
    """One line of Help → Keyboard shortcuts."""

    id: str
    section: str
    """The menu that shows the action ("Edit"), else its feature ("Editor")."""
    name: str
    keys: str
    also: tuple[str, ...] = ()
    """The ids of other actions with the same keys, named in this row too."""


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
    """What `menu` shows: the layout's registered actions (`None`: a separator, never
    two in a row nor at an end), then any other action registered for it."""
    layout = MENU_LAYOUT.get(menu, ())
    planned: list[Registered | None] = []
    for action_id in layout:
        if action_id is None:
            if planned and planned[-1] is not None:
                planned.append(None)
        elif action_id in actions:
            planned.append(actions.entry(action_id))
    extra = [e for e in actions.entries() if e.menu == menu and e.id not in layout]
    if extra and planned and planned[-1] is not None:
        planned.append(None)
    planned += extra
    while planned and planned[-1] is None:
        planned.pop()
    return planned


def shortcut_rows(actions: ActionRegistry) -> list[ShortcutRow]:
    """Every action with keys, each once, actions with the same keys in one row (see the
    module docstring)."""
    rows: list[ShortcutRow] = []
    listed: set[str] = set()
    placed: list[tuple[Registered, str]] = []
    for menu, title in MENUS:
        section = title.replace("&", "")
        for entry in menu_plan(actions, menu):
            if entry is not None and entry.keys and entry.id not in listed:
                listed.add(entry.id)
                placed.append((entry, section))
    for entry in actions.entries():
        if entry.keys and entry.id not in listed:
            feature = entry.id.split(".", 1)[0]
            placed.append((entry, FEATURE_TITLES.get(feature, feature.title())))
    by_keys: dict[str, int] = {}
    for entry, section in placed:
        keys = keys_text(entry)
        if not keys:
            continue
        if keys in by_keys:
            first = rows[by_keys[keys]]
            rows[by_keys[keys]] = replace(
                first, name=f"{first.name} · {entry.name}", also=(*first.also, entry.id)
            )
            continue
        by_keys[keys] = len(rows)
        rows.append(ShortcutRow(entry.id, section, entry.name, keys))
    return rows


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
            menu.aboutToHide.connect(self._on_menu_about_to_hide)
            self._fill(menu_id)

    @property
    def menus(self) -> list[QMenu]:
        """The menus, in menu-bar order."""
        return list(self._menus.values())

    def menu(self, menu_id: str) -> QMenu:
        """The menu `menu_id` ("file", "edit", "view", "help")."""
        return self._menus[menu_id]

    @property
    def file_menu(self) -> QMenu:
        """File."""
        return self._menus["file"]

    @property
    def edit_menu(self) -> QMenu:
        """Edit."""
        return self._menus["edit"]

    @property
    def view_menu(self) -> QMenu:
        """View."""
        return self._menus["view"]

    @property
    def help_menu(self) -> QMenu:
        """Help."""
        return self._menus["help"]

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
        if self._filled.get(menu_id) == ids:
            return
        self._filled[menu_id] = ids
        menu = self._menus[menu_id]
        for action in menu.actions():
            menu.removeAction(action)
            if action.isSeparator():
                action.deleteLater()  # made by `addSeparator`, for this fill only
        for entry in plan:
            if entry is None:
                menu.addSeparator()
            else:
                menu.addAction(entry.action)

    def _menu_id(self, menu: object) -> str | None:
        return next((key for key, value in self._menus.items() if value is menu), None)

    @Slot()
    def _on_menu_about_to_show(self) -> None:
        self._actions.refresh()
        menu_id = self._menu_id(self.sender())
        if menu_id is not None:
            self._fill(menu_id)

    @Slot()
    def _on_menu_about_to_hide(self) -> None:
        self._actions.release()


def action_title(action: QAction) -> str:
    """An action's text without the `&` mnemonics or the "…" (for tests and messages)."""
    return plain_title(action.text())
