"""Giving the C heap's free pages back to the system, once a big job is over.

glibc keeps what a thread frees for its next allocations and returns only the top of a
heap: after a job that read thousands of files on a worker thread (the window's first
background check), ~0.6–1 MiB of free pages stays resident in a window that has settled.
`malloc_trim(0)` gives them back (glibc only; elsewhere this does nothing).
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the process's own C library
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)  # glibc's; musl has none
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_free_heap() -> bool:
    """Give the heap's free pages back to the system; whether this platform can."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
