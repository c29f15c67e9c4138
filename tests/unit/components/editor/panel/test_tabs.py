"""The editor's tab rules, without Qt: the preview tab, where new tabs go, moves."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.editor.panel import (
    OpenTabs,
    moved_path,
    new_tab_index,
    preview_to_replace,
    stepped_index,
    tab_text,
    tabs_within,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import VirtualPath, parse_virtual_path


@dataclass
class Tab:
    identity: str | None
    kept: bool = False
    is_dirty: bool = False
    path: VirtualPath | None = None
    ref: MemoryFileRef | None = None
    reading: bool = False
    saving: bool = False


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


def test_the_open_tabs_in_the_bars_order() -> None:
    a_ref = MemoryFileRef("claude-code:memory-app", "a.md")
    b_ref = MemoryFileRef("claude-code:memory-app", "b.md")
    tabs = OpenTabs[Tab]()
    first = Tab("a", kept=True, ref=a_ref)
    assert tabs.insert(first, -1, shown=True) == 0
    second = Tab("b", ref=b_ref, reading=True)
    assert tabs.insert(second, 0, shown=True) == 1
    orphan = Tab("physical:/x", kept=True, is_dirty=True, saving=True)
    assert tabs.insert(orphan, 0, shown=True) == 1  # after the current one
    assert list(tabs) == [first, orphan, second]
    assert (tabs.at(2), tabs.at(3), tabs.at(-1)) == (second, None, None)
    assert tabs.tab_for(b_ref) is second
    assert tabs.with_identity("physical:/x") is orphan
    assert tabs.of_refs([a_ref]) == [first]
    assert tabs.refs == [a_ref, b_ref]
    assert tabs.reading_refs == [b_ref]
    assert tabs.has_unsaved and tabs.saving
    assert tabs.preview_to_replace("c", keep=False) is second
    assert tabs.remove(orphan) == 1
    assert orphan not in tabs and len(tabs) == 2
    assert not tabs.has_unsaved and not tabs.saving
