"""Walking Python syntax trees for the structure tests (tests/unit/test_*.py rules over
Memtab's modules): `ast.walk` and `ast.iter_child_nodes` do the same, but through a
generator for each node's fields; these read `_fields` directly, for ~3/4 of the CPU
(every module of the app walked: 0.32 → 0.25 s).

They leave out the expression contexts (a `Name`'s or an `Attribute`'s `ctx`: `Load`,
`Store`, `Del`), leaves no rule asks for (a rule reads `node.ctx`) and a third of every
tree's nodes (218,000 of 688,000 in the app): the glossary's walk of every module 0.55 →
0.37 s.

Trees are not kept between tests: every module's tree held ~166 MiB in a worker, and
each full pass of the cycle collector over them took ~0.5 s.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator


def children(node: ast.AST) -> list[ast.AST]:
    """`node`'s direct child nodes but its expression context, in `ast.iter_child_nodes`'
    order."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            if not isinstance(value, ast.expr_context):
                found.append(value)
        elif isinstance(value, list):
            found.extend([item for item in value if isinstance(item, ast.AST)])
    return found


def walk(tree: ast.AST) -> Iterator[ast.AST]:
    """`tree` and every node under it but the expression contexts, in `ast.walk`'s order
    (breadth first)."""
    todo = [tree]
    for node in todo:  # the list grows as it is read: a queue without popping
        yield node
        todo.extend(children(node))
