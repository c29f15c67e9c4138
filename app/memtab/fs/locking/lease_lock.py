"""xum's lock files in xum's own protocol (`fileLock.ts`, docs/formats.md §21.1): a token
`pid:nonce:hex(birth)` linked into place, stale only when its holder is provably gone or its lease
expired, a stale one reclaimed under `<lock>.reclaim`, released only while it holds our token."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from memtab.fs.lazy_re import LazyPattern
from memtab.fs.locking.locks import LockUnavailableError
from memtab.fs.slotted import Slotted

logger = logging.getLogger(__name__)

# xum's FILE_LOCK_LEASE_MS: a holder whose birth cannot be told is gone past it; holders renew every
# quarter.
LEASE_S = 300.0
RENEW_INTERVAL_S = LEASE_S / 4
_RETRY_S = 0.010  # xum's FILE_LOCK_RETRY_MS, with its jitter
_BIRTH_CACHE_S = 1.0  # birth probes may spawn `ps`; a pid's birth never changes while it lives
# Link failures that mean "no hard links here", not "held".
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV}
_LEADING_INT = LazyPattern(r"\s*([+-]?\d+)")
_HEX = LazyPattern(r"[0-9a-f]+")
_TICKS = "linux-ticks:"


class LeaseLockBusyError(LockUnavailableError):
    """Another process holds the lock file (and is alive), or it could not be had in time."""


_births: dict[int, tuple[float, str | None]] = {}


def process_birth(pid: int) -> str | None:
    """What tells the process using `pid` from a later one (xum's `getProcessBirth`); None when the
    system does not say."""
    cached = _births.get(pid)
    if cached is not None and time.monotonic() - cached[0] < _BIRTH_CACHE_S:
        return cached[1]
    birth = _probe_birth(pid)
    _births[pid] = (time.monotonic(), birth)
    return birth


def _probe_birth(pid: int) -> str | None:
    if sys.platform == "win32":
        return None  # neither /proc nor `ps`: the lease decides
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            text = stat.read()
        # The command name may hold spaces and ")".
        fields = text[text.rindex(")") + 2 :].split(" ")
        if len(fields) > 19 and fields[19].isdigit():
            return f"{_TICKS}{fields[19]}"
    except (OSError, ValueError):
        pass  # not Linux, or the process is gone
    # lazy: only macOS and the BSDs ask `ps`, and the first paint imports this module.
    import subprocess

    try:
        done = subprocess.run(
            ["ps", "-o", "lstart=", "-p", str(pid)],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    line = done.stdout.strip()
    return f"ps-lstart:{line}" if done.returncode == 0 and line else None


def pid_alive(pid: int) -> bool | None:
    """Whether a process has this pid (EPERM: alive); None where it cannot be asked (Windows)."""
    if sys.platform == "win32":
        return None
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def make_token(nonce: str) -> str:
    """Our token: `pid:nonce:hex(birth)`, or `pid:nonce` where birth cannot be told."""
    pid = os.getpid()
    birth = process_birth(pid)
    return f"{pid}:{nonce}" if birth is None else f"{pid}:{nonce}:{birth.encode().hex()}"


def parse_token(raw: str) -> tuple[int | None, str | None]:
    """(pid, birth) of a token as xum reads one (the pid by JavaScript's parseInt)."""
    parts = raw.split(":")
    match = _LEADING_INT.match(parts[0])
    pid = int(match[1]) if match else 0
    if pid <= 0 or pid > 2**53 - 1:
        return None, None
    if len(parts) < 3 or not _HEX.fullmatch(parts[2]):
        return pid, None
    hex_text = parts[2][: len(parts[2]) // 2 * 2]  # Buffer.from drops a trailing nibble
    return pid, bytes.fromhex(hex_text).decode("utf-8", "replace")


def lease_expired(path: Path, *, now: float | None = None) -> bool:
    """Whether the lock file's mtime is older than the lease (False when it is gone)."""
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return False
    return (time.time() if now is None else now) - mtime > LEASE_S


def is_stale(path: Path, observed: str) -> bool:
    """Whether the holder in `observed` is provably or presumably gone (xum's `isLockStale`)."""
    pid, birth = parse_token(observed)
    if pid is None:
        return lease_expired(path)
    alive = pid_alive(pid)
    if alive is False:
        return True
    current = process_birth(pid) if alive else None
    if birth is not None and current is not None:
        if current == birth:
            return False
        if birth.startswith(_TICKS) and current.startswith(_TICKS):
            return True  # another process has the pid now
        # `ps` prints the start in its caller's locale: never take a live holder's lock on that.
    return lease_expired(path)


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def _place(temp: Path, path: Path, token: str) -> bool:
    """Publish the token at `path`: True when placed, False when `path` is taken."""
    try:
        os.link(temp, path)
        return True
    except FileExistsError:
        return False
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS and sys.platform != "win32":
            raise
    try:  # no hard links on this file system: an exclusive create, then the token
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0))
    except FileExistsError:
        return False
    try:
        os.write(fd, token.encode())
    finally:
        os.close(fd)
    return True


class _Held(Slotted):
    __slots__ = ("path", "renewed", "token")

    def __init__(self, path: Path, token: str) -> None:
        self.path = path
        self.token = token
        self.renewed = time.monotonic()


_held: dict[int, _Held] = {}
_held_guard = threading.Lock()
_renewer: threading.Thread | None = None


def _forget_held_after_fork() -> None:
    # A forked child holds none of its parent's locks (their tokens name the parent).
    global _held_guard, _renewer
    _held.clear()
    _held_guard = threading.Lock()
    _renewer = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_held_after_fork)


