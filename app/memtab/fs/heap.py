"""The C heap of a long-running process (glibc only; elsewhere these do nothing): one shared arena
set for threads, the free top given back to the system, and the cycle collector paused during big
jobs."""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

M_TRIM_THRESHOLD = -1  # glibc's mallopt() parameters (malloc.h)
M_ARENA_MAX = -8
TRIM_THRESHOLD = 128 * 1024  # glibc's own default, which it then raises as large blocks are freed


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
    """Have threads started from now on share the arenas that exist; whether this platform can."""
    mallopt = _glibc_function("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_ARENA_MAX, 1))


def keep_heap_trimmed() -> bool:
    """Have the heap's free top go back to the system past TRIM_THRESHOLD bytes from now on; whether
    this platform can."""
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
    """The cycle collector off for the block: a big plan makes many objects living until it ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
