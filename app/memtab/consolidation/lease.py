"""A cross-process lease on consolidating a memory home.

Every run can change the global scope, so any two runs in one home touch the same scope:
one lease per home is exactly "never consolidate the same scopes at once", not a
simplification. The lease is a small JSON file beside the home's lock files holding the
owner (pid, host, a random token), the workspace it serves and an expiry. The holder
renews it while the run lasts; it is taken over when it has expired, or when its owner is
a process on this host that no longer exists (a crash never blocks consolidation for
longer than one expiry, and usually not at all). Reading and replacing the file happens
under a short interprocess lock, so two processes can never both take it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memtab.consolidation.errors import LeaseHeldError, RunCancelledError
from memtab.fs.atomic import atomic_write_json
from memtab.fs.locks import interprocess_lock
from memtab.store.home import Home

logger = logging.getLogger(__name__)

LEASE_TTL_S = 60.0
LEASE_FILE_NAME = "consolidation.lease"
_RETRY_S = 0.25


def wall_clock_ms() -> int:
    """Epoch milliseconds: leases are compared across processes, so no monotonic clock."""
    return int(time.time() * 1000)


def pid_alive(pid: int) -> bool | None:
    """Whether a process with this pid exists on this host; None when it cannot be told."""
    if sys.platform == "win32":  # pragma: no cover - os.kill(pid, 0) would kill on Windows
        return None
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by another user
    except OSError:
        return None
    return True


@dataclass(frozen=True)
class LeaseInfo:
    """Who holds the lease, for what, and until when (epoch ms)."""

    pid: int
    host: str
    token: str
    workspace_id: str
    acquired_at: int
    expires_at: int

    def to_json(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "host": self.host,
            "token": self.token,
            "workspaceId": self.workspace_id,
            "acquiredAt": self.acquired_at,
            "expiresAt": self.expires_at,
        }

    @classmethod
    def from_json(cls, data: Any) -> LeaseInfo | None:
        """A lease read from disk, or None when the file does not hold one."""
        if not isinstance(data, dict):
            return None
        try:
            info = cls(
                pid=int(data["pid"]),
                host=str(data["host"]),
                token=str(data["token"]),
                workspace_id=str(data.get("workspaceId", "")),
                acquired_at=int(data.get("acquiredAt", 0)),
                expires_at=int(data["expiresAt"]),
            )
        except (KeyError, TypeError, ValueError):
            return None
        return info


def lease_path(home: Home) -> Path:
    """The lease file: beside the home's lock files, never inside a memory scope."""
    return home.lock_path("consolidation").parent / LEASE_FILE_NAME


