"""components.files.rules: what the tree's file commands offer, act on and say, without Qt."""

from __future__ import annotations

import pytest

from memtab.components.files import rules
from memtab.components.files.rules import RowAction as C
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import Scope, VirtualPath, parse_virtual_path

SEP = C.SEPARATOR


def path(raw: str) -> VirtualPath:
    return parse_virtual_path(raw)


def file(raw: str, **fields: object) -> TreeNode:
    at = path(raw)
    return TreeNode(raw, NodeKind.FILE, at.name, path=at, physical=f"/h{raw}.md", **fields)  # type: ignore[arg-type]


def folder(raw: str, **fields: object) -> TreeNode:
    at = path(raw)
    fields.setdefault("accepts_drops", True)
    return TreeNode(raw, NodeKind.DIRECTORY, at.name, path=at, physical=f"/h{raw}", **fields)  # type: ignore[arg-type]


def test_what_each_row_offers_in_the_menus_order() -> None:
    assert rules.row_actions(file("/memories/global/a")) == (
        C.PIN, C.HISTORY, C.COPY_TO, SEP, C.RENAME, C.COPY_PATH, C.REVEAL, SEP, C.DELETE,
    )  # fmt: skip
    assert rules.row_actions(folder("/memories/global/topics")) == (
        C.NEW_FILE, C.NEW_FOLDER, SEP, C.RENAME, C.COPY_PATH, C.REVEAL, SEP, C.DELETE,
    )  # fmt: skip
    section = TreeNode("s", NodeKind.SECTION, "Global", path=path("/memories/global"))
    section.accepts_drops = True
    assert rules.row_actions(section) == (C.NEW_FILE, C.NEW_FOLDER, C.TRASH, C.CONSOLIDATE)
    theirs = file("/memories/global/b", read_only=True)
    theirs.ref = MemoryFileRef("claude-code:user", "b.md")
    assert rules.row_actions(theirs) == (C.COPY_TO, C.REVEAL), "another agent's: copy only"
    orphan = TreeNode("o", NodeKind.ORPHAN_DIR, "old", orphan_dir="old-0123", read_only=True)
    assert rules.row_actions(orphan) == (C.DELETE_ORPHAN,)
    message = TreeNode("m", NodeKind.MESSAGE, "No workspace", read_only=True)
    assert rules.row_actions(message) == ()


def test_claude_codes_memory_md_past_its_cut_offers_go_to_the_cut_first() -> None:
    def index(name: str, warning: str | None) -> TreeNode:
        node = TreeNode(name, NodeKind.FILE, name, physical=f"/c/memory/{name}", warning=warning)
        node.ref = MemoryFileRef("claude-code:memory-x", f"memory/{name}")
        return node

    cut = "MEMORY.md has 249 lines: Claude Code reads only its first 200 lines"
    assert rules.row_actions(index("MEMORY.md", cut))[:2] == (C.GO_TO_CUT, SEP)
    assert C.GO_TO_CUT not in rules.row_actions(index("MEMORY.md", None))  # read whole
    assert C.GO_TO_CUT not in rules.row_actions(index("topic.md", cut))


def test_what_the_actions_apply_to() -> None:
    mine, read_only = file("/memories/global/a"), file("/memories/global/a", read_only=True)
    assert rules.is_editable(mine) and rules.is_pinnable(mine) and rules.is_copyable(mine)
    assert rules.is_editable(folder("/memories/global/t"))
    assert not rules.is_pinnable(folder("/memories/global/t"))
    assert not rules.is_editable(read_only) and not rules.is_pinnable(read_only)
    assert rules.is_copyable(read_only), "another agent's file can be copied"
    assert not rules.is_editable(None) and not rules.is_copyable(None)
    assert rules.pin_text(file("/memories/global/a", pinned=True)) == "Unpin"
    assert rules.pin_text(None) == "Pin"
    assert rules.containing_folder(mine) == "/h/memories/global"
    assert rules.containing_folder(folder("/memories/global/t")) == "/h/memories/global/t"
    assert rules.containing_folder(TreeNode("m", NodeKind.MESSAGE, "m")) is None


def test_deleting_a_folder_takes_what_it_holds_once() -> None:
    topics = folder("/memories/global/topics")
    inside = file("/memories/global/topics/a")
    other = file("/memories/global/b")
    section = TreeNode("s", NodeKind.SECTION, "Global", path=path("/memories/global"))
    nodes = [inside, topics, section, other, file("/memories/global/c", read_only=True)]
    roots = rules.deletion_roots(nodes)
    assert roots == [topics.path, other.path]
    assert not rules.deletes_only_files(nodes, roots)
    assert rules.deletes_only_files([inside, other], rules.deletion_roots([inside, other]))
    assert rules.deletion_roots([section]) == []


