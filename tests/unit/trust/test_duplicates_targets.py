"""Issue 72's targets for `memtab duplicates` on the seeded corpus (tests/support/
seeded_duplicates.py), as issue 94 splits them: every imported or copied pair a finding and
no false finding; at least 45 of 50 reworded pairs among the candidates, at most 15% false
candidates (9 of 69 in "held-out-2": what the words only suspect, for the user's model) — on
the half the thresholds were chosen on ("tune") and on the half kept from that choice
("held-out", its own templates and seed), and on a second held-out family whose rules are
written by templates of their own ("held-out-2").
A rule written in two memories by one template is a finding, by two a candidate:
reported, not held (docs/trust-quality.md "The seeded corpora")."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine, Found
from memtab.trust.duplicates.records import DuplicateGroup
from support.seeded_duplicates import DuplicateCorpus, Family, build
from support.seeded_memories import memory, unique_names


def found_by(corpus: DuplicateCorpus) -> tuple[Found, dict[str, str]]:
    """The groups and candidates found in the corpus, and each member's path → its id."""
    names = unique_names((note.place, note.name) for note in corpus.notes)
    documents = [memory(n.place, name, n.text) for n, name in zip(corpus.notes, names, strict=True)]
    ids = {d.path: n.id for d, n in zip(documents, corpus.notes, strict=True)}
    return DuplicatesEngine(Home(Path("/nowhere"))).found_in(documents), ids


def together(groups: list[DuplicateGroup], ids: dict[str, str], one: str, other: str) -> bool:
    return any({one, other} <= {ids[m.path] for m in g.members} for g in groups)


def false_groups(corpus: DuplicateCorpus, groups: list[DuplicateGroup], ids: dict[str, str]) -> int:
    """Groups joining memories that do not say the same thing: notes of other origins, or
    (a rule group) sentences of other facts."""
    origin = {note.id: note.origin for note in corpus.notes}
    wrong = 0
    for group in groups:
        if group.kind == "rule":
            wrong += len({corpus.said.get(m.text, m.text) for m in group.members}) > 1
        else:
            wrong += len({origin[ids[m.path]] for m in group.members}) > 1
    return wrong


@pytest.mark.parametrize("family", ["tune", "held-out", "held-out-2"])
def test_the_targets_of_issue_72(family: Family) -> None:
    corpus = build(family)
    found, ids = found_by(corpus)
    copies = sum(together(found.groups, ids, *pair) for pair in corpus.copies)
    assert copies == len(corpus.copies) == 20 and false_groups(corpus, found.groups, ids) == 0
    reworded = sum(together(found.candidates, ids, *pair) for pair in corpus.reworded)
    assert reworded >= 45 and len(corpus.reworded) == 50
    assert false_groups(corpus, found.candidates, ids) <= 0.15 * len(found.candidates)
    assert len(found.candidates) >= 50
