"""`memtab check` on the labelled corpus of tests/support/check_folders.py (issue 83): a
folder written with its trailing `/` (after a fence closed earlier too), a glob that matches
nothing of the checkout, a sibling link in any of Markdown's forms — found on their line;
globs that match, folders that are there or in a fenced example, build output, branches,
buckets, other checkouts and links that lead somewhere — never."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import check_folders
from support.check_folders import AFTER, CASES

NOT_READ: dict[str, str] = {}
"""Cases not found, and why ("folder after a closed tilde fence", `config/env/` whose first
folder is nowhere in the checkout, is found since a folder that is its own code span is
read as the checkout's)."""


@pytest.mark.parametrize("after", [False, True], ids=["corpus", "written-after"])
def test_missing_folders_globs_and_links_are_found_and_near_misses_are_not(
    tmp_path: Path, after: bool
) -> None:
    card = check_folders.score(tmp_path, AFTER if after else CASES)
    assert (card["flagged"], card["others"], card["precision"]) == ([], [], 1.0)
    assert card["missed"] == ([] if after else list(NOT_READ))


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.kind is not None for case in CASES) >= 25
    assert sum(case.kind is None for case in CASES) >= 25
    assert sum(case.kind is not None for case in AFTER) >= 10
    assert sum(case.kind is None for case in AFTER) >= 10
