"""One consolidation at a time per memory home, across processes. Every run can change the global
scope, so any two runs in one home touch the same scope: one lock per home is exactly "never
consolidate the same scopes at once"."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Sequence

from memtab.consolidation.errors import LockHeldError, RunCancelledError
from memtab.fs.locking.locks import LockUnavailableError, OwnedLock, interprocess_lock, lock_holder
from memtab.store.home import CONSOLIDATION_LOCK, Home
from memtab.store.paths import SHARED_SCOPES, Scope
from memtab.store.scopes.scope_store import ScopeStore

# While waiting for another process's run, how often to look again (and at `cancel`).
_WAIT_SLICE_S = 0.25
# A run that cannot start says so within 2 s (docs/formats.md §9.1): a short wait for the
# runs log (an append holds it a millisecond; its catch-up is done next time otherwise),
# then the rest for the scopes.
CATCH_UP_WAIT_S = 0.2
SCOPE_WAIT_S = 1.8
"""How long a run waits for a scope another program holds before failing (an edit holds
it about a millisecond)."""


class ConsolidationLock:
    """The home's consolidation lock: `with lock.hold(workspace_id):` around a run."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path(CONSOLIDATION_LOCK))

    @property
    def held(self) -> bool:
        return self._lock.held

    @contextlib.contextmanager
    def hold(
        self, workspace_id: str, *, wait_s: float = 0.0, cancel: threading.Event | None = None
    ) -> Iterator[None]:
        """Hold the lock for the block, waiting up to `wait_s` for another holder. Raises
        LockHeldError when the wait runs out (naming the holder), and RunCancelledError when
        `cancel` is set while waiting."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self._lock.acquire(
                    min(_WAIT_SLICE_S, max(deadline - time.monotonic(), 0.0)),
                    workspaceId=workspace_id,
                )
                break
            except LockUnavailableError:
                if time.monotonic() >= deadline:
                    raise LockHeldError(self._busy_message()) from None
            if cancel is not None and cancel.is_set():
                raise RunCancelledError("the consolidation run was cancelled while it waited")
        try:
            yield
        finally:
            self._lock.release()

    def _busy_message(self) -> str:
        holder = self._lock.holder()
        if holder is None:
            who, what = "another Memtab process", ""
        else:
            who = f"another Memtab process ({holder.describe()})"
            what = f" (workspace {holder.details.get('workspaceId') or '?'})"
        return f"{who} is consolidating this memory home{what}; try again when it has finished"


def check_scopes_free(
    store: ScopeStore, wait_s: float = SCOPE_WAIT_S, scopes: Sequence[Scope] = SHARED_SCOPES
) -> None:
    """LockHeldError, naming the holder where the system tells, when another program has
    kept one of the store's scopes (of `scopes`: those the run changes) locked for
    `wait_s` (see the module doc)."""
    for scope in scopes:  # a run never changes a session scope
        if store.unavailable_reason(scope):
            continue
        path = store.scope_lock_path(scope)
        try:
            with interprocess_lock(path, timeout_s=wait_s):
                pass
        except LockUnavailableError:
            who = lock_holder(path) or "another program"
            raise LockHeldError(
                f"the {scope.value} memory scope is locked by {who}, for over {wait_s:g} s; "
                "the run did not start and nothing was changed — try again once it lets go "
                f"(its lock: {path})"
            ) from None