def renew_held_leases(*, every_s: float = 0.0) -> None:
    """Refresh the mtime of every lock this process still holds, those not renewed for `every_s`."""
    now = time.monotonic()
    with _held_guard:  # a release waits for a renewal in flight (it never renews a successor)
        for held in list(_held.values()):
            if now - held.renewed < every_s:
                continue
            held.renewed = now
            if _read(held.path) != held.token:
                continue  # taken over: nothing of ours to renew
            try:
                os.utime(held.path)
            except OSError as error:
                logger.debug("Cannot renew the lease of %s: %s", held.path, error)


def _renew_while_held() -> None:
    global _renewer
    while True:
        time.sleep(RENEW_INTERVAL_S / 4)
        renew_held_leases(every_s=RENEW_INTERVAL_S)
        with _held_guard:
            if not _held:  # nothing held: the next lock taken starts a renewer again
                _renewer = None
                return


def _hold(held: _Held) -> None:
    global _renewer
    with _held_guard:
        _held[id(held)] = held
        if _renewer is None or not _renewer.is_alive():
            _renewer = threading.Thread(target=_renew_while_held, name="lease-renewer", daemon=True)
            _renewer.start()


class LeaseLock:
    """One lock file of xum's kind; not re-entrant."""

    def __init__(self, path: Path, label: str) -> None:
        self.path = Path(path)
        self.label = label
        self._held: _Held | None = None

    @property
    def held(self) -> bool:
        return self._held is not None

    def acquire(self, timeout_s: float) -> None:
        """Take the lock within `timeout_s`, taking over a stale one; else LeaseLockBusyError."""
        if self._held is not None:
            raise LeaseLockBusyError(f"The {self.label} {self.path} is already held here")
        nonce = os.urandom(8).hex()
        token = make_token(nonce)
        temp = self.path.with_name(f"{self.path.name}.tmp-{os.getpid()}-{nonce}")
        deadline = time.monotonic() + max(timeout_s, 0.0)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(token.encode())
        try:
            while True:
                if _place(temp, self.path, token):
                    self._held = _Held(self.path, token)
                    _hold(self._held)
                    return
                reclaim_if_stale(self.path)
                if time.monotonic() >= deadline:
                    raise LeaseLockBusyError(
                        f"Timed out after {timeout_s:g} s waiting for the {self.label} {self.path}"
                    )
                time.sleep(_RETRY_S + random.random() * _RETRY_S)
        finally:
            with contextlib.suppress(OSError):
                temp.unlink()

    def release(self) -> None:
        """Let the lock go: remove it only while it holds our token (no-op when not held)."""
        held, self._held = self._held, None
        if held is None:
            return
        with _held_guard:
            _held.pop(id(held), None)
        _release_file(held.path, held.token, self.label)


