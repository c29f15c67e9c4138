"""What each menu of the window holds, in order, and Help → Keyboard shortcuts' rows, without
Qt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from memtab.components.window.shortcuts import ShortcutRow

MENUS = (("file", "&File"), ("edit", "&Edit"), ("view", "&View"), ("help", "&Help"))
"""The menus, in menu-bar order: (id, title)."""

MENU_AT_MOST = 15
"""Entries a menu shows at most (issue 84): the rest are the palette's and F1's."""

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
        "search.focus",
        None,
        "tree.rename",
        "tree.delete",
        "tree.pin",
        "tree.copy_to",
        None,
        "consolidation.run_now",
        "consolidation.run_scope",
        "writer.pause",
    ),
    "view": (
        "window.command_palette",
        None,
        "trust.room",
        "inbox.focus",
        None,
        "window.view_source",
        "window.view_split",
        "window.view_preview",
        "blame.toggle",
        "blame.line",
        None,
        "history.panel",
        "history.trash",
        "history.runs",
        "check.panel",
        "loads.show",
        "trust.panel",
        None,
        "window.switch_workspace",
    ),
    "help": ("window.shortcuts", "window.about"),
}
"""What each menu holds, in order, by action id (`None`: a separator)."""

FEATURE_TITLES = {
    "editor": "Editor",
    "memory": "Window",
    "tree": "Tree",
    "files": "Tree",
    "search": "Search",
    "history": "History",
    "blame": "Editor",
    "window": "Window",
}
"""Where Help → Keyboard shortcuts lists an action no menu shows, by its id's feature."""


@dataclass(frozen=True)
class MenuAction:
    """A registered action as the menus and the shortcuts list see it."""

    id: str
    name: str
    """What it is called, as registered ("Undo last change")."""
    menu: str | None
    keys: str = ""
    """Its keys every keyboard has, as the platform writes them ("" when none)."""


def plan_menu(menu: str, actions: Sequence[MenuAction]) -> list[str | None]:
    """The ids `menu` shows, of `actions` (in the order registered): the layout's, then any
    other action registered for it; `None` is a separator, never two in a row nor at an end."""
    layout = MENU_LAYOUT.get(menu, ())
    registered = {action.id for action in actions}
    planned: list[str | None] = []
    for action_id in layout:
        if action_id is None:
            if planned and planned[-1] is not None:
                planned.append(None)
        elif action_id in registered:
            planned.append(action_id)
    extra = [action.id for action in actions if action.menu == menu and action.id not in layout]
    if extra and planned and planned[-1] is not None:
        planned.append(None)
    planned += extra
    while planned and planned[-1] is None:
        planned.pop()
    return planned


def shortcut_rows(actions: Sequence[MenuAction]) -> list[ShortcutRow]:
    """Every action with keys, each once, actions with the same keys in one row."""
    by_id = {action.id: action for action in actions}
    listed: set[str] = set()
    placed: list[tuple[MenuAction, str]] = []
    for menu, title in MENUS:
        section = title.replace("&", "")
        for action_id in plan_menu(menu, actions):
            if action_id is not None and action_id not in listed:
                listed.add(action_id)
                placed.append((by_id[action_id], section))
    for action in actions:
        if action.id not in listed:
            feature = action.id.split(".", 1)[0]
            placed.append((action, FEATURE_TITLES.get(feature, feature.title())))
    rows: list[ShortcutRow] = []
    by_keys: dict[str, int] = {}
    for action, section in placed:
        if not action.keys:
            continue
        if action.keys in by_keys:
            first = rows[by_keys[action.keys]]
            rows[by_keys[action.keys]] = replace(
                first, name=f"{first.name} · {action.name}", also=(*first.also, action.id)
            )
            continue
        by_keys[action.keys] = len(rows)
        rows.append(ShortcutRow(action.id, section, action.name, action.keys))
    return rows
