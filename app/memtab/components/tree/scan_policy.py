"""When the Memory tab scans and what each scan covers (`ScanPolicy`), and the scans as jobs
(`scan`, `outline`): `gui/tree/scan_scheduler.py` keeps only the job client and signals."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from memtab.components.jobs import JobContext
from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest, scan_outline

Presenter = Callable[[HomeScan], object]
"""Runs on the lane right after a scan (e.g. to build the tree); result in `presented`."""


class ScanPolicy:
    """One scan at a time, what changed meanwhile folded into the next: a superseding one
    (a workspace switch) covers what the running one did, a failed one leaves it to the next."""

    def __init__(self) -> None:
        self._pending: set[str] | None = set()  # None: everything
        self._inflight: frozenset[str] | None = frozenset()  # None: everything
        self._due = False
        self._after_outline = False

    @property
    def due(self) -> bool:
        """Whether a scan is to follow the one running."""
        return self._due

    @property
    def waiting_for_outline(self) -> bool:
        """Whether the first scan waits for the outline to be shown."""
        return self._after_outline

    def begin_with_outline(self) -> None:
        """The outline of the home is being made: the first scan, of everything, follows
        its paint (`outline_shown`)."""
        self._pending = None
        self._after_outline = True

    def outline_shown(self) -> bool:
        """The outline is on screen (or there is none): whether the first scan starts now."""
        return self._after_outline

    def request(self, paths: Iterable[str] | None, *, supersede: bool, running: bool) -> bool:
        """`paths` changed (None: everything): whether a scan starts now; else the next one,
        due after the `running` one, covers them. `supersede`: the running scan is
        cancelled and a new one, covering what it covered too, starts now."""
        if paths is None:
            self._pending = None
        elif self._pending is not None:
            self._pending.update(paths)
        if supersede:
            if self._inflight is None or self._pending is None:
                self._pending = None
            else:
                self._pending.update(self._inflight)
            return True
        if running:
            self._due = True
            return False
        return True

    def take(self) -> frozenset[str] | None:
        """A scan starts now: the paths it covers (None: everything); nothing is due after it."""
        pending, self._pending = self._pending, set()
        self._due = False
        self._after_outline = False
        self._inflight = frozenset(pending) if pending is not None else None
        return self._inflight

    def landed(self) -> None:
        """The running scan landed: a scan `due` starts now."""
        self._inflight = frozenset()

    def failed(self) -> None:
        """The running scan failed: what it covered is covered by the next scan (a file
        that appeared then shows once anything changes again, not only when it does)."""
        if self._inflight is None:
            self._pending = None
        elif self._pending is not None:
            self._pending.update(self._inflight)
        self._inflight = frozenset()


def scan(request: ScanRequest, present: Presenter | None, ctx: JobContext) -> ScanOutcome:
    """The job: the home scanned as `request` says, then presented."""
    # lazy: the first paint — a big home's outline paints before the full scan's readers
    from memtab.components.tree.full_scan import scan_home

    home_scan = scan_home(request, ctx)
    ctx.raise_if_cancelled()
    return ScanOutcome(request, home_scan, present(home_scan) if present is not None else None)


def outline(request: ScanRequest, present: Presenter | None, ctx: JobContext) -> ScanOutcome | None:
    """The job: a big home's outline (folders and counts from names alone), presented; None
    for a home small enough to show its full scan at once."""
    home_scan = scan_outline(request, ctx)
    if home_scan is None:
        return None
    ctx.raise_if_cancelled()
    return ScanOutcome(request, home_scan, present(home_scan) if present is not None else None)
