"""What each scan the Memory tab shows fans out to, decided without Qt.

The tab (its frame, `gui/first_paint/memory_tab.py`, and its controller,
`gui/memory_tab/controller.py`) keeps the widgets and the features; for every scan that
lands it asks `scan_steps` what to do and carries it out:

- the first scan, before the tab's parts are built: only the tree (the parts are built
  once it has painted);
- another workspace shown than the last scan's (another notebook or project): the
  workspace is shown anew (the editor's store, the Inbox, the features following
  `context.shown`), saying so when the one asked for by name is not there;
- a search under way searches the new scan again, else the tree shows it;
- the same workspace with files changed on disk: the editor follows those files (a clean
  buffer reloads, a dirty one asks);
- a registry that cannot be read is said.

A NamedTuple and a function: the tab imports this before its first paint.
"""

from typing import NamedTuple

from memtab.components.tree.scan import HomeScan, workspace_identity
from memtab.file_protocol.file_ref import MemoryFileRef

NOT_SHOWN_SUFFIX = "; showing another workspace instead."


class ScanSteps(NamedTuple):
    """What one scan fans out to (see the module docstring)."""

    first: bool
    """The parts are not built yet: the tree alone."""
    workspace_changed: bool
    """The scan shows another workspace than the last one: show it anew."""
    workspace_note: str | None
    """Why the workspace asked for by name is not the one shown (to say), or None."""
    search_again: bool
    """A search is under way: search the new scan (else the tree shows it)."""
    followed: frozenset[MemoryFileRef]
    """The files that changed on disk, for the open editor tabs to follow."""
    error: str | None
    """The registry's error to show, or None."""


def scan_steps(
    scan: HomeScan,
    previous: HomeScan | None,
    *,
    assembled: bool,
    searching: bool,
    explicit_workspace: bool,
) -> ScanSteps:
    """The steps for `scan`, shown after `previous`; `assembled` once the tab's parts are
    built, `searching` while a search is under way, `explicit_workspace` when the user
    named the workspace (`--workspace`)."""
    if not assembled:
        return ScanSteps(True, False, None, False, frozenset(), scan.registry_error)
    same = previous is not None and workspace_identity(previous.workspace) == workspace_identity(
        scan.workspace
    )
    note = None
    if not same and scan.workspace_note and explicit_workspace:
        note = scan.workspace_note + NOT_SHOWN_SUFFIX
    changes = scan.changes
    followed = (
        frozenset(MemoryFileRef.of_mux(path) for path in changes.changed | changes.deleted)
        if same and not changes.empty
        else frozenset()
    )
    return ScanSteps(False, not same, note, searching, followed, scan.registry_error)
