"""Which directories the native watcher missed are polled, and what the status says, without
Qt (`components.activity.inotify_probe`)."""

from __future__ import annotations

import os

from memtab.components.activity.inotify_probe import gap_detail, needs_polling


def test_a_directory_polled_already_or_inside_one_is_not_polled_again() -> None:
    polled = [os.path.join("home", "memory", "big")]
    assert not needs_polling(polled[0], polled)
    assert not needs_polling(os.path.join(polled[0], "deeper"), polled)
    assert needs_polling(os.path.join("home", "memory", "big-sibling"), polled)  # a prefix only
    assert needs_polling(os.path.join("home", "memory", "big-sibling"), [])


def test_the_status_counts_the_folders_polled() -> None:
    assert gap_detail("inotify", 1, "inotify watch limit reached") == (
        "inotify + polling 1 folder (inotify watch limit reached)"
    )
    assert gap_detail("inotify", 3, "why") == "inotify + polling 3 folders (why)"
