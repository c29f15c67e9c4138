"""Claude Code's memory selection request, and reading a model's answer to it as Claude Code
reads it (docs/formats.md §17.8). Pure: no model called here."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from memtab.fs.records import Record, ValidItems
from memtab.llm.written.calls import json_values_in

SYSTEM_PROMPT = (
    "You are selecting memories that will be useful to Claude Code as it processes a "
    "user's query. The first message lists the available memory files with their "
    "filenames and descriptions; subsequent messages each contain one user query.\n"
    "\n"
    "Return a list of filenames for the memories that will clearly be useful to Claude "
    "Code as it processes the user's query (up to 5). Only include memories that you are "
    "certain will be helpful based on their name and description.\n"
    "- If you are unsure if a memory will be useful in processing the user's query, then "
    "do not include it in your list. Be selective and discerning.\n"
    "- If there are no memories in the list that would clearly be useful, feel free to "
    "return an empty list.\n"
    "- Be especially conservative with user-profile and project-overview memories "
    "([user], [project]). These describe the user's ongoing focus, not what every "
    'question is about. A profile saying "works on DB performance" is NOT relevant to a '
    'question that merely contains the word "performance" unless the question is '
    "actually about that DB work. Match on what the question IS ABOUT, not on surface "
    "keyword overlap with who the user is.\n"
    "- Do not re-select memories you already returned for an earlier query in this "
    "conversation.\n"
    "\n"
    'Reply with only a JSON object of the form {"selected_memories": ["<filename>", ...]}.\n'
)
"""The system prompt of Claude Code 2.1.332's selection request, byte for byte."""
QUERY_PREFIX = "Select memories relevant to:\n"
MAX_TOKENS = 2560
"""The token limit of Claude Code 2.1.332's selection request (without thinking)."""
ANSWER_SHOWN = 300
"""How much of an answer that is no selection a note quotes."""
NAMED_TYPES = ("user", "feedback", "project", "reference", "account")
"""The `[type] ` a name may carry from its manifest line, which Claude Code takes off."""


def query(prompt: str) -> str:
    """The second message: what the selection is for."""
    return QUERY_PREFIX + prompt


class SelectionAnswer(Record):
    """The answer the selection request asks for (its JSON schema's one property)."""

    selected_memories: ValidItems[tuple[str, ...]]


@dataclass(frozen=True)
class Reading:
    """A model's answer read as Claude Code reads it."""

    picks: tuple[str, ...]
    """The manifest's file names the answer names, in its order, each once."""
    unknown: tuple[str, ...]
    """What else it named (no file of the manifest): Claude Code drops them."""
    problem: str | None
    """Why the answer is no selection, in words (None: it is one)."""


def read_answer(text: str, names: Collection[str], *, cut: bool = False) -> Reading:
    """`text` (a model's answer) as Claude Code reads it against the manifest's `names`; `cut`:
    stopped at the token limit (then none)."""
    if cut:
        return Reading((), (), f"The answer was cut at its {MAX_TOKENS:,}-token limit")
    answer = _answer(text)
    if answer is None:
        shown = " ".join(text.split())
        if len(shown) > ANSWER_SHOWN:
            shown = shown[:ANSWER_SHOWN] + "…"
        return Reading(
            (),
            (),
            'The answer is not a JSON object {"selected_memories": [...]}: '
            + (repr(shown) if shown else "it was empty"),
        )
    picks: list[str] = []
    unknown: list[str] = []
    for item in answer.selected_memories:
        name = item if item in names else _untyped(item)
        if name in names:
            if name not in picks:
                picks.append(name)
        elif item not in unknown:
            unknown.append(item)
    return Reading(tuple(picks), tuple(unknown), None)


def _answer(text: str) -> SelectionAnswer | None:
    """The selection `text` holds: the whole text, a code fence's, or from its first `{` to its
    last `}`."""
    for value in json_values_in(text):
        answer = SelectionAnswer.read(value)
        if answer is not None:
            return answer
    return None


def _untyped(name: str) -> str:
    """`name` without a leading `[type] ` of a manifest line (Claude Code's `^\\[(?:…)\\]\\s+`)."""
    if not name.startswith("["):
        return name
    close = name.find("]")
    rest = name[close + 1 :]
    if name[1:close] in NAMED_TYPES and rest[:1].isspace():
        return rest.lstrip()
    return name
