"""The search results' matching lines in the tree: F3 and Shift+F3 step to the next or previous
one in tree order, round the end (`step`); a result opens at its first match (`first_match`)."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.components.tree.nodes import LineMatch, NodeKind, TreeNode


def step(rows: Sequence[TreeNode], current: TreeNode | None, forward: bool) -> TreeNode | None:
    """The matching-line row after (or before) `current` among the tree's `rows` in order,
    wrapping round; None when there is none."""
    order = {node.key: i for i, node in enumerate(rows)}
    matches = [node for node in rows if node.kind is NodeKind.MATCH]
    if not matches:
        return None
    here = order.get(current.key, -1) if current is not None else -1
    if forward:
        return next((node for node in matches if order[node.key] > here), matches[0])
    return next((node for node in reversed(matches) if order[node.key] < here), matches[-1])


def first_match(node: TreeNode) -> LineMatch | None:
    """Where a row opens its file: a matching line's match, a search result's first one."""
    if node.line_match is None and node.kind is NodeKind.FILE and node.children:
        return node.children[0].line_match
    return node.line_match
