"""watch_policy.coalesce: what crosses from the window watcher's observer thread
(`PostedPaths`) and what a due batch reports (`reported_batch`) — decided without Qt."""

from __future__ import annotations

from memtab.watch_policy.coalesce import LARGE_BATCH, PostedPaths, reported_batch


def test_one_wake_up_per_filling_of_the_inbox() -> None:
    inbox = PostedPaths()
    assert inbox.post(["/h/a.md"], True, 1) is True  # empty: wake the GUI thread
    assert inbox.post(["/h/b.md"], True, 1) is False  # a wake-up is on its way
    assert inbox.take(1) is not None
    assert inbox.post(["/h/c.md"], False, 1) is True  # drained: the next one wakes again


def test_a_lone_posting_keeps_whether_it_settles_and_several_are_a_burst() -> None:
    inbox = PostedPaths()
    inbox.post(["/h/a.md"], True, 1)
    assert inbox.take(1) == (["/h/a.md"], True)
    inbox.post(["/h/a.md"], True, 1)
    inbox.post(["/h/b.md", "/h/c.md"], True, 1)
    assert inbox.take(1) == (["/h/a.md", "/h/b.md", "/h/c.md"], False)  # never a lone change
    assert inbox.take(1) is None


def test_a_stopped_observers_postings_are_dropped() -> None:
    inbox = PostedPaths()
    inbox.post(["/h/old.md"], True, 1)
    inbox.post(["/h/new.md"], True, 2)
    assert inbox.take(2) == (["/h/new.md"], True)
    inbox.post(["/h/old.md"], False, 1)
    assert inbox.take(2) is None  # and the stale one is gone, not kept for later
    assert inbox.take(1) is None


def test_a_batch_reports_itself_its_root_alone_when_large_or_says_the_root_vanished() -> None:
    asked: list[str] = []

    def gone() -> bool:
        asked.append("asked")
        return False

    small = ["/h/a.md", "/h/b.md"]
    assert reported_batch(small, "/h", gone) == (small, False)
    assert asked == []  # the disk is asked only when the root itself is reported
    large = [f"/h/{index}.md" for index in range(LARGE_BATCH + 1)]
    assert reported_batch(large, "/h", gone) == (["/h"], False)
    assert reported_batch(large[:LARGE_BATCH], "/h", gone) == (large[:LARGE_BATCH], False)
    assert reported_batch(["/h", "/h/a.md"], "/h", gone) == (["/h", "/h/a.md"], True)
    assert asked == ["asked"]
    assert reported_batch(["/h"], "/h", lambda: True) == (["/h"], False)  # still there
