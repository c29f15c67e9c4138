"""F3 and Shift+F3 through the search results' matching lines, and where a result opens,
without Qt (`components.tree.matches`)."""

from __future__ import annotations

from memtab.components.tree.matches import first_match, step
from memtab.components.tree.nodes import LineMatch, NodeKind, TreeNode, match_node


def result(name: str, *lines: int) -> list[TreeNode]:
    file = TreeNode(f"file:{name}", NodeKind.FILE, name)
    file.adopt([match_node(file, LineMatch(line, f"line {line}")) for line in lines])
    return [file, *file.children]


def test_f3_steps_through_matching_lines_file_after_file_and_round_the_end() -> None:
    a, a3, a9 = result("a.md", 3, 9)
    b, b1 = result("b.md", 1)
    rows = [a, a3, a9, b, b1]
    assert step(rows, None, forward=True) is a3
    assert step(rows, a3, forward=True) is a9
    assert step(rows, a9, forward=True) is b1  # the next file's
    assert step(rows, b1, forward=True) is a3  # round the end
    assert step(rows, b, forward=False) is a9  # from a file's row: the line before it
    assert step(rows, a3, forward=False) is b1  # round the start
    assert step([a], a, forward=True) is None  # no matching lines


def test_a_result_opens_at_its_first_match_and_a_line_at_its_own() -> None:
    a, _a3, a9 = result("a.md", 3, 9)
    assert first_match(a) == LineMatch(3, "line 3")
    assert first_match(a9) == LineMatch(9, "line 9")
    assert first_match(TreeNode("file:c", NodeKind.FILE, "c.md")) is None
