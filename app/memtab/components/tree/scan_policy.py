"""When the Memory tab scans, and what: one scan at a time, the changes that come meanwhile
folded into the next — Qt-free decisions, the window's `gui/tree/scan_scheduler.py` keeping
only its job client and signals.

- The first scan waits for the outline's paint (`begin_with_outline`, `outline_shown`) and
  covers everything.
- A change (`request`) is covered by a scan now, or, while one runs, by the next one, due as
  soon as the running one lands (`landed`).
- A superseding request (a workspace switch) replaces the running scan: what it covered is
  covered again by the new one.
- A scan that failed leaves what it covered to the next one.

Each `take()` is the paths the scan submitted now covers (None: everything).
"""

from __future__ import annotations

from collections.abc import Iterable


class ScanPolicy:
    """The Memory tab's scans (see the module doc)."""

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