def test_new_goes_into_the_selected_folder_else_the_first_scope_there_is() -> None:
    topics = folder("/memories/global/topics")
    inside = file("/memories/global/topics/a", parent=topics)
    assert rules.new_item_location(inside, lambda _scope: None) == topics.path
    missing = {Scope.WORKSPACE: "no workspace", Scope.PROJECT: "no project"}
    assert rules.new_item_location(None, missing.get) == VirtualPath(Scope.GLOBAL)
    assert rules.new_item_location(None, lambda _scope: None) == VirtualPath(Scope.WORKSPACE)


def test_a_drop_names_where_each_goes_and_asks_across_scopes() -> None:
    target = path("/memories/project/topics")
    sources = [path("/memories/global/a.md"), path("/memories/project/b.md")]
    assert rules.drop_moves(sources, target) == [
        (sources[0], path("/memories/project/topics/a.md")),
        (sources[1], path("/memories/project/topics/b.md")),
    ]
    assert rules.crosses_scopes(sources, target)
    assert not rules.crosses_scopes(sources[1:], target)
    assert rules.scope_place(target) == "project memory (/memories/project/topics)"
    unaddressable = VirtualPath(Scope.GLOBAL, ("a\\b.md",))  # a name no path can reach
    with pytest.raises(ValueError, match="not allowed"):
        rules.drop_moves([sources[0], unaddressable], target)
    assert rules.copied_paths_note(["/memories/global/a.md"]) == "Copied /memories/global/a.md"
    assert rules.copied_paths_note(["x", "y"]) == "Copied 2 paths"


def test_undo_and_redo_say_what_they_turn_or_why_they_cannot() -> None:
    words = rules.turn_words
    assert words("delete of a&b.md", redo=False, typing=False, busy=False) == (
        "&Undo delete of a&&b.md",
        "delete of a&b.md",
    )
    assert words("move", redo=True, typing=True, busy=True) == ("&Redo typing", "")
    assert words("move", redo=False, typing=False, busy=True) == (
        "&Undo",
        "Once the file operation in progress has ended",
    )
    assert words(None, redo=True, typing=False, busy=False) == ("&Redo", rules.REDO_UNAVAILABLE)
    assert words(None, redo=False, typing=False, busy=False)[1] == rules.UNDO_UNAVAILABLE


def test_pin_acts_on_the_trees_row_with_the_keyboard_there_else_on_the_open_file() -> None:
    current, open_file = file("/memories/global/a"), file("/memories/global/b")
    assert rules.pin_target(current, open_file, tree_has_keyboard=True) is current
    assert rules.pin_target(current, open_file, tree_has_keyboard=False) is open_file
    # The open file's row not shown (another workspace's, filtered out): the tree's row.
    assert rules.pin_target(current, None, tree_has_keyboard=False) is current
    assert rules.pin_target(None, None, tree_has_keyboard=False) is None


def test_a_delete_counts_only_the_files_a_search_shows() -> None:
    rows = [
        folder("/memories/global/tools"),
        file("/memories/global/tools/git"),
        TreeNode("m", NodeKind.MESSAGE, "No match elsewhere"),
    ]
    assert rules.shown_files(rows, searching=False) is None  # every file shows
    assert rules.shown_files(rows, searching=True) == {path("/memories/global/tools/git")}


def test_a_drop_into_another_scope_asks_unless_told_not_to() -> None:
    into_global = path("/memories/global/tools")
    from_workspace = [path("/memories/workspace/a.md")]
    within = [path("/memories/global/a.md")]
    assert rules.asks_before_drop(from_workspace, into_global, ask_cross_scope=True)
    assert not rules.asks_before_drop(from_workspace, into_global, ask_cross_scope=False)
    assert not rules.asks_before_drop(within, into_global, ask_cross_scope=True)


def test_a_scopes_row_offers_to_consolidate_it_alone_named_by_its_scope() -> None:
    """docs/formats.md §9.8: global, project and workspace — not xum's session scope, an
    orphaned project dir's, nor a scope shown read-only."""
    for raw, title in (("global", "Global"), ("project", "Project"), ("workspace", "Workspace")):
        section = TreeNode(raw, NodeKind.SECTION, title, path=path(f"/memories/{raw}"))
        assert rules.row_actions(section)[-1] is C.CONSOLIDATE
        assert rules.consolidated_scope(section) is Scope(raw)
        assert rules.consolidate_text(section) == f"Consolidate {title} only"
        inside = file(f"/memories/{raw}/notes.md")  # the palette: the current row's scope
        assert rules.consolidated_scope(inside) is Scope(raw)
        assert C.CONSOLIDATE not in rules.row_actions(inside)  # the scope's row offers it
    session = TreeNode("s", NodeKind.SECTION, "Session", path=path("/memories/session"))
    unavailable = TreeNode(
        "p", NodeKind.SECTION, "Project", path=path("/memories/project"), read_only=True
    )
    for node in (session, unavailable, None):
        assert rules.consolidated_scope(node) is None
        assert rules.consolidate_text(node) == "Consolidate this scope"
    assert C.CONSOLIDATE not in rules.row_actions(session)
