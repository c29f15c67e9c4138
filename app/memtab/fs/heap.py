"""The C heap of a long-running process: how many arenas it keeps, and giving its free
pages back to the system once a big job is over (glibc only; elsewhere these do nothing).

glibc gives each new thread an arena of its own (up to 8 a core), each holding what its
thread freed for its next allocations: the threads a settled window started after its
first paint kept ~0.5 MiB across theirs. They mostly wait, and run Python's work one at a
time under its global lock, so arenas shared by all (`share_one_arena`) cost no waiting.

glibc returns only the top of a heap: after a job that read thousands of files on a worker
thread (the window's first background check), ~0.6–1 MiB of free pages stays resident in
a window that has settled; `malloc_trim(0)` gives them back.

And glibc gives the top back as it is freed only past a threshold it raises itself: each
large block (given a mapping of its own) freed raises it to twice that block's size, up to
64 MiB, so once the start has freed a few, the heap's free top stays resident: the window
settled with ~1–1.4 MiB more than with the threshold held at glibc's 128 KiB
(`keep_heap_trimmed`).

Python's cycle collector walks the young objects every 700 allocations and, now and then,
every object: a job that makes thousands of small objects that all live until it ends (a
consolidation's plan, a sync bringing a thousand files in) only pays for those walks
(`collector_paused`).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# glibc's mallopt() parameters (malloc.h): the free top of the heap given back past this
# many bytes; the most arenas threads may use.
M_TRIM_THRESHOLD = -1
M_ARENA_MAX = -8
TRIM_THRESHOLD = 128 * 1024
"""glibc's own default, which it then raises as large blocks are freed."""


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


def keep_heap_trimmed() -> bool:
    """Have the heap's free top go back to the system whenever it is over TRIM_THRESHOLD
    bytes, from now on (glibc no longer raises the threshold); whether this platform can."""
    mallopt = _glibc_function("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def release_free_heap() -> bool:
    """Give the heap's free pages back to the system; whether this platform can."""
    trim = _glibc_function("malloc_trim")
    if trim is None:
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a while (reference counting frees as ever): a
    plan of a big home makes millions of small objects that all live until it is done,
    and collecting in between only costs (a quarter of the time on 20,000 files)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
