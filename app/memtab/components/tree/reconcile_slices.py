"""A new tree shown without freezing the window: reconciled into the shown one in slices of
`RECONCILE_SLICE_MS`, painting between them. `ShownTree` holds the shown nodes, rows, badges and
marks and tells a `RowEvents` (`gui/tree/model.py`) which rows go, come and change."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Generic, Protocol, TypeVar

from memtab.components.tree.marks import RowMark, RowMarks
from memtab.components.tree.nodes import NodeKind, TreeNode, file_container_key
from memtab.components.tree.tree import loading_tree

logger = logging.getLogger(__name__)

RECONCILE_SLICE_MS = 12.0  # How long one slice of a reconcile runs before the GUI paints.


def perf_ms() -> float:
    """The finest clock there is, in ms (`time.perf_counter`): a slice's default clock."""
    return time.perf_counter() * 1000.0


class Slice:
    """One slice of a reconcile: over once `budget_ms` passed (None: runs to its end)."""

    def __init__(self, budget_ms: float | None, now_ms: Callable[[], float] = perf_ms) -> None:
        self._now_ms = now_ms
        self._deadline = None if budget_ms is None else now_ms() + budget_ms

    def over(self) -> bool:
        """Whether the slice has had its time (at least one step runs in each)."""
        return self._deadline is not None and self._now_ms() >= self._deadline


BadgeT = TypeVar("BadgeT")
"""What a file row's "agent edited" badge is (`components.activity.badges.Badge`, which
stands on this package)."""

Filler = Callable[[str], "list[TreeNode] | None"]
"""Builds the file rows of an unfilled container (by key); None when it cannot yet."""


class RowEvents(Protocol):
    """What a view of the shown tree is told as its rows change (the Qt model's signals):
    rows `first`..`last` of `parent` go or come, each announced before and closed after."""

    def removing(self, parent: TreeNode, first: int, last: int) -> None: ...

    def removed(self) -> None: ...

    def inserting(self, parent: TreeNode, first: int, last: int) -> None: ...

    def inserted(self) -> None: ...

    # What rows `first`..`last` of `parent` show changed.
    def rows_changed(self, parent: TreeNode, first: int, last: int) -> None: ...
    # The marks on a shown file row changed.
    def marks_changed(self, node: TreeNode) -> None: ...


