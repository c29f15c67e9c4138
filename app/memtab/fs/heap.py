"""The C heap of a long-running process: how many arenas it keeps, and giving its free
pages back to the system once a big job is over (glibc only; elsewhere these do nothing).

glibc gives each new thread an arena of its own (up to 8 a core), each holding what its
thread freed for its next allocations: the threads a settled window started after its
first paint kept ~0.5 MiB across theirs. They mostly wait, and run Python's work one at a
time under its global lock, so arenas shared by all (`share_one_arena`) cost no waiting.

glibc returns only the top of a heap: after a job that read thousands of files on a worker
thread (the window's first background check), ~0.6–1 MiB of free pages stays resident in
a window that has settled; `malloc_trim(0)` gives them back.
"""

from __future__ import annotations

import ctypes
import functools
import sys

# glibc's mallopt() parameter: the most arenas threads may use (malloc.h).
M_ARENA_MAX = -8


@functools.cache
def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None)  # the process's own C library
    except OSError:
        return None


def _glibc_function(name: str) -> ctypes._NamedFuncPointer | None:
    libc = _libc()
    function = getattr(libc, name, None) if libc is not None else None  # glibc's; musl has none
    if function is None:
        return None
    function.restype = ctypes.c_int
    return function


def share_one_arena() -> bool:
    """Have every thread started from now on allocate from the arenas that exist already
    (the main thread's and those of threads running now) rather than one of its own;
    whether this platform can."""
    mallopt = _glibc_function("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_ARENA_MAX, 1))


def release_free_heap() -> bool:
    """Give the heap's free pages back to the system; whether this platform can."""
    trim = _glibc_function("malloc_trim")
    if trim is None:
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True
