"""Which file system a path is on (the mount table), and whether OS file locks work there
(`probe_locks`): a network or FUSE home may not honour them."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

_MOUNTINFO = Path("/proc/self/mountinfo")

# Files on another machine or behind a FUSE daemon.
NETWORK_TYPES = frozenset(
    {"nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "9p", "afs", "ceph", "glusterfs"}
    | {"lustre", "gpfs", "beegfs", "davfs", "ncpfs", "coda", "virtiofs"}
)


@dataclass(frozen=True)
class FileSystem:
    """The mount a path is on: mount point, type (`nfs4`) and source (`server:/export`)."""

    mount_point: str
    type: str
    source: str

    @property
    def network(self) -> bool:
        return self.type in NETWORK_TYPES or self.type.split(".")[0] in NETWORK_TYPES

    @property
    def fuse(self) -> bool:
        return self.type == "fuse" or self.type.startswith(("fuse.", "fuseblk"))

    @property
    def remote(self) -> bool:
        """On another machine or behind a user-space daemon: locks may not hold."""
        return self.network or (self.fuse and self.type != "fuseblk")


def _unescape(field: str) -> str:
    """A mount table field: spaces and the like are written as octal escapes."""
    out, index = [], 0
    while index < len(field):
        if field[index] == "\\" and field[index + 1 : index + 4].isdigit():
            out.append(chr(int(field[index + 1 : index + 4], 8)))
            index += 4
        else:
            out.append(field[index])
            index += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[FileSystem]:
    """The mounts of a `/proc/self/mountinfo` text (`proc(5)`)."""
    mounts = []
    for line in text.splitlines():
        before, separator, after = line.partition(" - ")
        fields, rest = before.split(), after.split()
        if not separator or len(fields) < 5 or len(rest) < 2:
            continue
        mounts.append(FileSystem(_unescape(fields[4]), rest[0], _unescape(rest[1])))
    return mounts


def filesystem_of(path: Path, mountinfo: Path = _MOUNTINFO) -> FileSystem | None:
    """The file system `path` is on (it need not exist); None without a readable mount table."""
    try:
        mounts = parse_mountinfo(mountinfo.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    real = os.path.realpath(path)  # links followed as far as the path exists
    best: FileSystem | None = None
    for mount in mounts:  # the last, longest match wins (later mounts cover earlier ones)
        point = mount.mount_point.rstrip("/") or "/"
        inside = real == point or real.startswith(point.rstrip("/") + "/") or point == "/"
        if inside and (best is None or len(point) >= len(best.mount_point.rstrip("/") or "/")):
            best = mount
    return best


@dataclass(frozen=True)
class LockProbe:
    """What trying a lock showed: whether one was taken and kept a second out (`why` in words)."""

    taken: bool
    enforced: bool
    why: str | None = None

    @property
    def works(self) -> bool:
        return self.taken and self.enforced


def probe_locks(directory: Path) -> LockProbe:
    """Try OS file locks in `directory` with two descriptors of one scratch file."""
    if sys.platform == "win32":
        return LockProbe(True, True)  # LockFileEx; SMB keeps its own locks
    import fcntl  # lazy: platform (POSIX only)

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return LockProbe(False, False, f"cannot create {directory}: {error.strerror or error}")
    probe = directory / f".lock-probe-{secrets.token_hex(4)}"
    first = second = -1
    try:
        first = os.open(probe, os.O_RDWR | os.O_CREAT, 0o600)
        second = os.open(probe, os.O_RDWR)
        try:
            fcntl.flock(first, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            why = os.strerror(error.errno or errno.ENOLCK)
            return LockProbe(False, False, f"the file system refuses locks ({why})")
        try:
            fcntl.flock(second, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return LockProbe(True, True)
        except OSError as error:
            why = os.strerror(error.errno or errno.ENOLCK)
            return LockProbe(True, False, f"the file system refuses a second lock ({why})")
        return LockProbe(
            True,
            False,
            "a lock held by one process does not keep another out (locks are not enforced)",
        )
    except OSError as error:
        return LockProbe(
            False, False, f"cannot try a lock in {directory}: {error.strerror or error}"
        )
    finally:
        for fd in (second, first):
            if fd >= 0:
                os.close(fd)
        with contextlib.suppress(OSError):
            probe.unlink()


def lock_problem(home_dir: Path, locks_dir: Path, probe: LockProbe | None = None) -> str | None:
    """One line saying why Memtab's locks cannot be trusted for a home, or None."""
    probe = probe or probe_locks(locks_dir)
    if probe.works:
        return None
    found = filesystem_of(home_dir)
    where = f" ({found.type} at {found.mount_point})" if found else ""
    return (
        f"Memtab's locks do not work where {home_dir} is{where}: {probe.why}. Two programs "
        "writing the home at once could lose changes; keep the home on a local disk (sync "
        "it with memtab sync or a file-sync tool instead of sharing its directory)"
    )
