"""Giving the heap's free pages back: glibc's malloc_trim where there is one."""

from __future__ import annotations

import platform
import sys

from memtab.fs.heap import release_free_heap


def test_free_heap_is_given_back_where_the_c_library_can() -> None:
    has_trim = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert release_free_heap() is has_trim
    assert release_free_heap() is has_trim  # as often as asked
