"""`memtab leaks` on the labelled secrets of tests/support/leak_secrets.py (issue 83): every
vendor's shape and context there named on its line, no near miss (a documented example, a
reference, ciphertext, a hash, a public key, a Sentry DSN) named at all."""

from __future__ import annotations

import pytest

from support import leak_secrets
from support.leak_secrets import CASES


@pytest.fixture(scope="module")
def named() -> dict[int, list[tuple[int | None, str]]]:
    return leak_secrets.found()


def test_every_secret_is_named_on_its_line(named: dict[int, list[tuple[int | None, str]]]) -> None:
    missed = [
        case.form
        for number, case in enumerate(CASES)
        if case.line is not None and case.line not in [line for line, _ in named.get(number, [])]
    ]
    assert missed == []


def test_no_near_miss_is_named(named: dict[int, list[tuple[int | None, str]]]) -> None:
    flagged = [CASES[number].form for number in named if CASES[number].line is None]
    assert flagged == []


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.line is not None for case in CASES) >= 30
    assert sum(case.line is None for case in CASES) >= 30


def test_precision_and_recall() -> None:
    card = leak_secrets.score()
    assert (card["found"], card["precision"]) == (card["seeded"], 1.0), card
