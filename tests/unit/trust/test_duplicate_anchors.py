"""`memtab duplicates` on tests/support/duplicate_anchors.py (issue 83): a fact said twice
in other words, sharing what it names and its value (a number in another unit or in
words, a name in a code span and in words, a path, a product), is found; the same anchor
said of another fact, or the same value of another thing, is not. And the reader under it,
`duplicates.anchors`."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.trust.duplicates.anchors import (
    ANCHOR_HOLDERS,
    anchor_candidates,
    fact_of,
    normal_form,
    reading,
    same_fact,
)
from memtab.trust.words import sentence_stems
from support.duplicate_anchors import AFTER, AFTER_NEAR, BATCH, NEAR
from unit.trust.test_duplicate_voices import _scored


def test_a_fact_reworded_around_what_it_names_is_found(tmp_path: Path) -> None:
    """Held at what it measures: 17 of 32 (15 before the anchors)."""
    found = _scored(BATCH, tmp_path)
    assert found.found["reworded"][0] >= 17
    assert found.across == [] and found.polarity == 0


def test_the_same_anchor_or_value_said_of_another_thing_is_rarely_joined(tmp_path: Path) -> None:
    """Held at what it measures: 3 of 30 (as before the anchors, none by them)."""
    found = _scored(NEAR, tmp_path)
    assert sum(hit for hit, _ in found.near.values()) + len(found.across) <= 3
    assert found.polarity == 0


def test_facts_and_near_misses_written_after_the_change_hold(tmp_path: Path) -> None:
    """`AFTER` and `AFTER_NEAR`, never tuned on: held at what they measure (7 of 10 found,
    6 before; 1 of 10 near misses joined, as before, not by the anchors)."""
    found = _scored(AFTER, tmp_path / "same")
    assert found.found["reworded"][0] >= 7 and found.across == []
    near = _scored(AFTER_NEAR, tmp_path / "near")
    assert sum(hit for hit, _ in near.near.values()) + len(near.across) <= 1
    assert near.polarity == 0


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("Logs are kept for two weeks.", "Logs are kept for 14 days."),
        ("Bodies over 25MB are rejected.", "Bodies over 25 MB are rejected."),
        ("It retries three times.", "It retries 3 times."),
        ("The lifetime is 86400 s.", "The lifetime is 1 days."),
        ("Rebuild it once a week.", "Rebuild it once a week."),
        ("Rotate it every 2 weeks.", "Rotate it every 2 weeks."),
    ],
)
def test_a_quantity_is_read_in_one_form_but_a_recurrence_as_said(sentence: str, said: str) -> None:
    assert normal_form(sentence) == said


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("CI gets its token from Vault (`secret/ci`); nothing in the repo.",
         "CI gets its token from Vault (`secret/ci`)"),
        ("The token comes from `secret/ci`, never hard-code it.",
         "The token comes from `secret/ci`"),
        ("Keep 3 replicas, because the nodes fail.", "Keep 3 replicas"),
    ],
)  # fmt: skip
def test_a_fact_is_its_own_clause_with_what_it_names_in_parentheses(
    sentence: str, fact: str
) -> None:
    assert fact_of(sentence) == fact


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("Session cookies expire after 24 hours.",
         "The session cookie's lifetime is one day (86400 s); after that the user logs in.",
         True),
        ("`make bootstrap` installs the git hooks.",
         "The git hooks get installed by make bootstrap — run it once after cloning.", True),
        ("The deploy token for CI comes from Vault path `secret/x/ci`, never hard-code it.",
         "CI gets its deploy token from Vault (`secret/x/ci`); nothing in the repo.", True),
        ("`secret/kiln/ci` holds the deploy token for CI.",
         "`secret/kiln/ci` is rotated monthly by the platform team.", False),
        ("Access tokens expire after 12 hours.", "Refresh tokens expire after 12 hours.", False),
        ("`GUNICORN_WORKERS=6` on the API nodes.",
         "The API nodes have 6 vCPUs and 24 GB of memory.", False),
        ("With `OFFLINE=1` the app keeps the mailer from sending anything.",
         "With `OFFLINE=1` the app sends uploads to MinIO.", False),
        ("The cache warmer returns 429 to the admin panel.",
         "Gotcha: the cache warmer returns 429 to the admin panel — stream it instead.", False),
        ("When the client truncates files over 2 GB: resubscribe.",
         "Gotcha: the client truncates files over 2 GB — raise the timeout.", False),
    ],
)  # fmt: skip
def test_two_statements_naming_one_thing_with_one_value_say_one_fact(
    one: str, other: str, same: bool
) -> None:
    said = (one, sentence_stems(one)), (other, sentence_stems(other))
    assert same_fact(*said) is same


def test_a_name_of_letters_outside_ascii_is_an_anchor_of_its_words() -> None:
    """A Korean note's "배포2" (a name of letters and digits) is read as "배포 2", and
    statements naming it are candidates (a name read as no words once made the search
    fail on a real store)."""
    assert ("배포", "2") in reading("배포2 단계는 `make 배포` 로 한다").names
    assert anchor_candidates(["배포2 단계 가1", "가1 배포2 단계", "`…`"]) == {(0, 1)}


def test_an_anchor_many_statements_name_pairs_none() -> None:
    """What a project talks about everywhere (its service's env var) tells no two
    statements apart; two of them naming it are candidates."""
    many = [f"`ORDERS_DB_URL` is read by worker {index}." for index in range(ANCHOR_HOLDERS + 1)]
    assert anchor_candidates(many) == set()
    assert anchor_candidates(many[:2]) == {(0, 1)}
