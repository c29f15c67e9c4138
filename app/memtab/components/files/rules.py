"""The tree's file actions' rules, without Qt: which action a row offers, what each may
act on, and what it says."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from memtab.components.history.history import SCOPE_TITLES
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.sources.claude.index import is_cut_index
from memtab.sources.codex.imports import IMPORTED_TAG
from memtab.store.paths import Scope, VirtualPath

_EDITABLE_KINDS = (NodeKind.FILE, NodeKind.DIRECTORY)
_NEW_ITEM_SCOPES = (Scope.WORKSPACE, Scope.PROJECT, Scope.GLOBAL)


class RowAction(enum.Enum):
    """An action a row's context menu offers (`SEPARATOR`: a line between groups)."""

    PIN = "pin"
    HISTORY = "history"
    COPY_TO = "copy_to"
    NEW_FILE = "new_file"
    NEW_FOLDER = "new_folder"
    TRASH = "trash"
    RENAME = "rename"
    COPY_PATH = "copy_path"
    REVEAL = "reveal"
    DELETE = "delete"
    DELETE_ORPHAN = "delete_orphan"
    OPEN_LINKED = "open_linked"
    """A file Codex imported from Claude Code, or its original: open the other."""
    GO_TO_CUT = "go_to_cut"
    """Claude Code's MEMORY.md past its cut: the cursor to the first line it does not read
    (the loads feature's action)."""
    CONSOLIDATE = "consolidate"
    """A scope's row: consolidate that scope alone (the window's `consolidation.run_scope`)."""
    SEPARATOR = "separator"


def linked_text(node: TreeNode | None) -> str:
    """The words of the action that opens a row's linked file."""
    if node is not None and node.linked is not None and node.tag == IMPORTED_TAG:
        return "Open the original in Claude Code's memory"
    return "Open Codex's import of it"


def row_actions(node: TreeNode) -> tuple[RowAction, ...]:
    """A row's context menu, in order: another agent's file is only copied (or its folder
    opened), an orphaned dir deleted whole, a scope's file pinned, copied, renamed, deleted…; Go
    to the cut and Open the other come first where they apply."""
    offered: list[RowAction] = []
    if node.linked is not None and node.kind is NodeKind.FILE:
        offered += (RowAction.OPEN_LINKED, RowAction.SEPARATOR)
    if is_cut_past(node):
        offered += (RowAction.GO_TO_CUT, RowAction.SEPARATOR)
    if node.read_only:
        if node.ref is not None and node.kind is NodeKind.FILE:
            offered.append(RowAction.COPY_TO)
        elif node.ref is None and node.kind is NodeKind.ORPHAN_DIR:
            offered.append(RowAction.DELETE_ORPHAN)
        if node.physical:
            offered.append(RowAction.REVEAL)
        return tuple(offered)
    if node.kind is NodeKind.FILE:
        offered += (RowAction.PIN, RowAction.HISTORY, RowAction.COPY_TO)
    if node.kind in (NodeKind.SECTION, NodeKind.DIRECTORY) and node.accepts_drops:
        offered += (RowAction.NEW_FILE, RowAction.NEW_FOLDER)
    if node.kind is NodeKind.SECTION and node.path is not None:
        offered.append(RowAction.TRASH)
    if node.kind is NodeKind.SECTION and consolidated_scope(node) is not None:
        offered.append(RowAction.CONSOLIDATE)
    if node.kind in _EDITABLE_KINDS:
        offered += (
            RowAction.SEPARATOR,
            RowAction.RENAME,
            RowAction.COPY_PATH,
            RowAction.REVEAL,
            RowAction.SEPARATOR,
            RowAction.DELETE,
        )
    return tuple(offered)


def is_cut_past(node: TreeNode) -> bool:
    """Whether `node` is a Claude Code `MEMORY.md` its agent does not read whole (its
    listing's warning names the cut: docs/formats.md §17.6)."""
    ref = node.ref
    return (
        node.kind is NodeKind.FILE
        and ref is not None
        and is_cut_index(ref.agent, ref.name)
        and bool(node.warning)
    )


def is_editable(node: TreeNode | None, *kinds: NodeKind) -> bool:
    """Whether `node` is a file or folder of a scope Memtab may change (rename, delete,
    copy its path); `kinds` narrows it (Pin: files only)."""
    return (
        node is not None
        and node.kind in (kinds or _EDITABLE_KINDS)
        and not node.read_only
        and node.path is not None
    )


def is_pinnable(node: TreeNode | None) -> bool:
    """Whether Pin applies to `node`: a file of a scope."""
    return is_editable(node, NodeKind.FILE)


def is_copyable(node: TreeNode | None) -> bool:
    """Whether Copy to… applies: a file, ours or another agent's (not an orphan's)."""
    return node is not None and node.kind is NodeKind.FILE and node.orphan_dir is None


def has_scope(node: TreeNode | None) -> bool:
    """Whether `node` is a row of one of mux's scopes (its section, a folder, a file)."""
    return node is not None and node.path is not None and node.path.scope is not None


def scope_trash_text(node: TreeNode | None) -> str:
    """What the scope's Recently deleted is called for `node`: named by its scope, so it is never
    taken for the window's, which shows everything ("Recently deleted in Global…")."""
    scope = node.path.scope if node is not None and node.path is not None else None
    return f"Recently deleted in {SCOPE_TITLES[scope] if scope else 'this scope'}…"


def consolidated_scope(node: TreeNode | None) -> Scope | None:
    """The scope "Consolidate this scope" runs alone for `node` (docs/formats.md §9.8): its
    row's scope, when a consolidation changes it — global, project, workspace; not xum's
    session scope, an orphaned project dir's or a scope shown read-only."""
    if node is None or node.path is None or node.orphan_dir is not None or node.read_only:
        return None
    scope = node.path.scope
    return scope if scope is not None and scope.shared else None