def runs(rows: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive ones: one report a run."""
    first = last = None
    for row in rows:
        if last is not None and row == last + 1:
            last = row
            continue
        if first is not None and last is not None:
            yield first, last
        first = last = row
    if first is not None and last is not None:
        yield first, last


def changed_keys(old: Mapping[str, object], new: Mapping[str, object]) -> frozenset[str]:
    """The keys whose badge differs between `old` and `new`."""
    return frozenset(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))


class _Reconcile:
    """A reconcile in progress: (shown, new) node pairs still to compare."""

    def __init__(self, new_root: TreeNode) -> None:
        self.pending: list[tuple[TreeNode, TreeNode]] = []
        self.new_root = new_root
        self.badge_changes: frozenset[str] = frozenset()
        self.reported: set[int] = set()


class ShownTree(Generic[BadgeT]):
    """The node tree a view shows, reconciled in place; starts
    with the "Loading…" tree, whose root stays the root for good."""

    def __init__(self, events: RowEvents) -> None:
        self._events = events
        self.root = loading_tree()
        self._by_key: dict[str, TreeNode] = {}
        self._by_physical: dict[str, TreeNode] = {}
        self._badges: Mapping[str, BadgeT] = {}
        self._marks = RowMarks()
        self._reconcile: _Reconcile | None = None
        self._register(self.root)

    def node_for_key(self, key: str) -> TreeNode | None:
        """The node with `key`, if it is in the tree."""
        return self._by_key.get(key)

    def nodes(self) -> Iterator[TreeNode]:
        """Every node except the root."""
        walker = self.root.walk()
        next(walker)
        return walker

    def badge_for(self, node: TreeNode) -> BadgeT | None:
        """A file row's "agent edited" badge (who changed the file), if it has one."""
        if node.kind is not NodeKind.FILE or node.physical is None:
            return None
        return self._badges.get(node.physical)

    def marks_for(self, node: TreeNode) -> tuple[RowMark, ...]:
        """The features' marks on a file row."""
        return self._marks.on(node.key) if node.kind is NodeKind.FILE else ()

    def fill(self, container: TreeNode, filler: Filler | None) -> bool:
        """Insert the file rows of an unfilled container (from `filler`); False when there
        is nothing to fill or they cannot be built yet."""
        if container.unfilled_files <= 0 or filler is None:
            return False
        rows = filler(container.key)
        if rows is None:
            return False
        # Files follow directories, and an unfilled container holds no file rows yet.
        if rows:
            self._insert(container, len(container.children), rows)
        container.unfilled_files = 0
        # The fingerprints above no longer describe what is shown: the next reconcile compares.
        container.forget_fingerprints()
        self._events.rows_changed(container.parent or self.root, container.row, container.row)
        return True

    def reveal(self, key: str, filler: Filler | None) -> TreeNode | None:
        """The node with `key`, filling the container of a file row first if needed."""
        node = self._by_key.get(key)
        if node is None and (container_key := file_container_key(key)) is not None:
            container = self._by_key.get(container_key)
            if container is not None and self.fill(container, filler):
                node = self._by_key.get(key)
        return node

    def set_badges(self, badges: Mapping[str, BadgeT]) -> None:
        """Show exactly these "agent edited" badges (by physical path)."""
        changed = changed_keys(self._badges, badges)
        self._badges = dict(badges)
        self._report_badges(changed, set())

    def set_marks(self, feature: str, marks: Mapping[str, RowMark]) -> None:
        """Show exactly these marks of `feature` (by row key), in place of its last ones."""
        for key in self._marks.replace(feature, marks):
            node = self._by_key.get(key)
            if node is not None and node.parent is not None:
                self._events.marks_changed(node)

    @property
    def reconciling(self) -> bool:
        """Whether a reconcile has been started and not finished."""
        return self._reconcile is not None

    def start(self, tree: TreeNode, badges: Mapping[str, BadgeT] | None = None) -> None:
        """Begin reconciling `tree`, and its badges (None: unchanged); a reconcile still in
        progress is dropped: this one wins."""
        if self._reconcile is not None:  # dropped: what it left undone is compared again
            for old, _new in self._reconcile.pending:
                old.forget_fingerprints()
        self._reconcile = _Reconcile(tree)
        self._reconcile.pending.append((self.root, tree))
        if badges is not None:
            self._reconcile.badge_changes = changed_keys(self._badges, badges)
            self._badges = dict(badges)

    def go_on(self, budget_ms: float | None, now_ms: Callable[[], float] = perf_ms) -> bool:
        """Reconcile for at most about `budget_ms` on `now_ms` (None: to the end); True when
        done. Each step leaves the rows consistent, so the view may paint between slices."""
        reconcile = self._reconcile
        if reconcile is None:
            return True
        slice_ = Slice(budget_ms, now_ms)
        while reconcile.pending:
            old, new = reconcile.pending.pop()
            self._step(reconcile, old, new)
            if reconcile.pending and slice_.over():
                return False
        self._reconcile = None
        self._report_badges(reconcile.badge_changes, reconcile.reported)
        return True

    def _step(self, reconcile: _Reconcile, old: TreeNode, new: TreeNode) -> None:
        if old.fingerprint == new.fingerprint and old.fingerprint != 0:
            new.dispose()
            return
        changed_rows: list[int] = []
        for kept, fresh in self._children(old, new):
            if kept.fingerprint == fresh.fingerprint:
                continue
            if kept.signature() != fresh.signature():
                self._update_node(kept, fresh)
                changed_rows.append(kept.row)
                reconcile.reported.add(id(kept))
            reconcile.pending.append((kept, fresh))
        for first, last in runs(changed_rows):
            self._events.rows_changed(old, first, last)
        old.fingerprint = new.fingerprint
        # `new` served its purpose (its adopted children now belong to `old`).
        new.children = []
        new.parent = None

    def _update_node(self, kept: TreeNode, fresh: TreeNode) -> None:
        if kept.physical != fresh.physical:
            if kept.physical is not None and self._by_physical.get(kept.physical) is kept:
                del self._by_physical[kept.physical]
            if fresh.kind is NodeKind.FILE and fresh.physical is not None:
                self._by_physical[fresh.physical] = kept
        kept.copy_fields_from(fresh)

    def _report_badges(self, physical_paths: Iterable[str], reported: set[int]) -> None:
        rows_by_parent: dict[int, tuple[TreeNode, list[int]]] = {}
        for physical in physical_paths:
            node = self._by_physical.get(physical)
            if node is None or node.parent is None or id(node) in reported:
                continue
            entry = rows_by_parent.setdefault(id(node.parent), (node.parent, []))
            entry[1].append(node.row)
        for parent, rows in rows_by_parent.values():
            for first, last in runs(sorted(rows)):
                self._events.rows_changed(parent, first, last)

    def _children(self, old: TreeNode, new: TreeNode) -> list[tuple[TreeNode, TreeNode]]:
        """Make `old`'s children the keys of `new`'s, in order; return the kept pairs."""
        new_keys = {child.key for child in new.children}
        children = old.children
        end = len(children) - 1
        while end >= 0:  # remove runs of vanished children, from the bottom up
            if children[end].key in new_keys:
                end -= 1
                continue
            start = end
            while start > 0 and children[start - 1].key not in new_keys:
                start -= 1
            self._remove(old, start, end)
            end = start - 1
        kept_keys = [child.key for child in children]
        if [key for key in (c.key for c in new.children) if key in set(kept_keys)] != kept_keys:
            # The order changed (it never should: keys determine order). Start over.
            logger.warning("Tree order changed under %s; rebuilding its rows", old.key)
            return self._replace_children(old, new)
        kept_set = set(kept_keys)
        pairs: list[tuple[TreeNode, TreeNode]] = []
        position = 0
        while position < len(new.children):
            fresh = new.children[position]
            if fresh.key in kept_set:
                pairs.append((children[position], fresh))
                position += 1
                continue
            stop = position
            while stop < len(new.children) and new.children[stop].key not in kept_set:
                stop += 1
            self._insert(old, position, new.children[position:stop])
            position = stop
        return pairs

    def _replace_children(self, old: TreeNode, new: TreeNode) -> list[tuple[TreeNode, TreeNode]]:
        if old.children:
            self._remove(old, 0, len(old.children) - 1)
        if new.children:
            self._insert(old, 0, list(new.children))
        return []

    def _remove(self, parent: TreeNode, first: int, last: int) -> None:
        """Take rows `first`..`last` of `parent` out (the view told around it), and free them."""
        self._events.removing(parent, first, last)
        removed = parent.children[first : last + 1]
        del parent.children[first : last + 1]
        parent.renumber(first)
        for node in removed:
            self._unregister(node)
        self._events.removed()
        for node in removed:
            node.dispose()

    def _insert(self, parent: TreeNode, first: int, nodes: list[TreeNode]) -> None:
        """Put `nodes` in as rows `first`… of `parent` (the view told around it)."""
        self._events.inserting(parent, first, first + len(nodes) - 1)
        parent.children[first:first] = nodes
        parent.renumber(first)
        for node in nodes:
            self._register(node)
        self._events.inserted()

    def _register(self, subtree: TreeNode) -> None:
        for node in subtree.walk():
            self._by_key[node.key] = node
            if node.kind is NodeKind.FILE and node.physical is not None:
                self._by_physical[node.physical] = node

    def _unregister(self, subtree: TreeNode) -> None:
        for node in subtree.walk():
            if self._by_key.get(node.key) is node:
                del self._by_key[node.key]
            if node.physical is not None and self._by_physical.get(node.physical) is node:
                del self._by_physical[node.physical]
