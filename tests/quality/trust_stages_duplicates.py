"""Where a labelled duplicate pair the engine missed fell (`trust_stages`' half for
duplicates), by the engine's own answer on the memories it reads (issue 94): its files not
read, or not compared (a `record`, Codex's import); its labelled lines no statement
(`note_words`); a candidate (what the words only suspect, the user's model's to judge);
neither finding nor candidate ("never paired"); or a finding ("passed every filter").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.quality.trust_stages import (
    FILE_NOT_READ,
    NEVER_PAIRED,
    NOT_A_STATEMENT,
    NOT_COMPARED,
    PASSED,
    Fate,
    Reading,
    in_lines,
)

from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine, note_words
from memtab.trust.duplicates.records import DuplicateGroup

CANDIDATE = "a candidate"
"""Shown apart, as what the words only suspect: the user's model judges it."""
DUPLICATE_STAGES = (FILE_NOT_READ, NOT_COMPARED, NOT_A_STATEMENT, NEVER_PAIRED, CANDIDATE, PASSED)


class Compared:
    """The duplicates engine's answer over the memories read (findings and candidates)."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        found = DuplicatesEngine(Home(Path("/nowhere"))).found_in(reading.documents)
        self.groups, self.candidates = found.groups, found.candidates

    def side(self, side: dict[str, Any]) -> tuple[str, list[Any]]:
        """A side's stage before pairing (`PASSED`: it has memories compared) and them."""
        documents = self.reading.of_side(side)
        if not documents:
            return FILE_NOT_READ, []
        compared = [d for d in documents if not d.record and d.imported is None]
        if not compared:
            return NOT_COMPARED, []
        if side["lines"] is not None and not any(
            in_lines(s.line, side["lines"]) for d in compared for s in note_words(d).statements
        ):
            return NOT_A_STATEMENT, []
        return PASSED, compared


def _together(groups: list[DuplicateGroup], mine: set[str], theirs: set[str]) -> bool:
    return any(
        {m.path for m in g.members} & mine and {m.path for m in g.members} & theirs for g in groups
    )


def duplicate_fate(seen: Compared, item: dict[str, Any]) -> Fate:
    """The furthest stage a labelled duplicate pair reached, of any two of its sides."""
    sides = [item["a"], item["b"], *item.get("more", [])]
    best = Fate(FILE_NOT_READ)
    for i, one in enumerate(sides):
        for other in sides[i + 1 :]:
            (stage, mine), (their_stage, theirs) = seen.side(one), seen.side(other)
            fate = Fate(min(stage, their_stage, key=DUPLICATE_STAGES.index))
            if fate.stage == PASSED:
                paths, their_paths = {d.path for d in mine}, {d.path for d in theirs}
                if _together(seen.groups, paths, their_paths):
                    fate = Fate(PASSED)
                elif _together(seen.candidates, paths, their_paths):
                    fate = Fate(CANDIDATE)
                else:
                    fate = Fate(NEVER_PAIRED)
            if DUPLICATE_STAGES.index(fate.stage) > DUPLICATE_STAGES.index(best.stage):
                best = fate
    return best
