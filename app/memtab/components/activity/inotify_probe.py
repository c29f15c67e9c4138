"""The directories the window's native file watcher cannot watch, without Qt."""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from memtab.humanize import plural

logger = logging.getLogger(__name__)


class WatchProbe(Protocol):
    """Says whether the native watcher could watch a directory that just appeared."""

    # Raise OSError when one more native watch cannot be had (e.g. ENOSPC).
    def check(self, directory: str) -> None: ...
    # Release what the probe holds.
    def close(self) -> None: ...


ProbeFactory = Callable[[], WatchProbe | None]


class InotifyProbe:
    """A private inotify instance asking for one more watch: the limit is per user, so when
    watchdog's watch failed with ENOSPC a moment ago, this one fails the same way."""

    _IN_CLOEXEC = 0o2000000
    _IN_NONBLOCK = 0o4000
    _MASK = 0x00000400 | 0x01000000 | 0x02000000  # IN_DELETE_SELF | IN_ONLYDIR | DONT_FOLLOW
    # The directory went away or is unreadable: nothing to watch, nothing to poll either.
    _IGNORED = (errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.ELOOP)

    def __init__(self) -> None:
        """Open the inotify instance; OSError when even that is refused."""
        # The process's own symbols, libc's among them: `find_library("c")` would run
        # `ldconfig -p` (a fork of the whole window) to find the same library.
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(self._IN_CLOEXEC | self._IN_NONBLOCK)
        if self._fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))

    @classmethod
    def open(cls) -> InotifyProbe | None:
        """A probe, or None where inotify is unavailable (not Linux, no instance left)."""
        if not sys.platform.startswith("linux"):
            return None
        try:
            return cls()
        except (OSError, AttributeError) as error:
            logger.info("No inotify probe: %s", error)
            return None

    def check(self, directory: str) -> None:
        wd = self._libc.inotify_add_watch(
            self._fd, os.fsencode(directory), ctypes.c_uint32(self._MASK)
        )
        if wd < 0:
            code = ctypes.get_errno()
            if code in self._IGNORED:
                return
            if code == errno.ENOSPC:
                raise OSError(code, "inotify watch limit reached")
            raise OSError(code, os.strerror(code))
        self._libc.inotify_rm_watch(self._fd, wd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def needs_polling(directory: str, polled: Sequence[str]) -> bool:
    """Whether a directory the native watcher missed is to be polled: not when it is one
    polled already, or inside one (polling is recursive)."""
    return not any(directory == each or directory.startswith(each + os.sep) for each in polled)


def gap_detail(native_name: str, polled_count: int, reason: str) -> str:
    """The watcher's status while it polls folders the native one could not watch."""
    return f"{native_name} + polling {plural(polled_count, 'folder')} ({reason})"
