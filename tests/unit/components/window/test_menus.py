"""What each menu shows and Help → Keyboard shortcuts' rows, without Qt."""

from __future__ import annotations

from memtab.components.window.menus import (
    MENU_LAYOUT,
    MenuAction,
    ShortcutRow,
    plan_menu,
    shortcut_rows,
)


def test_a_menu_shows_the_layouts_registered_actions_in_its_order() -> None:
    actions = [
        MenuAction("window.about", "About Memtab", "help"),
        MenuAction("window.shortcuts", "Keyboard shortcuts", "help"),
    ]
    assert plan_menu("help", actions) == ["window.shortcuts", "window.about"]


def test_separators_never_double_nor_end_a_menu() -> None:
    # editor.save and window.open_home are apart in the layout, with separators between
    # actions not registered here.
    actions = [
        MenuAction("window.open_home", "Open home", "file"),
        MenuAction("editor.save", "Save", "file"),
    ]
    assert plan_menu("file", actions) == ["editor.save", None, "window.open_home"]
    assert plan_menu("file", [MenuAction("window.quit", "Quit", "file")]) == ["window.quit"]


def test_an_action_the_layout_does_not_place_goes_at_the_end_after_a_separator() -> None:
    actions = [
        MenuAction("feature.new", "Do something new", "help"),
        MenuAction("window.about", "About Memtab", "help"),
        MenuAction("elsewhere.thing", "Elsewhere", "view"),
    ]
    assert "feature.new" not in MENU_LAYOUT["help"]
    assert plan_menu("help", actions) == ["window.about", None, "feature.new"]


def test_a_menu_with_only_unplaced_actions_starts_without_a_separator() -> None:
    assert plan_menu("help", [MenuAction("feature.new", "New", "help")]) == ["feature.new"]
    assert plan_menu("nowhere", [MenuAction("feature.new", "New", "help")]) == []


def test_rows_follow_the_menus_order_then_the_features() -> None:
    actions = [
        MenuAction("tree.collapse", "Collapse all", None, "Ctrl+Left"),
        MenuAction("window.shortcuts", "Keyboard shortcuts", "help", "F1"),
        MenuAction("window.quit", "Quit", "file", "Ctrl+Q"),
        MenuAction("files.thing", "A tree thing", None, "Ctrl+T"),
        MenuAction("odd.thing", "An odd thing", None, "Ctrl+K"),
    ]
    rows = shortcut_rows(actions)
    assert [(row.id, row.section) for row in rows] == [
        ("window.quit", "File"),
        ("window.shortcuts", "Help"),
        ("tree.collapse", "Tree"),
        ("files.thing", "Tree"),
        ("odd.thing", "Odd"),
    ]


def test_an_action_without_listed_keys_has_no_row() -> None:
    actions = [
        MenuAction("window.about", "About Memtab", "help"),
        MenuAction("editor.save", "Save", "file", ""),
    ]
    assert shortcut_rows(actions) == []


def test_actions_with_the_same_keys_share_one_row() -> None:
    actions = [
        MenuAction("search.next_result", "Next search result", "edit", "F3"),
        MenuAction("editor.find_next", "Find next", "edit", "F3"),
    ]
    # The edit menu's layout puts editor.find_next before search.next_result.
    assert shortcut_rows(actions) == [
        ShortcutRow(
            "editor.find_next",
            "Edit",
            "Find next · Next search result",
            "F3",
            also=("search.next_result",),
        )
    ]
