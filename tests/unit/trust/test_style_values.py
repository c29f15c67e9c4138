"""`memtab contradictions` on the labelled pairs of tests/support/style_values.py (issue 83):
a style rule whose value is a property — a case, an indentation, quotes, a date format, a
spelling… — opposed by the opposite value of the same thing; the same value in other words,
a value of another thing, what was, a question — not."""

from __future__ import annotations

import pytest

from memtab.trust.reading.styles import style_values_disagree, styles
from support import contradiction_voices
from support.style_values import CASES

found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES
)


def test_the_corpus_holds_enough_of_each_side() -> None:
    expected = [case.expected for case in CASES]
    assert expected.count("contradiction") >= 25 and expected.count("neither") >= 25


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("SQL keywords in ALL CAPS.", [("style:case:keyword sql", "uppercase")]),
        ("Indent with two spaces.", [("style:indentation:", "2 spaces")]),
        ("Dates as `YYYY-MM-DD` in the docs.", [("style:date format:doc", "ISO 8601")]),
        ("Filenames are lowercase with hyphens.", [("style:case:filenam", "kebab-case")]),
        ("Python uses 4-space indentation; never tabs.",
         [("style:indentation:python", "4 spaces"), ("style:indentation:python", "not:tabs")]),
        ("Copy in UK English (colour, organise).", [("style:spelling:copi", "British")]),
    ],
)  # fmt: skip
def test_a_value_said_in_other_words_is_one_value(
    sentence: str, said: list[tuple[str, str]]
) -> None:
    assert [(key, value) for key, value, _ in styles(sentence)] == said


@pytest.mark.parametrize(
    "sentence",
    [
        "Use kebab-case.",  # the case of nothing said
        "`GET /v2/sessions` gains `expiresAt` (ISO 8601).",  # in an aside
        "Use camelCase for variables and PascalCase for types.",  # two things
        "Open the docs in a new tab.",  # a tab is an indentation only where indenting is said
        "Add a metric for the queue's depth.",
    ],
)
def test_no_style_is_read_where_none_is_plain(sentence: str) -> None:
    assert styles(sentence) == []


@pytest.mark.parametrize(
    ("one", "other", "expected"),
    [
        ("kebab-case", "lowercase", False),
        ("kebab-case", "snake_case", True),
        ("4 spaces", "spaces", False),
        ("4 spaces", "2 spaces", True),
        ("tabs", "spaces", True),
        ("not:lowercase", "kebab-case", True),
        ("not:snake_case", "kebab-case", False),
        ("not:tabs", "not:spaces", False),
    ],
)
def test_values_disagree_only_where_both_cannot_hold(one: str, other: str, expected: bool) -> None:
    assert style_values_disagree(one, other) is expected
    assert style_values_disagree(other, one) is expected
