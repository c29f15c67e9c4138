"""The window's whole action registry, in order, as the demo home's window makes it: ids,
texts, keys, where they work, menus and their order, tips and callbacks — held byte for byte
against `action_registry.txt`, so a change in how actions are declared changes none of it."""

from __future__ import annotations

import difflib
from pathlib import Path

from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from gui.memory_tree_support import WAIT_MS, WindowFactory, make_window, wait_idle
from memtab.components.window.menus import MENUS
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.window.menus import menu_plan, shortcut_rows

__all__ = ["make_window"]

EXPECTED = Path(__file__).with_name("action_registry.txt")


def dump(actions: ActionRegistry) -> str:
    """Every registration, then each menu's plan and Help → Keyboard shortcuts' rows."""
    portable = QKeySequence.SequenceFormat.PortableText
    lines: list[str] = []
    for entry in actions.entries():
        action = entry.action
        on = entry.on
        lines += [
            f"{entry.id}: {action.text()!r} name={entry.name!r}",
            f"  keys={[key.toString(portable) for key in entry.keys]}"
            f" context={action.shortcutContext().name} focus={entry.focus.name}"
            f" on={type(on).__name__ if on is not None else None} claim={entry.claim}",
            f"  menu={entry.menu} tip={action.toolTip()!r} status={action.statusTip()!r}",
            f"  checkable={action.isCheckable()} checked={action.isChecked()}"
            f" role={action.menuRole().name}"
            f" parent={type(action.parent()).__name__}",
            f"  enabled_when={entry.enabled_when is not None}"
            f" text_when={entry.text_when is not None}"
            f" checked_when={entry.checked_when is not None}",
        ]
    for menu_id, title in MENUS:
        lines.append(f"menu {menu_id} {title!r}:")
        planned = menu_plan(actions, menu_id)
        lines += [f"  {'-' if entry is None else entry.id}" for entry in planned]
    lines.append("shortcuts:")
    lines += [f"  {row!r}" for row in shortcut_rows(actions)]
    return "\n".join(lines) + "\n"


def test_the_demo_windows_actions_are_registered_as_before(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    from memtab.demo import MAIN_ID, create_demo_home

    window = make_window(create_demo_home(tmp_path / "demo"), MAIN_ID)
    wait_idle(qtbot, window)
    actions = window.context.actions
    late = [e for e in actions.entries() if e.focus is Focus.WIDGET]  # the Inbox's list's:
    qtbot.waitUntil(lambda: all(e.on is not None for e in late), timeout=WAIT_MS)  # bound later
    got = dump(actions).splitlines()
    expected = EXPECTED.read_text(encoding="utf-8").splitlines()
    assert got == expected, "\n".join(difflib.unified_diff(expected, got, lineterm=""))
