"""What each scan the Memory tab shows fans out to, decided without Qt."""

from typing import NamedTuple

from memtab.components.tree.scan import HomeScan, workspace_identity
from memtab.file_protocol.file_ref import MemoryFileRef

NOT_SHOWN_SUFFIX = "; showing another workspace instead."


class ScanSteps(NamedTuple):
    """What one scan fans out to."""

    first: bool  # The parts are not built yet: the tree alone.
    workspace_changed: bool  # The scan shows another workspace than the last one: show it anew.
    workspace_note: str | None
    """Why the workspace asked for by name is not the one shown (to say), or None."""
    search_again: bool  # A search is under way: search the new scan (else the tree shows it).
    followed: frozenset[MemoryFileRef]
    """The files that changed on disk, for the open editor tabs to follow."""
    error: str | None  # The registry's error to show, or None.


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