def _release_file(path: Path, token: str, label: str) -> None:
    current = _read(path)
    if current != token:
        logger.warning("The %s %s changed owners before release; leaving it", label, path)
        return
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def reclaim_if_stale(path: Path) -> None:
    """Remove the lock at `path` when its holder is provably gone (xum's `reclaimStaleFileLock`),
    never one whose token changed."""
    observed = _read(path)
    if observed is None or not is_stale(path, observed):
        return
    with _reclaim_guard(path) as guarded:
        if not guarded or _read(path) != observed:
            return  # another reclaimer is at it, or the holder released and someone took it
        graveyard = path.with_name(f"{path.name}.stale-{os.urandom(4).hex()}")
        try:
            os.rename(path, graveyard)
        except OSError:
            return  # released meanwhile
        claimed = _read(graveyard)
        if claimed is not None and claimed != observed:
            try:  # a fresh holder took the lock between our look and the rename: give it back
                os.link(graveyard, path)
            except OSError as error:
                logger.error(
                    "Could not give back the lock %s taken over by mistake; its token is "
                    "kept at %s: %s",
                    path,
                    graveyard,
                    error,
                )
                return
        with contextlib.suppress(OSError):
            graveyard.unlink()


@contextlib.contextmanager
def _reclaim_guard(path: Path) -> Iterator[bool]:
    """Hold `<lock>.reclaim` for the block (True), or False while another reclaimer holds it."""
    guard = path.with_name(path.name + ".reclaim")
    nonce = os.urandom(8).hex()
    token = make_token(nonce)
    temp = guard.with_name(f"{guard.name}.tmp-{os.getpid()}-{nonce}")
    try:
        temp.write_bytes(token.encode())
        placed = _place(temp, guard, token)
    except OSError:
        placed = False
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    if not placed:
        observed = _read(guard)
        if observed is not None and is_stale(guard, observed):
            with contextlib.suppress(OSError):
                guard.unlink()
        yield False
        return
    try:
        yield True
    finally:
        _release_file(guard, token, "reclaim guard")


class LockState(Slotted):
    """Who holds a lock file as far as its token tells (`memtab doctor`)."""

    __slots__ = ("alive", "path", "pid", "since", "stale")

    path: Path
    pid: int | None
    alive: bool | None
    """None where a pid's liveness is not asked (Windows) or the token has no pid."""
    since: float  # the file's mtime: when it was taken or last renewed
    stale: bool

    def __init__(
        self, path: Path, pid: int | None, alive: bool | None, since: float, stale: bool
    ) -> None:
        self.path = path
        self.pid = pid
        self.alive = alive
        self.since = since
        self.stale = stale


def lock_state(path: Path) -> LockState | None:
    """What the lock file at `path` says (None when it is gone)."""
    token = _read(path)
    try:
        since = os.stat(path).st_mtime
    except OSError:
        return None
    if token is None:
        return None
    pid, _birth = parse_token(token)
    alive = pid_alive(pid) if pid is not None else None
    return LockState(path, pid, alive, since, is_stale(path, token))


_TEMP_NAME = LazyPattern(r"^(?P<lock>.+)\.tmp-(?P<pid>\d+)-[0-9a-f]+$")
_MOVED_NAME = LazyPattern(r"^(?P<lock>.+)\.stale-[0-9a-f]+$")
# A temp file lives for one acquire, a moved-aside lock for one reclaim: older is nobody's.
LEFTOVER_MIN_AGE_S = 60.0


def is_leftover_name(name: str) -> bool:
    """Whether `name` is a lock's temp file or a stale lock moved aside by a reclaim."""
    return bool(_TEMP_NAME.match(name) or _MOVED_NAME.match(name))


def remove_if_leftover(path: Path, *, now: float | None = None) -> bool:
    """Remove a lock's temp file or moved-aside lock no process can still use (docs/formats.md
    §21.1); whether it went."""
    moment = time.time() if now is None else now
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    # ctime: a rename (moving a lock aside) keeps the mtime but changes the ctime.
    if (
        not stat.S_ISREG(info.st_mode)
        or moment - max(info.st_mtime, info.st_ctime) < LEFTOVER_MIN_AGE_S
    ):
        return False
    if temp := _TEMP_NAME.match(path.name):
        # Only its creator uses it; a reused pid's is past the lease.
        ours = pid_alive(int(temp["pid"])) is False or moment - info.st_mtime > LEASE_S
    elif moved := _MOVED_NAME.match(path.name):
        token = _read(path)
        guard = path.with_name(moved["lock"] + ".reclaim")
        guard_token = _read(guard)
        reclaiming = guard_token is not None and not is_stale(guard, guard_token)
        ours = token is not None and is_stale(path, token) and not reclaiming
    else:
        return False
    if not ours:
        return False
    try:
        path.unlink()
    except OSError as error:
        logger.debug("Cannot remove the lock leftover %s: %s", path, error)
        return False
    return True
