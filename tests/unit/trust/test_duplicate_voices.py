"""`memtab duplicates` on whole memories written in voices the trust corpus does not use
(tests/support/duplicate_voices.py, issue 83): the same rule reworded, kept in global
memory and a project's, in prose and in bullets, is found; notes that share a subject and
not a claim (a profile and a note naming the person, a link and a page under it, two
lines naming one maintainer), a rule and its opposite, a rule narrowed and a frame filled
with another value are not; and on tests/support/duplicate_scopes.py, the same of a rule
kept in global memory and again in a project's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from support import duplicate_claims, duplicate_meanings, duplicate_scopes
from support.duplicate_voices import CASES, Case, Score, laid_out, score


def _scored(cases: Sequence[Case], home: Path) -> Score:
    """The groups found among every case's two notes and the background (each with a
    unique name: a mux project's notes share one folder's names), scored."""
    documents, ids = laid_out(cases)
    groups = DuplicatesEngine(Home(home)).groups_of(documents)
    return score([[m.path for m in g.members] for g in groups], ids, cases)


def test_duplicates_in_new_voices_are_found_and_notes_of_one_subject_are_not(
    tmp_path: Path,
) -> None:
    """Held at what it measures (docs/trust-quality.md "Duplicates in new voices")."""
    found = _scored(CASES, tmp_path)
    assert {kind: hit for kind, (hit, _) in found.near.items()} == dict.fromkeys(
        ("subject", "opposite", "narrower", "value"), 0
    )
    assert found.across == [] and found.polarity == 0
    assert sum(hit for hit, _ in found.found.values()) >= 18
    assert found.found["global-project"][0] >= 7 and found.found["reworded"][0] >= 8


def test_a_rule_kept_in_global_memory_and_a_project_s_or_reworded_is_found(
    tmp_path: Path,
) -> None:
    """tests/support/duplicate_scopes.py: the project's copy naming the project, adding its
    command or path; a wish, a verb's noun, British spelling, a compound in two words —
    and not a project's exception, a narrower rule, another value, the rule denied. Held
    at what it measures (docs/trust-quality.md "Duplicates across scopes")."""
    found = _scored(duplicate_scopes.CASES, tmp_path)
    assert found.found["global-project"][0] >= 20 and found.found["reworded"][0] >= 11
    assert found.polarity == 0 and found.near["opposite"][0] == found.near["exception"][0] == 0
    assert sum(hit for hit, _ in found.near.values()) + len(found.across) <= 2


def test_a_rule_in_other_words_or_with_its_project_s_context_is_found_and_its_near_misses_not(
    tmp_path: Path,
) -> None:
    """tests/support/duplicate_claims.py, the duplicates in one home and the near misses in
    another: the project's copy saying where it holds ("in this project", "fernhill's code"),
    a rule told to the agent, "No X without Y" for "every X with Y" or "X, always with Y",
    "X is banned; do Y" for "Y rather than X" — and not a rule and its denial, nor one said
    of a part only. Held at what it measures (docs/trust-quality.md "The seeded corpora")."""
    same = [case for case in duplicate_claims.BATCH if case.expected == "duplicate"]
    near = [case for case in duplicate_claims.BATCH if case.expected == "neither"]
    found = _scored(same, tmp_path / "same")
    # "no manual bumps" / "don't bump versions by hand": "manually" is "by hand" (one rule's
    # key), so "versions" narrows it; "Don't use wildcard imports" is found instead.
    assert found.found["reworded"][0] >= 18 and found.found["global-project"][0] >= 15
    assert found.across == []
    missed = _scored(near, tmp_path / "near")
    assert missed.polarity == 0 and missed.near["opposite"][0] == missed.near["exception"][0] == 0
    assert sum(hit for hit, _ in missed.near.values()) <= 2


def test_a_rule_with_its_reason_example_or_command_beside_it_is_found(tmp_path: Path) -> None:
    """tests/support/duplicate_claims.py `ATTACHED`, the duplicates in one home and the near
    misses in another: each rule with a reason, an example or a command beside it in the
    same sentence, another beside the other; and not two rules that share only their
    reason or example. Held at what it measures (docs/trust-quality.md "The seeded
    corpora")."""
    same = [case for case in duplicate_claims.ATTACHED if case.expected == "duplicate"]
    near = [case for case in duplicate_claims.ATTACHED if case.expected == "neither"]
    found = _scored(same, tmp_path / "same")
    assert found.found["reworded"][0] + found.found["global-project"][0] >= 6
    assert found.across == []
    missed = _scored(near, tmp_path / "near")
    assert missed.polarity == 0 and missed.near["opposite"][0] == 0
    assert missed.near["subject"][0] == 0
    assert sum(hit for hit, _ in missed.near.values()) + len(missed.across) <= 2


def test_a_rule_in_words_it_does_not_share_is_rarely_found_and_its_near_misses_are_not(
    tmp_path: Path,
) -> None:
    """tests/support/duplicate_meanings.py, the duplicates in one home and the near misses
    in another: of 32 rules said in other words (synonyms, another construction, a reason
    added) the stems find 1; of 32 near misses sharing their words none is joined (2
    before counts in words, "three times" / "once", and a clause waiving the rule, ";
    locally it is optional", were read). Held at what it measures (docs/trust-quality.md
    "On memory nobody tuned them on": embeddings as candidates, measured on it, not
    adopted)."""
    same = [case for case in duplicate_meanings.BATCH if case.expected == "duplicate"]
    near = [case for case in duplicate_meanings.BATCH if case.expected == "neither"]
    found = _scored(same, tmp_path / "same")
    assert found.found["reworded"][0] + found.found["global-project"][0] >= 1
    assert found.across == []
    missed = _scored(near, tmp_path / "near")
    assert missed.polarity == 0
    assert sum(hit for hit, _ in missed.near.values()) + len(missed.across) == 0
