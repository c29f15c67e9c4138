"""The shown tree reconciled without Qt (`components.tree.reconcile_slices.ShownTree`): which
rows go, come and change, the badges and marks reported, slices on a fake clock, filling."""

from __future__ import annotations

from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import (
    NodeKind,
    TreeNode,
    dragged_paths,
    dragged_text,
    drop_target,
    file_key,
    fingerprint_tree,
    moved_by_drop,
)
from memtab.components.tree.reconcile_slices import ShownTree, runs
from memtab.store.paths import parse_file_path


class Events:
    """Every event the shown tree reports, as words."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def removing(self, parent: TreeNode, first: int, last: int) -> None:
        self.said.append(f"remove {parent.key} {first}-{last}")

    def removed(self) -> None:
        self.said.append("removed")

    def inserting(self, parent: TreeNode, first: int, last: int) -> None:
        self.said.append(f"insert {parent.key} {first}-{last}")

    def inserted(self) -> None:
        self.said.append("inserted")

    def rows_changed(self, parent: TreeNode, first: int, last: int) -> None:
        self.said.append(f"changed {parent.key} {first}-{last}")

    def marks_changed(self, node: TreeNode) -> None:
        self.said.append(f"marks {node.key}")


def file(name: str, description: str = "", physical: str | None = None) -> TreeNode:
    path = parse_file_path(f"/memories/global/{name}")
    return TreeNode(
        file_key(path), NodeKind.FILE, name, path=path, physical=physical, description=description
    )


def tree(*files: TreeNode) -> TreeNode:
    section = TreeNode("section:global", NodeKind.SECTION, "Global")
    section.adopt(list(files))
    root = TreeNode("", NodeKind.SECTION, "")
    root.adopt([section])
    return fingerprint_tree(root)


def shown(*files: TreeNode) -> tuple[ShownTree[str], Events]:
    events = Events()
    rows: ShownTree[str] = ShownTree(events)
    rows.start(tree(*files))
    assert rows.go_on(None)
    events.said.clear()
    return rows, events


def names(rows: ShownTree[str]) -> list[str]:
    return [node.name for node in rows.nodes() if node.kind is NodeKind.FILE]


def test_rows_gone_are_removed_bottom_up_and_new_ones_inserted_in_runs() -> None:
    rows, events = shown(*(file(f"{letter}.md") for letter in "abcdef"))
    rows.start(tree(*(file(f"{letter}.md") for letter in "abexyz")))
    assert rows.go_on(None)
    assert names(rows) == ["a.md", "b.md", "e.md", "x.md", "y.md", "z.md"]
    section = "section:global"
    assert events.said == [
        f"remove {section} 5-5",
        "removed",
        f"remove {section} 2-3",
        "removed",
        f"insert {section} 3-5",
        "inserted",
    ]
    assert [node.row for node in rows.root.children[0].children] == [0, 1, 2, 3, 4, 5]
    assert rows.node_for_key(file_key(parse_file_path("/memories/global/c.md"))) is None


def test_a_row_showing_something_else_is_updated_in_place_and_reported_once() -> None:
    rows, events = shown(file("a.md"), file("b.md", physical="/h/b.md"), file("c.md"))
    b = rows.node_for_key(file_key(parse_file_path("/memories/global/b.md")))
    rows.start(
        tree(file("a.md"), file("b.md", "now described", "/h/b.md"), file("c.md")),
        {"/h/b.md": "writer"},
    )
    assert rows.go_on(None)
    assert b is not None and b.description == "now described"  # the same node, kept
    assert events.said == ["changed section:global 1-1"]  # its badge too: one report
    assert rows.badge_for(b) == "writer"


def test_an_unchanged_tree_reports_nothing_and_a_badge_alone_its_row() -> None:
    rows, events = shown(file("a.md", physical="/h/a.md"), file("b.md", physical="/h/b.md"))
    rows.start(tree(file("a.md", physical="/h/a.md"), file("b.md", physical="/h/b.md")))
    assert rows.go_on(None)
    assert events.said == []
    rows.set_badges({"/h/b.md": "mux"})
    assert events.said == ["changed section:global 1-1"]
    rows.set_badges({"/h/b.md": "mux"})  # the same badges: nothing to repaint
    assert events.said == ["changed section:global 1-1"]


def test_a_slice_stops_when_its_time_is_up_on_the_clock_given() -> None:
    rows, _events = shown(file("a.md"))
    nested = tree(file("a.md", "changed"), file("b.md"))
    now = [0.0]

    def clock() -> float:
        now[0] += 5.0  # each look at the clock: 5 ms later
        return now[0]

    rows.start(nested)
    done_at_once = rows.go_on(8.0, clock)  # the root's step, then the time is up
    in_progress = rows.reconciling
    assert not done_at_once and in_progress
    assert rows.go_on(None)
    assert names(rows) == ["a.md", "b.md"]
    assert not rows.reconciling


def test_a_newer_tree_wins_over_a_reconcile_half_done() -> None:
    rows, _events = shown(file("a.md"))
    rows.start(tree(file("a.md", "first")))
    assert not rows.go_on(0.0, lambda: 1.0)  # the section's row is compared, not its files
    rows.start(tree(file("a.md", "second")))
    assert rows.go_on(None)
    [a] = [node for node in rows.nodes() if node.kind is NodeKind.FILE]
    assert a.description == "second"


def test_marks_are_reported_for_shown_rows_whose_marks_changed() -> None:
    rows, events = shown(file("a.md"), file("b.md"))
    key = file_key(parse_file_path("/memories/global/b.md"))
    mark = RowMark("2 to check", MarkTone.CHECK, "")
    rows.set_marks("check", {key: mark, "file:/memories/global/gone.md": mark})
    assert events.said == [f"marks {key}"]
    node = rows.node_for_key(key)
    assert node is not None and rows.marks_for(node) == (mark,)
    rows.set_marks("check", {key: mark})
    assert events.said == [f"marks {key}"]


def test_an_unfilled_container_is_filled_when_a_row_in_it_is_revealed() -> None:
    rows, events = shown()
    section = rows.root.children[0]
    section.unfilled_files = 2
    wanted = file_key(parse_file_path("/memories/global/b.md"))
    assert rows.reveal(wanted, None) is None  # nothing builds its rows yet
    asked: list[str] = []

    def filler(key: str) -> list[TreeNode]:
        asked.append(key)
        return [file("a.md"), file("b.md")]

    node = rows.reveal(wanted, filler)
    assert node is not None and node.name == "b.md" and asked == ["section:global"]
    assert events.said == ["insert section:global 0-1", "inserted", "changed root 0-0"]
    assert section.unfilled_files == 0 and section.fingerprint == 0
    assert not rows.fill(section, filler)  # filled once


def test_runs_group_consecutive_rows() -> None:
    assert list(runs([])) == []
    assert list(runs([0, 1, 2, 5, 7, 8])) == [(0, 2), (5, 5), (7, 8)]


def test_a_drop_lands_in_a_folder_and_moves_only_what_changes_place() -> None:
    folder_path = parse_file_path("/memories/global/tools")
    folder = TreeNode("dir", NodeKind.DIRECTORY, "tools", path=folder_path, accepts_drops=True)
    inside = file("tools/x.md")
    folder.adopt([inside])
    read_only = TreeNode("ro", NodeKind.DIRECTORY, "ro", path=folder_path, read_only=True)
    assert drop_target(inside) == folder_path  # a file: its folder
    assert drop_target(read_only) is None
    x, y = parse_file_path("/memories/global/tools/x.md"), parse_file_path("/memories/global/y.md")
    assert moved_by_drop([x, y, folder_path], folder_path) == [
        y
    ]  # not where it is, not into itself
    assert moved_by_drop([folder_path], parse_file_path("/memories/global/tools/sub")) == []
    assert dragged_text([inside, inside, read_only, folder]) == "\n".join(
        [str(x), str(folder_path)]
    )
    assert dragged_paths(f"{x}\nnot a path\n/memories/global") == [x]
