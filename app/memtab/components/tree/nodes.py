"""The rows of the Memory tab's tree as plain Python nodes, and their keys."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path, parse_virtual_path


class NodeKind(enum.IntEnum):
    """What a row is."""

    ROOT = 0
    SECTION = 1
    DIRECTORY = 2
    FILE = 3
    MESSAGE = 4
    ORPHAN_DIR = 5
    MATCH = 6  # A line of a file that matches the search (a child of the file's row).
    SOURCE = 7
    """One other agent's source (Claude Code auto memory, Codex memories…), under its
    project's or agent's section (`components.tree.sources`)."""


class SectionId(enum.StrEnum):
    """The fixed top-level rows, in display order."""

    GLOBAL = "global"
    PROJECT = "project"
    WORKSPACE = "workspace"
    SESSION = "session"  # xum's session scope of the workspace, shown when it keeps one.
    ORPHANS = "orphans"
    SOURCES = "sources"  # Every section of other agents' memory (one per project, or per agent).


# The kinds the tree asks of every node, looked up once: an attribute of an enum class
# goes through its metaclass's `__getattr__` hook (~1,000 instructions in Python 3.11).
_FILE = NodeKind.FILE
_MATCH = NodeKind.MATCH
_CONTAINER_KINDS = (NodeKind.SECTION, NodeKind.DIRECTORY, NodeKind.ORPHAN_DIR, NodeKind.SOURCE)
_FOLDER_KINDS = (NodeKind.DIRECTORY, NodeKind.ORPHAN_DIR, NodeKind.SOURCE)
"""Containers sorted before files (`child_order`)."""
_PLACE_FIELDS = ("key", "kind", "fingerprint", "parent", "children", "row")


SECTION_TITLES = {
    SectionId.GLOBAL: "Global",
    SectionId.PROJECT: "Project",
    SectionId.WORKSPACE: "Workspace",
    SectionId.SESSION: "Session",
    SectionId.ORPHANS: "Orphaned project memory",
}


class MessageKind(enum.StrEnum):
    """Why a section shows a line of text instead of files."""

    LOADING = "loading"
    EMPTY = "empty"
    NO_MATCHES = "no_matches"
    UNAVAILABLE = "unavailable"
    ERROR = "error"


def section_key(section: SectionId) -> str:
    return f"section:{section.value}"


def message_key(section: SectionId) -> str:
    return f"message:{section.value}"


def file_key(path: VirtualPath) -> str:
    return f"file:{path}"


def ref_key(ref: MemoryFileRef, *, folder: bool = False) -> str:
    """The row key of a memory file (or folder), mux's or another agent's: `file:` (or
    `dir:`) and the ref's key — for a mux file, `file_key` of its path."""
    return f"{'dir' if folder else 'file'}:{ref.key}"


def directory_key(path: VirtualPath) -> str:
    return f"dir:{path}"


def orphan_key(dir_name: str) -> str:
    return f"orphan:{dir_name}"


def orphan_entry_key(dir_name: str, path: VirtualPath, *, is_dir: bool) -> str:
    kind = "orphan-dir" if is_dir else "orphan-file"
    return f"{kind}:{dir_name}/{path.relative}"


class LineMatch(NamedTuple):
    """A line of a file holding a search term: `line` from 0, `text` from `column`, `spans`."""

    line: int
    text: str
    column: int = 0
    spans: tuple[tuple[int, int], ...] = ()
    cut: bool = False  # Whether text before `column` (other than indentation) was left out.


class FileMatch(NamedTuple):
    """How a file matched: how many lines hold a term (`content_hits`) and the first of them."""

    content_hits: int = 0
    lines: tuple[LineMatch, ...] = ()