def consolidate_text(node: TreeNode | None) -> str:
    """What "Consolidate this scope" says for `node`: named by its scope, so it is never
    taken for Consolidate now, which runs them all ("Consolidate Global only")."""
    scope = consolidated_scope(node)
    return f"Consolidate {SCOPE_TITLES[scope]} only" if scope else "Consolidate this scope"


def pin_text(node: TreeNode | None) -> str:
    """What the Pin action says for `node`."""
    return "Unpin" if node is not None and node.pinned else "Pin"


def scope_nodes(nodes: Sequence[TreeNode]) -> list[TreeNode]:
    """The selected files and folders inside scopes (not orphans, sections, messages)."""
    return [node for node in nodes if is_editable(node)]


def pin_target(
    current: TreeNode | None, open_file: TreeNode | None, *, tree_has_keyboard: bool
) -> TreeNode | None:
    """The row Pin acts on: the tree's `current` row while the tree has the keyboard, else
    the `open_file`'s row (the text, the search field) when the tree shows it."""
    return open_file if not tree_has_keyboard and open_file is not None else current


def shown_files(rows: Iterable[TreeNode], *, searching: bool) -> set[VirtualPath] | None:
    """The files a delete counts as shown: while a search filters the tree, the file rows
    it shows (a folder's others are said hidden); else None, every file shows."""
    if not searching:
        return None
    return {row.path for row in rows if row.kind is NodeKind.FILE and row.path is not None}


def asks_before_drop(
    sources: Sequence[VirtualPath], target_dir: VirtualPath, *, ask_cross_scope: bool
) -> bool:
    """Whether a drop of `sources` into `target_dir` asks first: when it moves a file
    into another scope, unless the user said not to ask again (`ask_cross_scope`)."""
    return ask_cross_scope and crosses_scopes(sources, target_dir)


def deletion_roots(nodes: Sequence[TreeNode]) -> list[VirtualPath]:
    """What deleting `nodes` removes: each path not inside another one deleted (a folder's
    contents go with it: not listed twice)."""
    paths = [node.path for node in scope_nodes(nodes) if node.path is not None]
    return [p for p in paths if not any(p != q and p.is_within(q) for q in paths)]


def deletes_only_files(nodes: Sequence[TreeNode], roots: Sequence[VirtualPath]) -> bool:
    """Whether every root deleted is a file (the question then says files, not folders)."""
    return all(node.kind is NodeKind.FILE for node in scope_nodes(nodes) if node.path in roots)


def new_item_location(
    node: TreeNode | None, unavailable: Callable[[Scope], str | None]
) -> VirtualPath:
    """Where New creates things: the selected folder or section, a file's folder, else the
    workspace scope (the project's, the global one, when there is none: `unavailable`
    says why a scope is not there)."""
    while node is not None and not (node.accepts_drops and node.path is not None):
        node = node.parent
    if node is not None and node.path is not None:
        return node.path
    for scope in _NEW_ITEM_SCOPES:
        if unavailable(scope) is None:
            return VirtualPath(scope)
    return VirtualPath(Scope.GLOBAL)


def drop_moves(
    sources: Sequence[VirtualPath], target_dir: VirtualPath
) -> list[tuple[VirtualPath, VirtualPath]]:
    """Each dropped path and where it goes in `target_dir` (raises ValueError, saying why,
    when a name cannot go there)."""
    return [(source, target_dir.child(source.name)) for source in sources]


def crosses_scopes(sources: Sequence[VirtualPath], target_dir: VirtualPath) -> bool:
    """Whether a drop moves something into another scope (it asks first)."""
    return any(source.scope != target_dir.scope for source in sources)


def scope_place(target_dir: VirtualPath) -> str:
    """How the cross-scope question names where the files go."""
    assert target_dir.scope is not None
    return f"{SCOPE_TITLES[target_dir.scope].lower()} memory ({target_dir})"


def copied_paths_note(paths: Sequence[str]) -> str:
    """The status bar's note after Copy path."""
    return f"Copied {paths[0]}" if len(paths) == 1 else f"Copied {len(paths)} paths"


def containing_folder(node: TreeNode | None) -> str | None:
    """The folder Open containing folder opens: a folder itself, a file's parent (None
    for a row that is nowhere on disk)."""
    if node is None or not node.physical:
        return None
    return node.physical if node.kind is not NodeKind.FILE else str(Path(node.physical).parent)


def no_file_manager_text(folder: str) -> str:
    """What Open containing folder says when no file manager opened it."""
    return (
        f"No file manager could open {folder} (none is set up for folders here); "
        "its path is on the clipboard."
    )


UNDO_UNAVAILABLE = (
    "Nothing to undo: no file was created, moved, deleted or pinned, nor an Inbox item "
    "accepted or rejected, here yet"
)
REDO_UNAVAILABLE = "Nothing to redo: no change to the files was undone since the last one"


def turn_words(step: str | None, *, redo: bool, typing: bool, busy: bool) -> tuple[str, str]:
    """Edit → Undo's or Redo's text and tooltip: `Undo delete of notes.md` for the step
    `step` describes (None: none), `Undo typing` in a text field with the focus (`typing`),
    the bare verb while a file operation runs (`busy`) or with nothing to turn."""
    verb = "&Redo" if redo else "&Undo"
    if typing:
        return f"{verb} typing", ""
    if busy:
        return verb, "Once the file operation in progress has ended"
    if step is None:
        return verb, REDO_UNAVAILABLE if redo else UNDO_UNAVAILABLE
    return f"{verb} {step.replace('&', '&&')}", step
