"""The Memory tab's tree, built from a scan off the GUI thread."""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import compress
from typing import TypeVar, cast

from memtab import humanize
from memtab.components.tree.nodes import (
    SECTION_TITLES,
    FileMatch,
    MessageKind,
    NodeKind,
    SectionId,
    TreeNode,
    child_order,
    directory_key,
    file_key,
    fingerprint_tree,
    finish_counts,
    match_node,
    message_key,
    orphan_entry_key,
    orphan_key,
    section_key,
    too_deep_key,
    unaddressable_key,
)
from memtab.components.tree.scan import HomeScan, OrphanScan, ScopeScan
from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef
from memtab.loads.limits import XUM_NO_DESCRIPTION_LABEL, pinned_cut_warning, xum_recall_warning
from memtab.store.conflict_copies import ConflictCopy, find_copies
from memtab.store.files import FileEntry, ScopeListing, UnaddressableEntry
from memtab.store.paths import (
    MAX_PATH_DEPTH,
    SHARED_SCOPES,
    Scope,
    VirtualPath,
    too_deep_words,
)
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.meta import MetaEntry

_path_segments = operator.attrgetter("path.segments")
# Looked up once (an enum class's attribute is ~1,000 instructions: see `nodes._FILE`).
T = TypeVar("T")
_DIRECTORY = NodeKind.DIRECTORY
_FILE = NodeKind.FILE
# A directory's ref by tuple's own constructor (not NamedTuple's `__new__` in Python).
_mux_ref = functools.partial(tuple.__new__, MemoryFileRef)
_parent_segments = operator.itemgetter(slice(None, -1))

# Homes with up to this many files build every file row; bigger ones only those of the
# open containers.
LAZY_FILL_MIN_FILES = 2000


PROJECT_UNAVAILABLE_TEXT = "Project memory unavailable — multi-project workspace"
NO_WORKSPACE_PROJECT_TEXT = "No workspace selected — no project memory"
NO_WORKSPACE_TEXT = "No workspace selected — no workspace memory"
NO_WORKSPACE_SESSION_TEXT = "No workspace selected — no session memory"
REMOVED_SUBTITLE = "removed in xum, read-only"
NOT_REACHED_TEXT = "Not searched yet: more files match above — type more to narrow"
EMPTY_TEXTS = {
    SectionId.GLOBAL: "No global memories yet",
    SectionId.PROJECT: "No project memories yet",
    SectionId.WORKSPACE: "No workspace memories yet",
    SectionId.SESSION: "No session memories yet",
}


