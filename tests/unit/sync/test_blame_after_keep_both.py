"""Blame after Keep both (docs/formats.md §20.2): the lines a resolution kept from the
other side are blamed on who wrote them there — the other machine's (`sync`) after a sync
conflict, another program's after a conflict copy — not on the user who chose to keep
both. They were all blamed on "you"."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.blame.service import blame_memory_file
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.sync.conflicts.copies import resolve_memory_copy
from memtab.sync.conflicts.resolve import Keep
from support.memory_paths import vpath
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


def actors(machine: Machine, path: str = NOTES) -> dict[str, str]:
    return {line.text: line.actor for line in blame_memory_file(machine.store, path).lines}


def test_keep_both_blames_the_other_machines_line_on_the_sync(
    alpha: Machine, beta: Machine
) -> None:
    alpha.conflict_with(beta, NOTES)  # "two from beta" came first; alpha wrote "two from alpha"
    alpha.resolve(NOTES, keep="both")
    assert alpha.text(NOTES) == "one\ntwo from alpha\ntwo from beta\nthree\n"
    assert actors(alpha) == {
        "one": "user",
        "two from alpha": "user",
        "two from beta": "sync",
        "three": "user",
    }


@pytest.mark.parametrize(
    ("keep", "merged", "expected"),
    [
        ("remote", None, {"one": "user", "two from beta": "sync", "three": "user"}),
        (
            None,
            "one\ntwo from beta\ntwo, by hand\nthree\n",
            {"one": "user", "two from beta": "sync", "two, by hand": "user", "three": "user"},
        ),
    ],
)
def test_keep_theirs_and_a_merged_text_blame_the_other_machine_for_its_lines(
    alpha: Machine, beta: Machine, keep: Keep | None, merged: str | None, expected: dict[str, str]
) -> None:
    alpha.conflict_with(beta, NOTES)
    alpha.resolve(NOTES, keep=keep, merged=merged)
    assert actors(alpha) == expected


def test_keep_both_of_a_conflict_copy_blames_its_lines_on_the_program_that_wrote_it(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    store = MemoryStore(home)
    store.create_file(vpath("/memories/global/x.md"), "a\nmine\nc\n")
    copy = home.global_root / "x.sync-conflict-20261122-143000-ABCDEF7.md"
    copy.write_text("a\ntheirs\nc\n")  # a file-sync tool wrote it
    record_external(store)
    resolve_memory_copy(store, f"/memories/global/{copy.name}", keep="both")
    lines = blame_memory_file(store, "/memories/global/x.md").lines
    assert {line.text: line.actor for line in lines} == {
        "a": "user",
        "mine": "user",
        "theirs": "external",
        "c": "user",
    }
