"""The editor's tab rules, without Qt: the preview tab, where new tabs go, moves."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.editor.panel.tabs import (
    moved_path,
    new_tab_index,
    preview_to_replace,
    stepped_index,
    tab_text,
    tabs_within,
)
from memtab.store.paths import VirtualPath, parse_virtual_path


@dataclass
class Tab:
    identity: str | None
    kept: bool = False
    is_dirty: bool = False
    path: VirtualPath | None = None


def test_a_file_replaces_the_preview_tab_unless_it_is_kept_or_edited() -> None:
    kept, preview = Tab("a", kept=True), Tab("b")
    assert preview_to_replace([kept, preview], "c", keep=False) is preview
    assert preview_to_replace([kept, preview], "c", keep=True) is None  # opened for good
    assert preview_to_replace([kept, preview], "b", keep=False) is None  # the file it shows
    assert preview_to_replace([kept, Tab("b", is_dirty=True)], "c", keep=False) is None
    assert preview_to_replace([], "c", keep=False) is None


def test_where_a_new_tab_goes_and_where_ctrl_tab_goes() -> None:
    assert new_tab_index(3, 0, shown=True) == 1  # after the current one
    assert new_tab_index(3, 0, shown=False) == 3  # behind it: last
    assert new_tab_index(0, -1, shown=True) == 0
    assert stepped_index(3, 2, 1) == 0
    assert stepped_index(3, 0, -1) == 2
    assert stepped_index(1, 0, 1) is None


def test_moves_and_deletions_touch_the_tabs_under_them() -> None:
    notes = parse_virtual_path("/memories/project/notes")
    inside = Tab("x", path=parse_virtual_path("/memories/project/notes/a.md"))
    beside = Tab("y", path=parse_virtual_path("/memories/project/notesy.md"))
    other_agent = Tab("z")
    assert tabs_within([inside, beside, other_agent], [notes]) == [inside]
    assert inside.path is not None
    moved = moved_path(inside.path, notes, parse_virtual_path("/memories/global/kept/notes"))
    assert moved == parse_virtual_path("/memories/global/kept/notes/a.md")
    assert tab_text("a.md", dirty=True) == "● a.md"
    assert tab_text("a.md", dirty=False) == "a.md"
