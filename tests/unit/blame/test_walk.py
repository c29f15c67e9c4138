"""The walk over a file's versions: which version introduced each line, through
deletions, restores, reverts, lost contents and pruned history."""

from __future__ import annotations

import hashlib

from memtab.blame.service import OLDER, owners_of
from memtab.store.history.versions import Version


class Chain:
    """Versions of one file made from texts, and their contents by sha."""

    def __init__(self) -> None:
        self.versions: list[Version] = []
        self.contents: dict[str, str] = {}

    def add(self, text: str, op: str = "edit", **fields: object) -> Version:
        sha = hashlib.sha256(text.encode()).hexdigest()
        self.contents[sha] = text
        number = len(self.versions)
        version = Version(
            id=f"v{number}",
            at=1000 + number,
            path="/memories/global/a.md",
            actor=str(fields.pop("actor", "user")),
            op=op,
            sha256=sha,
            size_bytes=len(text),
            **fields,  # type: ignore[arg-type]
        )
        self.versions.append(version)
        return version

    def owners(self, current: str | None = None) -> list[int]:
        return list(owners_of(self.versions, self.contents.get, current).owners)


def test_each_line_belongs_to_the_version_that_brought_it() -> None:
    chain = Chain()
    chain.add("a\nb\n", op="seen", actor="external")
    chain.add("a\nb\nc\n")
    chain.add("a\nB\nc\n", actor="writer")
    assert chain.owners() == [0, 2, 1]


def test_a_file_deleted_then_created_again_starts_over() -> None:
    chain = Chain()
    chain.add("a\nb\n", op="create")
    chain.add("a\nb\n", op="delete", deleted=True)
    chain.add("a\nb\nc\n", op="create")
    assert chain.owners() == [2, 2, 2]


def test_a_restore_from_the_trash_brings_the_lines_back_with_their_owners() -> None:
    chain = Chain()
    chain.add("a\n", op="create")
    chain.add("a\nb\n")
    deleted = chain.add("a\nb\n", op="delete", deleted=True)
    chain.add("a\nb\n", op="restore", restored_from=deleted.id)
    assert chain.owners() == [0, 1]


def test_a_restore_matches_the_version_it_restored_then_the_text_it_replaced() -> None:
    chain = Chain()
    first = chain.add("a\nb\n", op="create")
    chain.add("a\nx\n")
    chain.add("a\nx\ny\n")
    chain.add("a\nb\n", op="restore", restored_from=first.id)
    assert chain.owners() == [0, 0]


def test_a_revert_goes_back_to_the_version_before_the_runs_first_change() -> None:
    chain = Chain()
    chain.add("a\n", op="create")
    chain.add("a\nmine\n")
    chain.add("a\nmine\nrun 1\n", actor="consolidator", run_id="run-1")
    chain.add("a\nrun 2\n", actor="consolidator", run_id="run-1")
    chain.add("a\nmine\n", op="revert", revert_of="run-1")
    assert chain.owners() == [0, 1]


def test_a_restore_from_another_file_matches_an_earlier_version_with_that_content() -> None:
    chain = Chain()
    chain.add("a\nb\n", op="create")
    chain.add("c\n")
    chain.add("a\nb\n", op="restore", restored_from="elsewhere")
    assert chain.owners() == [0, 0]


def test_a_version_whose_content_is_lost_is_passed_over() -> None:
    chain = Chain()
    chain.add("a\n", op="create")
    lost = chain.add("a\nb\n")
    del chain.contents[lost.sha256]
    chain.add("a\nb\nc\n")
    assert chain.owners() == [0, 2, 2]


def test_lines_older_than_the_history_kept_are_older() -> None:
    chain = Chain()
    chain.add("x\n", op="create")
    previous = chain.versions.pop(0)  # pruned: only its content may be left
    chain.add("a\nb\nc\n", prev_sha256=previous.sha256)
    assert chain.owners() == [0, 0, 0]  # the content before says nothing of these lines
    del chain.contents[previous.sha256]
    assert chain.owners() == [OLDER] * 3
    kept = Chain()
    kept.contents[previous.sha256] = "a\nc\n"
    kept.add("a\nb\nc\n", prev_sha256=previous.sha256)
    assert kept.owners() == [OLDER, 0, OLDER]


def test_a_move_owns_none_of_the_lines_it_carried() -> None:
    chain = Chain()
    chain.add("a\n", op="move", moved_from="/memories/global/old.md")
    assert chain.owners() == [OLDER]


def test_a_change_history_has_not_recorded_yet_is_pending() -> None:
    chain = Chain()
    chain.add("a\nb\n", op="create")
    owned = owners_of(chain.versions, chain.contents.get, "a\nnew\nb\n")
    assert owned.owners == (0, owned.pending, 0) and owned.pending == 1
    assert owners_of([], chain.contents.get, "x").owners == (0,)