class TreeNode:
    """One row of the tree: plain data, `children` owned, compared by identity. Slotted with a
    hand-written `__init__`, not a dataclass: it loads before the first paint, and a dataclass
    compiles its methods at import."""

    __slots__ = (
        "accepts_drops",
        "access_count",
        "agent",
        "children",
        "content_hits",
        "description",
        "file_count",
        "fingerprint",
        "key",
        "kind",
        "last_accessed_at",
        "line_match",
        "linked",
        "message_kind",
        "modified_at_ms",
        "name",
        "not_editable_reason",
        "orphan_dir",
        "parent",
        "path",
        "physical",
        "pinned",
        "read_only",
        "ref",
        "row",
        "section",
        "size_bytes",
        "subtitle",
        "tag",
        "total_count",
        "unfilled_files",
        "warning",
        "warning_label",
    )

    key: str
    kind: NodeKind
    name: str
    section: SectionId | None
    path: VirtualPath | None
    """Scope items and scope sections: the virtual path (None for orphans and messages)."""
    physical: str | None  # Files and directories: where they are on disk.
    orphan_dir: str | None
    subtitle: str
    description: str
    file_count: int  # Sections and directories: files below (those matching, while searching).
    total_count: int | None  # Sections while searching: all files, for "3 of 12".
    size_bytes: int
    modified_at_ms: int
    not_editable_reason: str | None
    pinned: bool
    access_count: int
    last_accessed_at: int | None
    message_kind: MessageKind | None
    content_hits: int
    line_match: LineMatch | None  # Search-result lines: where the match is in the file.
    read_only: bool
    accepts_drops: bool
    unfilled_files: int
    """Containers of a large home: files directly inside whose rows are not built yet."""
    agent: str | None
    """Other agents' rows: whose memory it is (`file_protocol.file_ref.Agent`), for the icon."""
    ref: MemoryFileRef | None
    """The memory file or folder the row names, mux's or another agent's (another agent's
    source row: its root, path ""); None for sections, messages and orphans."""
    tag: str
    """Other agents' files: what the file is to its agent (`feedback`, `generated`…); a
    file-sync tool's copy beside its original: `conflict copy (Syncthing)`."""
    warning: str | None
    """Something wrong the row shows (a MEMORY.md over Claude Code's load limit)."""
    warning_label: str | None
    linked: MemoryFileRef | None
    """Another file this one is a copy of, or copied to (Codex's import of a Claude Code
    memory file and its original: `sources.codex.imports`): the row opens it."""
    """The warning in two words, its row's pill (`no description`); None: `over limit`."""
    fingerprint: int
    """A hash of everything shown by this node and its subtree (see `fingerprint_tree`)."""
    parent: TreeNode | None
    children: list[TreeNode]
    row: int

    def __init__(
        self,
        key: str,
        kind: NodeKind,
        name: str,
        section: SectionId | None = None,
        path: VirtualPath | None = None,
        physical: str | None = None,
        orphan_dir: str | None = None,
        subtitle: str = "",
        description: str = "",
        file_count: int = 0,
        total_count: int | None = None,
        size_bytes: int = 0,
        modified_at_ms: int = 0,
        not_editable_reason: str | None = None,
        pinned: bool = False,
        access_count: int = 0,
        last_accessed_at: int | None = None,
        message_kind: MessageKind | None = None,
        content_hits: int = 0,
        line_match: LineMatch | None = None,
        read_only: bool = False,
        accepts_drops: bool = False,
        unfilled_files: int = 0,
        agent: str | None = None,
        ref: MemoryFileRef | None = None,
        tag: str = "",
        warning: str | None = None,
        warning_label: str | None = None,
        linked: MemoryFileRef | None = None,
        fingerprint: int = 0,
        parent: TreeNode | None = None,
        children: list[TreeNode] | None = None,
        row: int = 0,
    ) -> None:
        self.key = key
        self.kind = kind
        self.name = name
        self.section = section
        self.path = path
        self.physical = physical
        self.orphan_dir = orphan_dir
        self.subtitle = subtitle
        self.description = description
        self.file_count = file_count
        self.total_count = total_count
        self.size_bytes = size_bytes
        self.modified_at_ms = modified_at_ms
        self.not_editable_reason = not_editable_reason
        self.pinned = pinned
        self.access_count = access_count
        self.last_accessed_at = last_accessed_at
        self.message_kind = message_kind
        self.content_hits = content_hits
        self.line_match = line_match
        self.read_only = read_only
        self.accepts_drops = accepts_drops
        self.unfilled_files = unfilled_files
        self.agent = agent
        self.ref = ref
        self.tag = tag
        self.warning = warning
        self.warning_label = warning_label
        self.linked = linked
        self.fingerprint = fingerprint
        self.parent = parent
        self.children = [] if children is None else children
        self.row = row

    def __repr__(self) -> str:
        return f"TreeNode({self.key!r}, {self.kind!r}, {self.name!r})"

    def signature(self) -> tuple[object, ...]:
        """Everything a row shows, to tell whether an updated node needs repainting."""
        return (
            self.kind,
            self.name,
            self.path,
            self.physical,
            self.subtitle,
            self.description,
            self.file_count,
            self.total_count,
            self.size_bytes,
            self.modified_at_ms,
            self.not_editable_reason,
            self.pinned,
            self.access_count,
            self.last_accessed_at,
            self.message_kind,
            self.content_hits,
            self.line_match,
            self.read_only,
            self.accepts_drops,
            self.unfilled_files,
            self.agent,
            self.ref,
            self.tag,
            self.warning,
            self.warning_label,
            self.linked,
        )

    def copy_fields_from(self, other: TreeNode) -> None:
        """Take every shown field of `other` (same key), keeping this node's place."""
        for name in _DATA_FIELDS:
            setattr(self, name, getattr(other, name))

    def adopt(self, children: list[TreeNode]) -> None:
        """Make `children` this node's children, fixing their parent and row."""
        self.children = children
        self.renumber()

    def renumber(self, start: int = 0) -> None:
        """Fix `parent` and `row` of the children from `start` on."""
        for row in range(start, len(self.children)):
            child = self.children[row]
            child.parent = self
            child.row = row

    def walk(self) -> Iterator[TreeNode]:
        """This node and everything below it, depth first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def dispose(self) -> None:
        """Break the parent/child reference cycles of this subtree, which left the tree, so it is
        freed at once by reference counting instead of by a (GUI-pausing) full collection."""
        for node in list(self.walk()):
            node.children = []
            node.parent = None

    def forget_fingerprints(self) -> None:
        """Clear the fingerprint (0: compared again) of this node and every one above it: a
        reconcile dropped half-way left them the new tree's fingerprints, and a next tree like
        it would be skipped there."""
        node: TreeNode | None = self
        while node is not None:
            node.fingerprint = 0
            node = node.parent

    @property
    def is_file(self) -> bool:
        return self.kind is _FILE

    @property
    def is_container(self) -> bool:
        """Sections and directories (things files live in)."""
        return self.kind in _CONTAINER_KINDS

    @property
    def scope(self) -> Scope | None:
        """The memory scope of a scope item (None for orphans and the orphans section)."""
        return None if self.read_only or self.path is None else self.path.scope


_DATA_FIELDS = tuple(f for f in TreeNode.__slots__ if f not in _PLACE_FIELDS)
"""Every shown field (`copy_fields_from`)."""


def fingerprint_tree(root: TreeNode) -> TreeNode:
    """Give every node a hash of its subtree, so a reconcile can skip what did not change."""
    for node in reversed(list(root.walk())):
        node.fingerprint = hash(
            (node.key, node.signature(), tuple(child.fingerprint for child in node.children))
        )
    return root


def child_order(child: TreeNode) -> tuple[int, str, str]:
    rank = 0 if child.kind in _FOLDER_KINDS else 1
    return (rank, child.name.casefold(), child.name)


def finish_counts(container: TreeNode) -> None:
    """Sort every level below `container` and count the files under each container, iteratively
    (deep trees cannot overflow the stack)."""
    nodes = list(container.walk())
    for node in nodes:
        if node.children and node.kind is not _FILE:  # a file's matches: line order
            node.children.sort(key=child_order)
            node.renumber()
    for node in reversed(nodes):
        if node.kind in _CONTAINER_KINDS:
            node.file_count = node.unfilled_files + sum(
                1 if child.kind is _FILE else child.file_count for child in node.children
            )


def unaddressable_key(section: SectionId) -> str:
    return f"unaddressable:{section.value}"


def too_deep_key(section: SectionId) -> str:
    return f"too-deep:{section.value}"


def match_node(file_node: TreeNode, line: LineMatch) -> TreeNode:
    """A row under a file's row: one of its lines that matches the search."""
    return TreeNode(  # where the file is, by position: a search makes thousands of these
        f"match:{line.line}:{file_node.key}",
        _MATCH,
        line.text,
        file_node.section,
        file_node.path,
        file_node.physical,
        file_node.orphan_dir,
        line_match=line,
        read_only=file_node.read_only,
        agent=file_node.agent,
        ref=file_node.ref,
    )


