"""`memtab duplicates` on whole memories written in voices the trust corpus does not use
(tests/support/duplicate_voices.py, issue 83): the same rule reworded, kept in global
memory and a project's, in prose and in bullets, is found; notes that share a subject and
not a claim (a profile and a note naming the person, a link and a page under it, two
lines naming one maintainer), a rule and its opposite, a rule narrowed and a frame filled
with another value are not."""

from __future__ import annotations

from pathlib import Path

from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from support.duplicate_voices import BACKGROUND, CASES, Note, score
from support.seeded_memories import memory, unique_names


def _home_of_cases() -> tuple[list[tuple[Note, tuple[int, str]]], list[str]]:
    """Every case's two notes and the background, with unique names (a mux project's
    notes share one folder's names)."""
    notes = [(n, (i, s)) for i, c in enumerate(CASES) for s, n in (("a", c.one), ("b", c.other))]
    notes += [(n, (-1, str(j))) for j, n in enumerate(BACKGROUND)]
    places = (("project" if n.place.startswith("project:") else n.place, n.name) for n, _ in notes)
    return notes, unique_names(places)


def test_duplicates_in_new_voices_are_found_and_notes_of_one_subject_are_not(
    tmp_path: Path,
) -> None:
    """Held at what it measures (docs/trust-quality.md "Duplicates in new voices")."""
    notes, names = _home_of_cases()
    documents = [memory(n.place, name, n.text) for (n, _), name in zip(notes, names, strict=True)]
    ids = {d.path: who for d, (_, who) in zip(documents, notes, strict=True)}
    assert len(ids) == len(documents)
    groups = DuplicatesEngine(Home(tmp_path)).groups_of(documents)
    found = score([[m.path for m in g.members] for g in groups], ids)
    assert {kind: hit for kind, (hit, _) in found.near.items()} == dict.fromkeys(
        ("subject", "opposite", "narrower", "value"), 0
    )
    assert found.across == [] and found.polarity == 0
    assert sum(hit for hit, _ in found.found.values()) >= 17
    assert found.found["global-project"][0] >= 6 and found.found["reworded"][0] >= 8
