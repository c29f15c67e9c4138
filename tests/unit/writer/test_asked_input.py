"""The question tool's input (docs/formats.md §10: the writer's decisions) is the agent's:
a question or an option of the wrong shape is passed over, the others still read."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.writer.offline.asked import decisions_in

from .events import tool

QUESTION = "Which package manager should we use?"
OUTPUT = f'User has answered your questions: "{QUESTION}"="pnpm". You can now continue.'
GOOD = {
    "question": QUESTION,
    "options": [
        {"label": "npm"},
        {"label": "pnpm", "description": "Fast installs with a shared content-addressed store."},
    ],
}
CHOSEN = (
    f'Asked "{QUESTION}" — the user chose: pnpm — '
    "Fast installs with a shared content-addressed store."
)


def _decisions(arguments: dict[str, Any] | str) -> list[str]:
    return decisions_in(tool("AskUserQuestion", arguments, output=OUTPUT))


def test_a_good_question_is_a_decision() -> None:
    assert _decisions({"questions": [GOOD]}) == [CHOSEN]


@pytest.mark.parametrize(
    "bad",
    [None, 3, "x", [], {"question": 3}, {"question": "   "}, {"options": GOOD["options"]}],
)
def test_a_bad_question_is_passed_over_the_others_read(bad: object) -> None:
    assert _decisions({"questions": [bad, GOOD]}) == [CHOSEN]


@pytest.mark.parametrize("questions", [None, "x", GOOD, 3])
def test_questions_that_are_no_list_are_none(questions: object) -> None:
    assert _decisions({"questions": questions}) == []
    assert _decisions("questions") == []


@pytest.mark.parametrize("options", [None, "pnpm", {"label": "pnpm"}, [], ["pnpm"], [{"label": 3}]])
def test_an_answer_no_option_offers_is_no_decision(options: object) -> None:
    assert _decisions({"questions": [{"question": QUESTION, "options": options}]}) == []


@pytest.mark.parametrize("description", [None, 3, ["Fast"], {"text": "Fast"}])
def test_an_options_description_of_the_wrong_type_is_none(description: object) -> None:
    options = [{"label": "pnpm", "description": description}, "odd", {"label": None}]
    question = {"question": QUESTION, "options": options}
    assert _decisions({"questions": [question]}) == [f'Asked "{QUESTION}" — the user chose: pnpm.']


def test_a_later_option_with_the_same_label_gives_the_description() -> None:
    options = [{"label": "pnpm", "description": 3}, *GOOD["options"]]  # type: ignore[list-item]
    assert _decisions({"questions": [{"question": QUESTION, "options": options}]}) == [CHOSEN]
