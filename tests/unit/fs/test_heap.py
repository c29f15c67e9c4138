"""The C heap: glibc's malloc_trim and its arenas' limit where there are, nothing elsewhere."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from memtab.fs.heap import TRIM_THRESHOLD, release_free_heap


def test_free_heap_is_given_back_where_the_c_library_can() -> None:
    has_trim = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert release_free_heap() is has_trim
    assert release_free_heap() is has_trim  # as often as asked


THREAD_AFTER_SHARING = r"""
import ctypes, sys, threading
from memtab.fs.heap import share_one_arena

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
if sys.argv[1] == "share":
    assert share_one_arena()
kept = []
worker = threading.Thread(target=lambda: kept.extend(libc.malloc(64) for _ in range(1000)))
worker.start()
worker.join()
libc.malloc_stats()  # each arena's "Arena <n>:" on stderr
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas")
def test_a_thread_started_once_arenas_are_shared_allocates_from_the_main_one() -> None:
    def arenas(*mode: str) -> int:
        ran = subprocess.run(
            [sys.executable, "-c", THREAD_AFTER_SHARING, *mode],
            capture_output=True,
            text=True,
            check=True,
        )
        return sum(line.startswith("Arena ") for line in ran.stderr.splitlines())

    assert arenas("own") == 2  # glibc's default: the thread gets an arena of its own
    assert arenas("share") == 1


TOP_AFTER_A_LARGE_BLOCK = r"""
import ctypes, sys
from memtab.fs.heap import keep_heap_trimmed

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
libc.mallinfo2.restype = MallInfo2
if sys.argv[1] == "trimmed":
    assert keep_heap_trimmed()
libc.free(libc.malloc(8 << 20))  # a block of its own mapping: glibc raises its thresholds
blocks = [libc.malloc(64 << 10) for _ in range(64)]  # 4 MiB at the top of the heap
for block in reversed(blocks):
    libc.free(block)
print(libc.mallinfo2().keepcost)  # the free top still held
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's trim threshold",
)
def test_the_heaps_free_top_goes_back_once_kept_trimmed_though_a_large_block_was_freed() -> None:
    def free_top(mode: str) -> int:
        ran = subprocess.run(
            [sys.executable, "-c", TOP_AFTER_A_LARGE_BLOCK, mode],
            capture_output=True,
            text=True,
            check=True,
        )
        return int(ran.stdout)

    assert free_top("default") > 4 << 20  # glibc's raised threshold keeps the 4 MiB
    assert free_top("trimmed") < TRIM_THRESHOLD + (64 << 10)