class _ListingTree:
    """Builds the directory nodes of one listing under a container node."""

    def __init__(
        self,
        container: TreeNode,
        listing: ScopeListing,
        root_physical: str | None,
        *,
        orphan_dir: str | None = None,
        removed: str | None = None,
    ) -> None:
        self.container = container
        self.listing = listing
        self.root_physical = root_physical
        self.orphan_dir = orphan_dir
        self.removed = removed
        """Why every row is read-only: xum removed the workspace (§21.3); reads stay."""
        self.directories: dict[tuple[str, ...], TreeNode] = {(): container}
        self.virtual_root = f"{VirtualPath(listing.scope)}/"
        """The listing's scope's virtual path and a slash, its paths' start."""
        self._copies: dict[VirtualPath, ConflictCopy] | None = None

    def copy_label(self, path: VirtualPath) -> str:
        """ "conflict copy (Syncthing)" for a file-sync tool's copy beside its original
        (docs/formats.md §18.5), else ""."""
        if self._copies is None:
            self._copies = _copies_of(self.listing)
        copy = self._copies.get(path)
        return copy.name.label if copy is not None else ""

    def physical(self, segments: tuple[str, ...]) -> str | None:
        return None if self.root_physical is None else "/".join((self.root_physical, *segments))

    def directory(self, path: VirtualPath) -> TreeNode:
        """The node of a directory, created (with its missing parents) on first use."""
        segments = path.segments
        depth = len(segments)
        while segments[:depth] not in self.directories:
            depth -= 1
        node = self.directories[segments[:depth]]
        for end in range(depth + 1, len(segments) + 1):
            within = segments[:end]
            child = self._new_directory(
                path if end == len(segments) else path._replace(segments=within)
            )
            node.children.append(child)
            self.directories[within] = child
            node = child
        return node

    def _new_directory(self, path: VirtualPath) -> TreeNode:
        segments = path.segments
        if self.orphan_dir is not None:
            return TreeNode(
                orphan_entry_key(self.orphan_dir, path, is_dir=True),
                _DIRECTORY,
                segments[-1],
                section=self.container.section,
                physical=self.physical(segments),
                orphan_dir=self.orphan_dir,
                read_only=True,
            )
        text = self.virtual_root + "/".join(segments)  # str(path), without its scope's enum
        return TreeNode(
            f"dir:{text}",
            _DIRECTORY,
            segments[-1],
            section=self.container.section,
            path=path,
            physical=self.physical(segments),
            not_editable_reason=self.removed,
            read_only=self.removed is not None,
            accepts_drops=self.removed is None,
            ref=_mux_ref((MUX_SOURCE_ID, text)),
        )

    def container_key(self, segments: tuple[str, ...]) -> str:
        """The key of the container at `segments` (`()`: the section or orphan dir)."""
        node = self.directories.get(segments)
        if node is not None:  # a directory's node is keyed so (`_new_directory`)
            return node.key
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
        node = self.directories.get(segments)  # an outline's directories are made already
        if node is None:
            node = self.directory(VirtualPath(self.listing.scope, segments))
        node.unfilled_files += count

    def file_node(
        self, entry: FileEntry, meta: MetaEntry | None, match: FileMatch | None
    ) -> TreeNode:
        path = entry.path
        orphan = self.orphan_dir is not None
        warning = pinned_cut_warning(bool(meta and meta.pinned), entry.size_bytes)
        label = None
        if warning is None and not orphan and entry.editable and path.scope in SHARED_SCOPES:
            warning = xum_recall_warning(entry.description)
            label = XUM_NO_DESCRIPTION_LABEL if warning is not None else None
        file_node = TreeNode(
            self.file_node_key(path),
            _FILE,
            path.name,
            section=self.container.section,
            path=None if orphan else path,
            physical=self.physical(path.segments),
            orphan_dir=self.orphan_dir,
            description=entry.description or entry.heading,  # the title when undescribed
            size_bytes=entry.size_bytes,
            modified_at_ms=entry.modified_at_ms,
            not_editable_reason=entry.not_editable_reason or self.removed,
            pinned=bool(meta and meta.pinned),
            access_count=meta.access_count if meta else 0,
            last_accessed_at=meta.last_accessed_at if meta else None,
            content_hits=match.content_hits if match else 0,
            read_only=orphan or self.removed is not None,
            ref=None if orphan else MemoryFileRef(MUX_SOURCE_ID, str(path)),
            tag="" if orphan else self.copy_label(path),
            warning=warning,
            warning_label=label,
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
        if matches is None and open_containers is not None:
            self._add_open_files(scan, open_containers)
            return
        store = scan.view()
        is_open: dict[tuple[str, ...], bool] = {}  # by directory: one key lookup each
        unfilled: dict[tuple[str, ...], int] = {}
        files = self.listing.files
        if matches is not None:  # a search's: its matches alone, by the listing's keys
            keys = _listing_keys(self.listing, self.orphan_dir)
            files = tuple(compress(files, map(matches.__contains__, keys)))
        for entry in files:
            segments = entry.path.segments[:-1]
            match = None
            if matches is not None:
                match = matches[self.file_node_key(entry.path)]
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

    def _add_open_files(self, scan: HomeScan, open_containers: Collection[str]) -> None:
        """The file rows of the open containers, and the others' files counted: each
        file's directory and the counts taken with no loop in Python (a large home's
        files are nearly all in closed directories)."""
        files = self.listing.files
        parents = list(map(_parent_segments, map(_path_segments, files)))
        counts = Counter(parents)
        opened = {
            segments for segments in counts if self.container_key(segments) in open_containers
        }
        if opened:
            store = scan.view()
            for entry in compress(files, map(opened.__contains__, parents)):
                segments = entry.path.segments[:-1]
                parent = self.directories.get(segments) or self.directory(
                    VirtualPath(entry.path.scope, segments)
                )
                parent.children.append(self.file_row(scan, store, entry, None))
        for segments, count in counts.items():
            if segments not in opened:
                self.count_unfilled(segments, count)

    def file_row(
        self, scan: HomeScan, store: ScopeView, entry: FileEntry, match: FileMatch | None
    ) -> TreeNode:
        """The row of a listed file, with its pin and usage (orphans have none)."""
        meta = None if self.orphan_dir is not None else scan.meta.get(store.meta_key(entry.path))
        return self.file_node(entry, meta, match)

    def file_node_key(self, path: VirtualPath) -> str:
        if self.orphan_dir is not None:
            return orphan_entry_key(self.orphan_dir, path, is_dir=False)
        return file_key(path)


# What is derived from a whole listing (its files' keys, its conflict copies), kept for the
# last few listings' (two a listing): every keystroke of a search builds one scan's rows.
_LISTINGS_KEPT = 64
_BY_LISTING: dict[tuple[int, str], tuple[ScopeListing, object]] = {}


def _of_listing(listing: ScopeListing, what: str, make: Callable[[ScopeListing], T]) -> T:
    """`make(listing)`, made once for the listing while it is among the last kept."""
    found = _BY_LISTING.get((id(listing), what))
    if found is None or found[0] is not listing:
        if len(_BY_LISTING) >= _LISTINGS_KEPT:
            _BY_LISTING.clear()
        found = _BY_LISTING[id(listing), what] = (listing, make(listing))
    return cast(T, found[1])


def _copies_of(listing: ScopeListing) -> dict[VirtualPath, ConflictCopy]:
    return _of_listing(listing, "copies", lambda _: find_copies(e.path for e in listing.files))


def _listing_keys(listing: ScopeListing, orphan_dir: str | None) -> list[str]:
    """The tree key of each of `listing`'s files (an orphaned project dir's own)."""
    if orphan_dir is None:
        return _of_listing(listing, "keys", lambda _: [file_key(e.path) for e in listing.files])
    return _of_listing(listing, f"keys:{orphan_dir}", lambda _: [
        orphan_entry_key(orphan_dir, e.path, is_dir=False) for e in listing.files])  # fmt: skip


def prepare_search(scan: HomeScan) -> None:
    """Make what a search's trees take of each listing of `scan` (its files' keys, its conflict
    copies) before the first keystroke asks (on the lane, as the search field takes the focus)."""
    for listing, orphan_dir in [(item.listing, None) for item in scan.scopes] + [
        (orphan.listing, orphan.dir_name) for orphan in scan.orphans
    ]:
        _listing_keys(listing, orphan_dir)
        _copies_of(listing)


def _message(section: SectionId, kind: MessageKind, text: str) -> TreeNode:
    return TreeNode(message_key(section), NodeKind.MESSAGE, text, section, message_kind=kind)


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


def _too_deep_row(section: SectionId, paths: Sequence[VirtualPath]) -> TreeNode:
    """The warning row naming folders whose contents are past the depth memory paths go
    to (docs/formats.md §5): not shown, searched or recorded."""
    folders = humanize.plural(len(paths), "folder", "folders")
    where = "\n".join(too_deep_words(path) for path in paths)
    return TreeNode(
        too_deep_key(section),
        NodeKind.MESSAGE,
        f"⚠ Not shown: the contents of {folders}, nested too deep",
        section,
        message_kind=MessageKind.ERROR,
        subtitle=f"Memory paths go at most {MAX_PATH_DEPTH} levels below their scope; what "
        f"is deeper is not shown, searched or recorded:\n{where}",
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
        if scope is Scope.SESSION:
            return NO_WORKSPACE_SESSION_TEXT
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
    if scope_scan.removed is not None:
        # First: a narrow tree elides the end of the subtitle.
        node.subtitle = " · ".join(filter(None, (REMOVED_SUBTITLE, node.subtitle)))
        node.not_editable_reason = scope_scan.removed
        node.read_only = True
    else:
        node.accepts_drops = True
    if scope_scan.error is not None:
        node.adopt([_message(section, MessageKind.ERROR, scope_scan.error)])
        return node
    root = str(scope_scan.root) if scope_scan.root is not None else None
    tree = _ListingTree(node, scope_scan.listing, root, removed=scope_scan.removed)
    if matches is None:
        _add_outline(tree, scope_scan)
    tree.add_files(scan, matches, open_containers)
    finish_counts(node)
    if matches is not None:
        node.total_count = scope_scan.file_count
    else:
        if scope_scan.listing.unaddressable:
            node.children.append(_unaddressable_row(section, scope_scan.listing.unaddressable))
        if scope_scan.listing.too_deep:
            node.children.append(_too_deep_row(section, scope_scan.listing.too_deep))
    if not node.children and not node.unfilled_files:
        if matches is not None:  # a search that stopped at its limit before it: not searched
            text = NOT_REACHED_TEXT if getattr(matches, "more", False) else "No matches"
            node.adopt([_message(section, MessageKind.NO_MATCHES, text)])
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
            node.key for node in root.walk() if node.kind is _DIRECTORY and not node.read_only
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
        # lazy: ~45 ms (what sources are) the first paint saves: built once sources are scanned
        from memtab.components.tree.sources import build_source_sections

        project = scan.workspace.project_identity if scan.workspace is not None else None
        sections.extend(build_source_sections(scan.sources, matches, project))
    root.adopt(sections)
    return fingerprint_tree(root)


def fill_rows(scan: HomeScan, container_key: str) -> list[TreeNode] | None:
    """The file rows of one container, built from `scan` in display order (what the tree
    inserts when an unfilled container is expanded); None when `scan` has no listing of
    it (an outline) or no such container."""
    if scan.is_outline:
        return None
    trees = [
        _ListingTree(
            _section_node(SectionId(item.scope.value)),
            item.listing,
            str(item.root),
            removed=item.removed,
        )
        for item in scan.scopes
        if item.root is not None
    ] + [_orphan_tree(orphan) for orphan in scan.orphans]
    for tree in trees:
        segments = tree.segments_of(container_key)
        if segments is not None:
            store = scan.view()
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
