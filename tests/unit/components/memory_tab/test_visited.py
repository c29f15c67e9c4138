"""Back and Forward's steps without Qt (`components.memory_tab.VisitedFiles`)."""

from __future__ import annotations

from memtab.components.memory_tab import VisitedFiles


def test_back_and_forward_walk_the_files_shown_and_a_new_step_drops_what_was_ahead() -> None:
    visited = VisitedFiles()
    assert not visited.can_go(-1)
    for key in ("index", "a", "b"):
        visited.visited(key)
    visited.visited("b")  # Back's file arriving, or the same file again: no new step
    opened: list[str] = []

    def opens(key: str) -> bool:
        opened.append(key)
        return True

    assert visited.go(-1, opens) and visited.go(-1, opens) and opened == ["a", "index"]
    assert not visited.go(-1, opens) and visited.can_go(1)
    visited.visited("c")  # elsewhere, after going back: a and b are no longer ahead
    assert visited.current == "c" and not visited.can_go(1)
    assert visited.go(-1, opens) and visited.current == "index"


def test_a_file_gone_is_skipped_and_forgotten_both_ways() -> None:
    visited = VisitedFiles()
    for key in ("a", "gone", "b", "also-gone", "c"):
        visited.visited(key)

    def opens(key: str) -> bool:
        return "gone" not in key

    assert visited.go(-1, opens) and visited.current == "b"
    assert visited.go(-1, opens) and visited.current == "a"
    assert visited.go(1, opens) and visited.current == "b"  # "gone" was forgotten
    assert visited.go(1, opens) and visited.current == "c"
    assert not visited.can_go(1)


def test_the_oldest_steps_go_past_the_limit() -> None:
    visited = VisitedFiles(limit=3)
    for key in "abcd":
        visited.visited(key)
    keys: list[str] = []

    def opens(key: str) -> bool:
        keys.append(key)
        return True

    while visited.go(-1, opens):
        pass
    assert keys == ["c", "b"]  # "a" went


def test_forward_skips_a_file_gone_since_going_back() -> None:
    visited = VisitedFiles()
    for key in ("a", "x", "b"):
        visited.visited(key)
    assert visited.go(-1, lambda _key: True) and visited.go(-1, lambda _key: True)
    assert visited.go(1, lambda key: key != "x") and visited.current == "b"
    assert visited.go(-1, lambda _key: True) and visited.current == "a"  # x forgotten
