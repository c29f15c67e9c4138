"""A model's reply to many pairs is untrusted input (issue 94): its answers are found wherever
it holds them — an array, one a line, inside a wrapper, among prose, in a code fence, a pair's
number as a string — and what cannot be used is refused, said once, never taken as an answer."""

from __future__ import annotations

import pytest

from memtab.trust.judging.replies import Answer, read_reply

SAME = Answer("same", "both: pnpm")
NEITHER = Answer("neither", "")


@pytest.mark.parametrize(
    "text",
    [
        '[{"pair": 1, "reason": "both: pnpm", "verdict": "same"},'
        ' {"pair": 2, "verdict": "neither"}]',
        '{"pair": 2, "verdict": "Neither"}\n{"pair": 1, "reason": "both: pnpm", "verdict": "same"}',
        'Sure!\n```json\n{"answers": [{"pair": "1", "reason": "both:   pnpm", "verdict": "same"},'
        ' {"pair": 2, "verdict": "neither", "reason": 7}]}\n```\nHope this helps.',
    ],
    ids=["array", "one-a-line", "wrapped-in-prose"],
)
def test_answers_are_found_wherever_the_reply_holds_them(text: str) -> None:
    read = read_reply(text, asked=2)
    assert read.answers == {1: SAME, 2: NEITHER}
    assert read.refused == []


def test_a_garbled_item_is_refused_and_its_neighbours_kept() -> None:
    text = (
        '[{"pair": 1, "verdict": "same", "reason": "both: pnpm"}, {"pair": 2, "verdict": '
        '"same", "reason": "a quote " inside"}, {"pair": 3, "verdict": "conflict"}]'
    )
    read = read_reply(text, asked=3)
    assert read.answers[1] == SAME and 2 not in read.answers


def test_what_cannot_be_used_is_refused_and_said() -> None:
    text = (
        '[{"pair": 0, "verdict": "same"}, {"pair": 1, "verdict": "maybe"},'
        ' {"pair": 2, "verdict": "same"}, {"pair": 2, "verdict": "conflict"},'
        ' {"pair": 3, "verdict": "conflict", "reason": "x"}, {"pair": 3, "verdict": "conflict"}]'
    )
    read = read_reply(text, asked=3)
    assert read.answers == {3: Answer("conflict", "x")}
    assert read.refused == [
        "an answer for pair 0, which was not asked",
        "for pair 1, a verdict of no kind: 'maybe'",
        "two answers for pair 2 that disagree",
    ]
