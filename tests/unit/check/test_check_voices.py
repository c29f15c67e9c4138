"""`memtab check` on the labelled corpus of tests/support/check_voices.py (issue 83): every
claim its rules read — scripts, targets, programs, paths, links, a fact the README or
another memory states otherwise — in the four agents' voices and forms no other corpus
uses (`→` chains, PowerShell blocks, `user@host:dir$` prompts, paths with spaces, `is on
port N`, a table's `migrate` task, "to create the database"), found on its line; near
misses never."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import check_voices
from support.check_voices import AFTER, CASES

NOT_READ_AFTER: dict[str, str] = {}
"""Cases of the batch written after the change not found, and why ("uses port (Gemini)",
missed by `<service> port N` reading `admin panel uses` as the service, was then mended:
the verbs of using a port, with cases of their own written after)."""


@pytest.mark.parametrize("after", [False, True], ids=["corpus", "written-after"])
def test_a_claim_in_any_agents_voice_is_found_and_near_misses_are_not(
    tmp_path: Path, after: bool
) -> None:
    card = check_voices.score(tmp_path, after=after)
    assert (card["flagged"], card["others"], card["precision"]) == ([], [], 1.0)
    assert card["missed"] == (list(NOT_READ_AFTER) if after else [])


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.kind is not None for case in CASES) >= 40
    assert sum(case.kind is None for case in CASES) >= 30
    assert len(AFTER) >= 15
    assert {case.kind for case in CASES} == check_voices.KINDS | {None}
