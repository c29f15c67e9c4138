"""The tree's operations: scanning the memory home for the Memory tab.

`scan(request, present, ctx)` is the full scan (`components.tree.full_scan.scan_home`,
imported by the lane that runs the first one) and `outline(request, present, ctx)` the
outline a big home's first paint shows before it (`components.tree.scan.scan_outline`;
None for a home small enough to show its full scan at once). Each then runs `present` on
the lane, right after the scan (the tree built for it), and returns a `ScanOutcome`.
"""

from __future__ import annotations

from collections.abc import Callable

from memtab.components.jobs import JobContext
from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest, scan_outline

Presenter = Callable[[HomeScan], object]
"""Runs on the lane right after a scan (e.g. to build the tree); result in `presented`."""


def scan(request: ScanRequest, present: Presenter | None, ctx: JobContext) -> ScanOutcome:
    """The home scanned as `request` says, then presented."""
    # lazy: the lane loads the full scan's readers (the journal…, ~10 ms): a big home's
    # outline paints before them.
    from memtab.components.tree.full_scan import scan_home

    home_scan = scan_home(request, ctx)
    ctx.raise_if_cancelled()
    return ScanOutcome(request, home_scan, present(home_scan) if present is not None else None)


def outline(request: ScanRequest, present: Presenter | None, ctx: JobContext) -> ScanOutcome | None:
    """The outline of a big home (folders and counts from names alone), presented; None
    for a home small enough to show its full scan at once."""
    home_scan = scan_outline(request, ctx)
    if home_scan is None:
        return None
    ctx.raise_if_cancelled()
    return ScanOutcome(request, home_scan, present(home_scan) if present is not None else None)