def read_lease(home: Home) -> LeaseInfo | None:
    """The lease on disk (None when there is none or it is unreadable)."""
    try:
        return LeaseInfo.from_json(json.loads(lease_path(home).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


class ConsolidationLease:
    """One process's claim on consolidating a home: acquire, renew in the background, release.

    Use `with lease.hold(workspace_id):` around a run. `lost_reason()` says when another
    process has taken the lease over (this one stalled past its expiry); the guard then
    refuses further mutations.
    """

    def __init__(
        self,
        home: Home,
        *,
        ttl_s: float = LEASE_TTL_S,
        renew_interval_s: float | None = None,
    ) -> None:
        if ttl_s <= 0:
            raise ValueError(f"the lease lifetime must be positive, got {ttl_s}")
        self.home = home
        self.ttl_ms = int(ttl_s * 1000)
        self.renew_interval_s = renew_interval_s if renew_interval_s is not None else ttl_s / 3
        self.token = secrets.token_hex(8)
        self._held: LeaseInfo | None = None
        self._lost: str | None = None
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    @property
    def path(self) -> Path:
        return lease_path(self.home)

    @property
    def held(self) -> bool:
        return self._held is not None and self._lost is None

    def lost_reason(self) -> str | None:
        """Why this holder must stop changing memory, or None while it holds the lease."""
        return self._lost

    def _guard(self) -> contextlib.AbstractContextManager[None]:
        return interprocess_lock(self.home.lock_path("consolidation-lease"), timeout_s=10.0)

    def acquire(self, workspace_id: str) -> None:
        """Take the lease, or raise LeaseHeldError naming the process that holds it."""
        with self._guard():
            current = read_lease(self.home)
            now = wall_clock_ms()
            if current is not None and current.token != self.token:
                blocker = self._still_valid(current, now)
                if blocker:
                    raise LeaseHeldError(blocker)
                logger.info(
                    "taking over the consolidation lease of pid %d on %s (%s)",
                    current.pid,
                    current.host,
                    "expired" if current.expires_at <= now else "its process is gone",
                )
            info = LeaseInfo(
                pid=os.getpid(),
                host=socket.gethostname(),
                token=self.token,
                workspace_id=workspace_id,
                acquired_at=now,
                expires_at=now + self.ttl_ms,
            )
            atomic_write_json(self.path, info.to_json())
            self._held, self._lost = info, None

    @staticmethod
    def _still_valid(current: LeaseInfo, now: int) -> str | None:
        """Why `current` still blocks us, or None when it may be taken over."""
        if current.expires_at <= now:
            return None
        if current.host == socket.gethostname() and pid_alive(current.pid) is False:
            return None
        return (
            f"another Memtab process (pid {current.pid} on {current.host}) is consolidating "
            f"this memory home (workspace {current.workspace_id or '?'}); try again when it "
            "has finished"
        )

    def renew(self) -> bool:
        """Push the expiry forward; False (and `lost_reason` set) if another owner took it."""
        if self._held is None:
            return False
        with self._guard():
            current = read_lease(self.home)
            if current is None or current.token != self.token:
                owner = f"pid {current.pid} on {current.host}" if current else "nobody"
                self._lost = (
                    f"the consolidation lease was taken over ({owner}); stop changing memory"
                )
                logger.warning("consolidation lease lost: %s", self._lost)
                return False
            renewed = replace(current, expires_at=wall_clock_ms() + self.ttl_ms)
            atomic_write_json(self.path, renewed.to_json())
            self._held = renewed
            return True

    def release(self) -> None:
        """Stop renewing and remove the lease file if it is still ours."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
            self._renewer = None
        if self._held is None:
            return
        try:
            with self._guard():
                current = read_lease(self.home)
                if current is not None and current.token == self.token:
                    self.path.unlink(missing_ok=True)
        except (OSError, TimeoutError) as error:
            logger.warning("could not release the consolidation lease: %s", error)
        self._held = None

    def _keep_renewing(self) -> None:
        while not self._stop.wait(self.renew_interval_s):
            try:
                if not self.renew():
                    return
            except (OSError, TimeoutError) as error:  # try again; expiry bounds the damage
                logger.warning("could not renew the consolidation lease: %s", error)

    def acquire_waiting(
        self, workspace_id: str, *, wait_s: float, cancel: threading.Event | None = None
    ) -> None:
        """`acquire`, retrying for up to `wait_s` while another process holds the lease.

        Raises LeaseHeldError when the wait runs out, RunCancelledError when cancelled.
        """
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self.acquire(workspace_id)
                return
            except LeaseHeldError:
                if time.monotonic() >= deadline:
                    raise
            if cancel is not None and cancel.wait(_RETRY_S):
                raise RunCancelledError("the consolidation run was cancelled while it waited")
            if cancel is None:
                time.sleep(_RETRY_S)

    @contextlib.contextmanager
    def hold(
        self, workspace_id: str, *, wait_s: float = 0.0, cancel: threading.Event | None = None
    ) -> Iterator[ConsolidationLease]:
        """Acquire (waiting up to `wait_s` for another holder), renew in a background
        thread while the block runs, then release."""
        self.acquire_waiting(workspace_id, wait_s=wait_s, cancel=cancel)
        self._stop.clear()
        self._renewer = threading.Thread(
            target=self._keep_renewing, name="memtab-consolidation-lease", daemon=True
        )
        self._renewer.start()
        try:
            yield self
        finally:
            self.release()
