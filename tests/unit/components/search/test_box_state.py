"""The Memory tab's search box, without Qt: what a keystroke asks, stale outcomes, the
expansion after results, warming the index once, the first match."""

from __future__ import annotations

from typing import cast

from memtab.components.search.box_state import AfterShown, SearchBoxState, first_match
from memtab.components.search.search import SearchQuery
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.scan import HomeScan

SCAN = cast("HomeScan", object())
OTHER_SCAN = cast("HomeScan", object())


class Expansion:
    """The tree's expansion, counting how often it is asked."""

    def __init__(self, keys: set[str]) -> None:
        self.keys = keys
        self.asked = 0

    def __call__(self) -> set[str]:
        self.asked += 1
        return set(self.keys)


def test_a_keystroke_searches_only_when_the_terms_change() -> None:
    state, expansion = SearchBoxState(), Expansion({"a"})
    assert state.typed("Redis", expansion)
    assert not state.typed("redis ", expansion)
    assert state.query.text == "redis "  # the text as typed is kept
    assert not state.typed("  REDIS redis", expansion)
    assert state.typed("redis port", expansion)
    assert state.typed("", expansion)
    assert not state.typed("   ", expansion)


def test_the_browsing_expansion_is_kept_while_searching_and_given_back_once() -> None:
    state, expansion = SearchBoxState(), Expansion({"scope", "folder"})
    assert state.after_tree_shown() == AfterShown(False, None)
    state.typed("redis", expansion)
    state.typed("redis port", expansion)
    assert expansion.asked == 1  # only as a search begins
    assert state.after_tree_shown() == AfterShown(True, None)
    expansion.keys = {"expanded", "by", "results"}
    state.typed("", expansion)
    assert state.after_tree_shown() == AfterShown(False, {"scope", "folder"})
    assert state.after_tree_shown() == AfterShown(False, None)


def test_an_outcome_counts_only_for_the_scan_shown_and_the_terms_typed() -> None:
    state = SearchBoxState()
    state.typed("redis port", Expansion(set()))
    asked = SearchQuery.parse("port  Redis")
    assert not state.is_current(SCAN, asked, SCAN)  # other order: other terms
    asked = SearchQuery.parse("REDIS port")
    assert state.is_current(SCAN, asked, SCAN)
    assert not state.is_current(SCAN, asked, OTHER_SCAN)
    assert not state.is_current(SCAN, SearchQuery.parse("redis"), SCAN)


def test_the_index_is_warmed_once_and_only_with_a_scan() -> None:
    state = SearchBoxState()
    assert not state.warm_now(None)
    assert state.warm_now(SCAN)
    assert not state.warm_now(SCAN)
    assert not state.warm_now(OTHER_SCAN)


def node(key: str, kind: NodeKind) -> TreeNode:
    return TreeNode(key, kind, key)


def test_down_goes_to_the_first_file_unless_a_file_is_current() -> None:
    scope, folder = node("s", NodeKind.SECTION), node("d", NodeKind.DIRECTORY)
    one, two = node("f1", NodeKind.FILE), node("f2", NodeKind.FILE)
    rows = [scope, folder, one, two]
    assert first_match(None, rows) == "f1"
    assert first_match(folder, rows) == "f1"
    assert first_match(two, rows) is None
    assert first_match(None, [scope, folder]) is None