def file_container_key(key: str) -> str | None:
    """The key of the container (section, directory or orphan dir) a file key's row is
    in; None for a key that is not a file's."""
    kind, _, rest = key.partition(":")
    if kind == "file":
        try:
            path = parse_virtual_path(rest)
        except PathError:
            return None
        if path.scope is None or not path.segments:
            return None
        parent = path.segments[:-1]
        if not parent:
            return section_key(SectionId(path.scope.value))
        return directory_key(VirtualPath(path.scope, parent))
    if kind == "orphan-file":
        dir_name, _, relative = rest.partition("/")
        parent = tuple(relative.split("/")[:-1])
        if not parent:
            return orphan_key(dir_name)
        return orphan_entry_key(dir_name, VirtualPath(Scope.PROJECT, parent), is_dir=True)
    return None


def is_movable(node: TreeNode) -> bool:
    """Whether a row can be dragged to move it: a file or directory one may change."""
    return node.kind in (NodeKind.FILE, NodeKind.DIRECTORY) and not node.read_only


def dragged_text(nodes: Iterable[TreeNode]) -> str:
    """What a drag of `nodes` carries: the movable ones' virtual paths, once each, a line each."""
    paths: list[str] = []
    for node in nodes:
        if is_movable(node) and node.path is not None and str(node.path) not in paths:
            paths.append(str(node.path))
    return "\n".join(paths)


def dragged_paths(text: str) -> list[VirtualPath]:
    """The virtual paths a drag carries (lines that are not one are ignored)."""
    paths: list[VirtualPath] = []
    for line in text.splitlines():
        try:
            paths.append(parse_file_path(line))
        except PathError:
            continue
    return paths


def drop_target(node: TreeNode) -> VirtualPath | None:
    """The directory a drop onto `node`'s row lands in (a file's: its directory), or None
    where nothing may land."""
    while (
        node.kind in (NodeKind.FILE, NodeKind.MESSAGE, NodeKind.MATCH) and node.parent is not None
    ):
        node = node.parent
    return None if not node.accepts_drops or node.path is None else node.path


def moved_by_drop(sources: Iterable[VirtualPath], target: VirtualPath) -> list[VirtualPath]:
    """What of `sources` a drop into `target` moves: not a folder into itself, nor what is
    there already."""
    return [
        source for source in sources if not target.is_within(source) and source.parent != target
    ]
