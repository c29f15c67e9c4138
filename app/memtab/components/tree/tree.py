"""The Memory tab's tree as plain Python nodes, built from a scan off the GUI thread.

Like Anki's sidebar: fixed section roots (Global, Project, Workspace, and Orphaned project
memory when there is any) over plain node objects. `build_tree` runs on the scan worker;
the Qt model (`tree_model.MemoryTreeModel`) only merges the new tree into the one it
shows. Every node has a stable `key` (its kind and path), which is how the model matches
old and new nodes and how the view restores expansion and selection.

Order inside a directory: directories first, then files, each alphabetical.

Large homes are built lazily (VS Code's and Anki's explorers do the same): every
directory is in the tree, but a container's file rows are built only when it is open —
the scope sections at first, then each directory when it is expanded, searched or holds
the file to show. Until then it counts its files (`unfilled_files`), and `fill_rows`
builds them from the scan when the view asks. An outline (`components.tree.scan.scan_outline`)
builds the same way with every container unfilled: the first paint of 20,000 files.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from memtab import humanize
from memtab.components.tree.scan import HomeScan, OrphanScan, ScopeScan
from memtab.sources.model import MUX_SOURCE_ID, MemoryFileRef
from memtab.store.files import FileEntry, ScopeListing, UnaddressableEntry
from memtab.store.memory import MemoryStore
from memtab.store.meta import MetaEntry
from memtab.store.paths import PathError, Scope, VirtualPath, parse_virtual_path

# Homes with up to this many files build every file row; bigger ones only those of the
# open containers (see the module docstring).
LAZY_FILL_MIN_FILES = 2000


class NodeKind(enum.IntEnum):
    """What a row is."""

    ROOT = 0
    SECTION = 1
    DIRECTORY = 2
    FILE = 3
    MESSAGE = 4
    ORPHAN_DIR = 5
    MATCH = 6
    """A line of a file that matches the search (a child of the file's row)."""
    SOURCE = 7
    """One other agent's source (Claude Code auto memory, Codex memories…), under its
    project's or agent's section (`components.tree.sources`)."""


class SectionId(enum.StrEnum):
    """The fixed top-level rows, in display order."""

    GLOBAL = "global"
    PROJECT = "project"
    WORKSPACE = "workspace"
    ORPHANS = "orphans"
    SOURCES = "sources"
    """Every section of other agents' memory (one per project, or per agent)."""


SECTION_TITLES = {
    SectionId.GLOBAL: "Global",
    SectionId.PROJECT: "Project",
    SectionId.WORKSPACE: "Workspace",
    SectionId.ORPHANS: "Orphaned project memory",
}


class MessageKind(enum.StrEnum):
    """Why a section shows a line of text instead of files."""

    LOADING = "loading"
    EMPTY = "empty"
    NO_MATCHES = "no_matches"
    UNAVAILABLE = "unavailable"
    ERROR = "error"


PROJECT_UNAVAILABLE_TEXT = "Project memory unavailable — multi-project workspace"
NO_WORKSPACE_PROJECT_TEXT = "No workspace selected — no project memory"
NO_WORKSPACE_TEXT = "No workspace selected — no workspace memory"
EMPTY_TEXTS = {
    SectionId.GLOBAL: "No global memories yet",
    SectionId.PROJECT: "No project memories yet",
    SectionId.WORKSPACE: "No workspace memories yet",
}


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


def match_key(file_row_key: str, line: int) -> str:
    return f"match:{line}:{file_row_key}"


@dataclass(frozen=True)
class LineMatch:
    """A line of a file holding a search term, as shown under the file's row.

    `line` counts from 0; `text` is the part of the line shown (it starts `column`
    characters into the line, leading blanks and far-away text left out), and `spans`
    are where the terms are in `text`.
    """

    line: int
    text: str
    column: int = 0
    spans: tuple[tuple[int, int], ...] = ()
    cut: bool = False
    """Whether text before `column` (other than indentation) was left out."""


@dataclass(frozen=True)
class FileMatch:
    """How a file matched the search: by name/description, how often in its text, and
    the first matching lines."""

    content_hits: int = 0
    lines: tuple[LineMatch, ...] = ()


@dataclass(eq=False, slots=True)
class TreeNode:
    """One row of the tree. Plain data; `children` is owned by the node."""

    key: str
    kind: NodeKind
    name: str
    section: SectionId | None = None
    path: VirtualPath | None = None
    """Scope items and scope sections: the virtual path (None for orphans and messages)."""
    physical: str | None = None
    """Files and directories: where they are on disk."""
    orphan_dir: str | None = None
    subtitle: str = ""
    description: str = ""
    file_count: int = 0
    """Sections and directories: files below (those matching, while searching)."""
    total_count: int | None = None
    """Sections while searching: all files, for "3 of 12"."""
    size_bytes: int = 0
    modified_at_ms: int = 0
    not_editable_reason: str | None = None
    pinned: bool = False
    access_count: int = 0
    last_accessed_at: int | None = None
    message_kind: MessageKind | None = None
    content_hits: int = 0
    line_match: LineMatch | None = None
    """Search-result lines: where the match is in the file."""
    read_only: bool = False
    accepts_drops: bool = False
    unfilled_files: int = 0
    """Containers of a large home: files directly inside whose rows are not built yet."""
    agent: str | None = None
    """Other agents' rows: whose memory it is (`sources.model.Agent`), for the icon."""
    ref: MemoryFileRef | None = None
    """The memory file or folder the row names, mux's or another agent's (another agent's
    source row: its root, path ""); None for sections, messages and orphans."""
    tag: str = ""
    """Other agents' files: what the file is to its agent (`feedback`, `generated`…)."""
    warning: str | None = None
    """Something wrong the row shows (a MEMORY.md over Claude Code's load limit)."""
    fingerprint: int = 0
    """A hash of everything shown by this node and its subtree (see `fingerprint_tree`)."""
    parent: TreeNode | None = field(default=None, repr=False)
    children: list[TreeNode] = field(default_factory=list, repr=False)
    row: int = 0

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

    @property
    def is_file(self) -> bool:
        return self.kind is NodeKind.FILE

    @property
    def is_container(self) -> bool:
        """Sections and directories (things files live in)."""
        return self.kind in (
            NodeKind.SECTION,
            NodeKind.DIRECTORY,
            NodeKind.ORPHAN_DIR,
            NodeKind.SOURCE,
        )

    @property
    def scope(self) -> Scope | None:
        """The memory scope of a scope item (None for orphans and the orphans section)."""
        if self.read_only or self.path is None:
            return None
        return self.path.scope


_DATA_FIELDS = (
    "name",
    "section",
    "path",
    "physical",
    "orphan_dir",
    "subtitle",
    "description",
    "file_count",
    "total_count",
    "size_bytes",
    "modified_at_ms",
    "not_editable_reason",
    "pinned",
    "access_count",
    "last_accessed_at",
    "message_kind",
    "content_hits",
    "line_match",
    "read_only",
    "accepts_drops",
    "unfilled_files",
    "agent",
    "ref",
    "tag",
    "warning",
)


def fingerprint_tree(root: TreeNode) -> TreeNode:
    """Give every node a hash of its subtree, so a merge can skip what did not change."""
    for node in reversed(list(root.walk())):
        node.fingerprint = hash(
            (node.key, node.signature(), tuple(child.fingerprint for child in node.children))
        )
    return root


def child_order(child: TreeNode) -> tuple[int, str, str]:
    rank = 0 if child.kind in (NodeKind.DIRECTORY, NodeKind.ORPHAN_DIR, NodeKind.SOURCE) else 1
    return (rank, child.name.casefold(), child.name)


def finish_counts(container: TreeNode) -> None:
    """Sort every level below `container` and count the files under each container.

    Iterative (parents before children, then in reverse), so deep trees cannot overflow
    the stack.
    """
    nodes = list(container.walk())
    for node in nodes:
        if node.children and node.kind is not NodeKind.FILE:  # a file's matches: line order
            node.children.sort(key=child_order)
            node.renumber()
    for node in reversed(nodes):
        if node.is_container:
            node.file_count = node.unfilled_files + sum(
                1 if child.kind is NodeKind.FILE else child.file_count for child in node.children
            )


class _ListingTree:
    """Builds the directory nodes of one listing under a container node."""

    def __init__(
        self,
        container: TreeNode,
        listing: ScopeListing,
        root_physical: str | None,
        *,
        orphan_dir: str | None = None,
    ) -> None:
        self.container = container
        self.listing = listing
        self.root_physical = root_physical
        self.orphan_dir = orphan_dir
        self.directories: dict[tuple[str, ...], TreeNode] = {(): container}

    def physical(self, segments: tuple[str, ...]) -> str | None:
        if self.root_physical is None:
            return None
        return "/".join((self.root_physical, *segments))

    def directory(self, path: VirtualPath) -> TreeNode:
        """The node of a directory, created (with its missing parents) on first use."""
        segments = path.segments
        depth = len(segments)
        while segments[:depth] not in self.directories:
            depth -= 1
        node = self.directories[segments[:depth]]
        for end in range(depth + 1, len(segments) + 1):
            child = self._new_directory(VirtualPath(path.scope, segments[:end]))
            node.children.append(child)
            self.directories[segments[:end]] = child
            node = child
        return node

    def _new_directory(self, path: VirtualPath) -> TreeNode:
        text = str(path)
        if self.orphan_dir is not None:
            return TreeNode(
                orphan_entry_key(self.orphan_dir, path, is_dir=True),
                NodeKind.DIRECTORY,
                path.name,
                section=self.container.section,
                physical=self.physical(path.segments),
                orphan_dir=self.orphan_dir,
                read_only=True,
            )
        return TreeNode(
            f"dir:{text}",
            NodeKind.DIRECTORY,
            path.name,
            section=self.container.section,
            path=path,
            physical=self.physical(path.segments),
            accepts_drops=True,
            ref=MemoryFileRef(MUX_SOURCE_ID, text),
        )

    def container_key(self, segments: tuple[str, ...]) -> str:
        """The key of the container at `segments` (`()`: the section or orphan dir)."""
        if not segments:
            return self.container.key
        path = VirtualPath(self.listing.scope, segments)
        if self.orphan_dir is not None:
            return orphan_entry_key(self.orphan_dir, path, is_dir=True)
        return directory_key(path)

    def segments_of(self, key: str) -> tuple[str, ...] | None:
        """The segments of the container `key` names in this listing (`container_key`'s
        inverse), or None when it names none of it."""
        if key == self.container.key:
            return ()
        if self.orphan_dir is not None:
            prefix = f"orphan-dir:{self.orphan_dir}/"
        else:
            prefix = f"dir:{VirtualPath(self.listing.scope)}/"
        return tuple(key[len(prefix) :].split("/")) if key.startswith(prefix) else None

    def count_unfilled(self, segments: tuple[str, ...], count: int = 1) -> None:
        """Count files in the directory at `segments` without building their rows."""
        self.directory(VirtualPath(self.listing.scope, segments)).unfilled_files += count

    def file_node(
        self, entry: FileEntry, meta: MetaEntry | None, match: FileMatch | None
    ) -> TreeNode:
        path = entry.path
        orphan = self.orphan_dir is not None
        file_node = TreeNode(
            self.file_node_key(path),
            NodeKind.FILE,
            path.name,
            section=self.container.section,
            path=None if orphan else path,
            physical=self.physical(path.segments),
            orphan_dir=self.orphan_dir,
            description=entry.description or entry.heading,  # the title when undescribed
            size_bytes=entry.size_bytes,
            modified_at_ms=entry.modified_at_ms,
            not_editable_reason=entry.not_editable_reason,
            pinned=bool(meta and meta.pinned),
            access_count=meta.access_count if meta else 0,
            last_accessed_at=meta.last_accessed_at if meta else None,
            content_hits=match.content_hits if match else 0,
            read_only=orphan,
            ref=None if orphan else MemoryFileRef(MUX_SOURCE_ID, str(path)),
        )
        if match is not None and match.lines:
            file_node.adopt([match_node(file_node, line) for line in match.lines])
        return file_node

    def add_files(
        self,
        scan: HomeScan,
        matches: Mapping[str, FileMatch] | None,
        open_containers: Collection[str] | None,
    ) -> None:
        """Add the listing's file rows: the matches when searching, else the files of
        the open containers (`None`: all), counting the others."""
        store = scan.store()
        is_open: dict[tuple[str, ...], bool] = {}  # by directory: one key lookup each
        unfilled: dict[tuple[str, ...], int] = {}
        for entry in self.listing.files:
            segments = entry.path.segments[:-1]
            match = None
            if matches is not None:
                match = matches.get(self.file_node_key(entry.path))
                if match is None:
                    continue
            elif open_containers is not None:
                opened = is_open.get(segments)
                if opened is None:
                    opened = is_open[segments] = self.container_key(segments) in open_containers
                if not opened:
                    unfilled[segments] = unfilled.get(segments, 0) + 1
                    continue
            parent = self.directories.get(segments) or self.directory(
                VirtualPath(entry.path.scope, segments)
            )
            parent.children.append(self.file_row(scan, store, entry, match))
        for segments, count in unfilled.items():
            self.count_unfilled(segments, count)

    def file_row(
        self, scan: HomeScan, store: MemoryStore, entry: FileEntry, match: FileMatch | None
    ) -> TreeNode:
        """The row of a listed file, with its pin and usage (orphans have none)."""
        meta = None if self.orphan_dir is not None else scan.meta.get(store.meta_key(entry.path))
        return self.file_node(entry, meta, match)

    def file_node_key(self, path: VirtualPath) -> str:
        if self.orphan_dir is not None:
            return orphan_entry_key(self.orphan_dir, path, is_dir=False)
        return file_key(path)


def match_node(file_node: TreeNode, line: LineMatch) -> TreeNode:
    """A row under a file's row: one of its lines that matches the search."""
    return TreeNode(
        match_key(file_node.key, line.line),
        NodeKind.MATCH,
        line.text,
        section=file_node.section,
        path=file_node.path,
        physical=file_node.physical,
        orphan_dir=file_node.orphan_dir,
        line_match=line,
        read_only=file_node.read_only,
        agent=file_node.agent,
        ref=file_node.ref,
    )


def _message(section: SectionId, kind: MessageKind, text: str) -> TreeNode:
    return TreeNode(message_key(section), NodeKind.MESSAGE, text, section, message_kind=kind)


def unaddressable_key(section: SectionId) -> str:
    return f"unaddressable:{section.value}"


def _unaddressable_row(section: SectionId, entries: Sequence[UnaddressableEntry]) -> TreeNode:
    """The warning row naming what another program put in a scope under a name no virtual
    path can reach (docs/formats.md §4.2): seen, though it cannot be opened."""
    names = ", ".join(entry.shown.rsplit("/", 1)[-1] for entry in entries)
    reasons = "\n".join(f"{entry.shown}: {entry.reason}" for entry in entries)
    files = humanize.plural(len(entries), "file or folder", "files or folders")
    return TreeNode(
        unaddressable_key(section),
        NodeKind.MESSAGE,
        f"⚠ Cannot open {names} — rename outside Memtab",
        section,
        message_kind=MessageKind.ERROR,
        subtitle=f"{files} no memory path can name, so Memtab cannot open, change or search "
        f"them (history keeps their contents); rename them outside Memtab:\n{reasons}",
    )


def _section_node(section: SectionId, subtitle: str = "") -> TreeNode:
    path = None if section is SectionId.ORPHANS else VirtualPath(Scope(section.value))
    return TreeNode(
        section_key(section),
        NodeKind.SECTION,
        SECTION_TITLES[section],
        section,
        path=path,
        subtitle=subtitle,
        read_only=section is SectionId.ORPHANS,
    )


def _unavailable_text(scan: HomeScan, scope: Scope) -> str:
    if scan.workspace is None:
        return NO_WORKSPACE_PROJECT_TEXT if scope is Scope.PROJECT else NO_WORKSPACE_TEXT
    if scope is Scope.PROJECT:
        return PROJECT_UNAVAILABLE_TEXT
    return NO_WORKSPACE_TEXT


def _scope_subtitle(scan: HomeScan, scope: Scope) -> str:
    workspace = scan.workspace
    if workspace is None or scope is Scope.GLOBAL:
        return ""
    if scope is Scope.PROJECT:
        return "" if workspace.multi_project else workspace.project_name
    return workspace.display_name


def _add_outline(tree: _ListingTree, scope_scan: ScopeScan | OrphanScan) -> None:
    """The directories of the listing (or outline), and the outline's files as counts."""
    outline = scope_scan.outline
    for directory in outline.directories if outline is not None else tree.listing.directories:
        tree.directory(directory)
    if outline is not None:
        for segments, count in outline.direct_files.items():
            tree.count_unfilled(segments, count)


def _build_scope_section(
    scan: HomeScan,
    scope_scan: ScopeScan,
    matches: Mapping[str, FileMatch] | None,
    open_containers: Collection[str] | None,
) -> TreeNode:
    section = SectionId(scope_scan.scope.value)
    node = _section_node(section, _scope_subtitle(scan, scope_scan.scope))
    if scope_scan.unavailable is not None:
        node.adopt(
            [_message(section, MessageKind.UNAVAILABLE, _unavailable_text(scan, scope_scan.scope))]
        )
        return node
    node.accepts_drops = True
    if scope_scan.error is not None:
        node.adopt([_message(section, MessageKind.ERROR, scope_scan.error)])
        return node
    root = str(scope_scan.root) if scope_scan.root is not None else None
    tree = _ListingTree(node, scope_scan.listing, root)
    if matches is None:
        _add_outline(tree, scope_scan)
    tree.add_files(scan, matches, open_containers)
    finish_counts(node)
    if matches is not None:
        node.total_count = scope_scan.file_count
    elif scope_scan.listing.unaddressable:
        node.children.append(_unaddressable_row(section, scope_scan.listing.unaddressable))
    if not node.children and not node.unfilled_files:
        if matches is not None:
            node.adopt([_message(section, MessageKind.NO_MATCHES, "No matches")])
        else:
            node.adopt([_message(section, MessageKind.EMPTY, EMPTY_TEXTS[section])])
    return node


def _orphan_tree(orphan: OrphanScan) -> _ListingTree:
    orphan_node = TreeNode(
        orphan_key(orphan.dir_name),
        NodeKind.ORPHAN_DIR,
        orphan.dir_name,
        SectionId.ORPHANS,
        physical=str(orphan.root),
        orphan_dir=orphan.dir_name,
        read_only=True,
    )
    return _ListingTree(orphan_node, orphan.listing, str(orphan.root), orphan_dir=orphan.dir_name)


def _build_orphans_section(
    scan: HomeScan,
    matches: Mapping[str, FileMatch] | None,
    open_containers: Collection[str] | None,
) -> TreeNode | None:
    node = _section_node(SectionId.ORPHANS)
    total = 0
    for orphan in scan.orphans:
        tree = _orphan_tree(orphan)
        if matches is None:
            _add_outline(tree, orphan)
        tree.add_files(scan, matches, open_containers)
        total += orphan.file_count
        if matches is None or tree.container.children:
            node.children.append(tree.container)
    if not node.children:
        return None
    finish_counts(node)
    if matches is not None:
        node.total_count = total
    return node


def default_open_containers() -> frozenset[str]:
    """The containers a large home builds the files of before anything is expanded: the
    scope sections (shown expanded)."""
    return frozenset(section_key(SectionId(scope.value)) for scope in Scope)


def default_expanded_keys(root: TreeNode, expand_all_max_files: int) -> set[str]:
    """The rows a tree opens with: the scope sections, and every writable folder too when
    the scopes hold at most `expand_all_max_files` files (from the tree, not the scan: an
    outline is shown before any scan is)."""
    total = sum(
        section.file_count for section in root.children if section.section is not SectionId.ORPHANS
    )
    keys = {section_key(SectionId(scope.value)) for scope in Scope}
    if total <= expand_all_max_files:
        keys.update(
            node.key
            for node in root.walk()
            if node.kind is NodeKind.DIRECTORY and not node.read_only
        )
    return keys


def build_tree(
    scan: HomeScan,
    matches: Mapping[str, FileMatch] | None = None,
    open_containers: Collection[str] | None = None,
) -> TreeNode:
    """The tree for a scan; with `matches` (search results by file key) only the matching
    files and the directories above them. A home over `LAZY_FILL_MIN_FILES` files builds
    only the file rows of `open_containers` (keys; default: the sections)."""
    if matches is not None or scan.total_file_count <= LAZY_FILL_MIN_FILES:
        open_containers = None
    elif open_containers is None:
        open_containers = default_open_containers()
    root = TreeNode("root", NodeKind.ROOT, "")
    sections = [
        _build_scope_section(scan, scope_scan, matches, open_containers)
        for scope_scan in scan.scopes
    ]
    orphans = _build_orphans_section(scan, matches, open_containers)
    if orphans is not None:
        sections.append(orphans)
    if scan.sources is not None:
        from memtab.components.tree.sources import build_source_sections

        project = scan.workspace.project_identity if scan.workspace is not None else None
        sections.extend(build_source_sections(scan.sources, matches, project))
    root.adopt(sections)
    return fingerprint_tree(root)


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


def fill_rows(scan: HomeScan, container_key: str) -> list[TreeNode] | None:
    """The file rows of one container, built from `scan` in display order (what the tree
    inserts when an unfilled container is expanded); None when `scan` has no listing of
    it (an outline) or no such container."""
    if scan.is_outline:
        return None
    trees = [
        _ListingTree(_section_node(SectionId(item.scope.value)), item.listing, str(item.root))
        for item in scan.scopes
        if item.root is not None
    ] + [_orphan_tree(orphan) for orphan in scan.orphans]
    for tree in trees:
        segments = tree.segments_of(container_key)
        if segments is not None:
            store = scan.store()
            rows = [
                fingerprint_tree(tree.file_row(scan, store, entry, None))
                for entry in tree.listing.files
                if entry.path.segments[:-1] == segments
            ]
            rows.sort(key=child_order)
            return rows
    return None


def loading_tree() -> TreeNode:
    """What the tree shows before the first scan lands."""
    root = TreeNode("root", NodeKind.ROOT, "")
    sections = []
    for section in (SectionId.GLOBAL, SectionId.PROJECT, SectionId.WORKSPACE):
        node = _section_node(section)
        node.adopt([_message(section, MessageKind.LOADING, "Loading…")])
        sections.append(node)
    root.adopt(sections)
    return fingerprint_tree(root)
