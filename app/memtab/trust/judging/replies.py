"""A model's reply to a call of many pairs, read as the untrusted input it is
(`trust.judging`).

Each answer is a flat JSON object `{"pair": <number>, "reason": "<one line>", "verdict":
"same" | "conflict" | "neither"}` (`PairAnswer`), found wherever the reply holds one — an
array, one a line, inside a wrapper object, with prose or a code fence around. A reply longer
than its pairs' answers could take is not read; a reason's control characters are kept as
visible escapes (`terminal_text.printable`); an answer for a pair not asked, a verdict of
no kind, two answers for one pair that disagree are refused, each said once; a pair with no
answer that can be used is left unanswered (never taken as confirmed or dismissed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Healed, Lenient, Record
from memtab.fs.terminal_text import printable
from memtab.trust.judging.questions import VERDICTS, VerdictKind

MAX_REASON = 300
CHARS_AN_ANSWER = 600
"""A reply longer than this a pair asked (and `SLACK`) is not read: no answer takes it."""
SLACK = 2000
_MAX_OBJECT = 2000
"""An answer object longer than this is no answer."""


def _number(value: Any) -> Any:
    """A pair's number as a model may write it: 3, or "3"."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


class PairAnswer(Record):
    """One answer of a reply (see the module doc)."""

    pair: Annotated[int, Healed(_number)]
    verdict: str
    reason: Annotated[str, Lenient("")] = ""


@dataclass(frozen=True)
class Answer:
    """The verdict on one pair asked, and the model's reason."""

    verdict: VerdictKind
    reason: str


@dataclass
class ReadReply:
    """What a reply answered, by the pair's number (from 1), and what was refused in words."""

    answers: dict[int, Answer] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)


def read_reply(text: str, asked: int) -> ReadReply:
    """The answers `text` gives to `asked` pairs numbered from 1 (see the module doc)."""
    read = ReadReply()
    if len(text) > asked * CHARS_AN_ANSWER + SLACK:
        read.refused.append(
            f"a reply of {len(text):,} characters, more than answers to {asked} pairs take: "
            "not read"
        )
        return read
    given: dict[int, list[Answer]] = {}
    for value in _flat_objects(text):
        answer = PairAnswer.read(value)
        if answer is None:
            continue
        verdict = " ".join(answer.verdict.lower().split())
        if not 1 <= answer.pair <= asked:
            read.refused.append(f"an answer for pair {answer.pair}, which was not asked")
        elif verdict not in VERDICTS:
            read.refused.append(f"for pair {answer.pair}, a verdict of no kind: {verdict[:40]!r}")
        else:
            reason = printable(" ".join(answer.reason.split()))[:MAX_REASON]
            given.setdefault(answer.pair, []).append(Answer(verdict, reason))
    for number, answers in sorted(given.items()):
        if len({a.verdict for a in answers}) > 1:
            read.refused.append(f"two answers for pair {number} that disagree")
        else:
            read.answers[number] = answers[0]
    if not given and not read.refused:
        read.refused.append(f"an answer that is no verdict: {' '.join(text.split())[:120]!r}")
    return read


def _flat_objects(text: str) -> list[Any]:
    """Each JSON object of `text` that holds no other object, read (one that cannot be is
    left out): a single pass, whatever surrounds them or is garbled between them."""
    found: list[Any] = []
    opened: list[tuple[int, bool]] = []  # (where a `{` or `[` opened, whether it holds an object)
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"' and opened:
            in_string = True
        elif char in "[{":
            if char == "{" and opened:
                opened[-1] = (opened[-1][0], True)
            opened.append((index, False))
        elif char in "]}" and opened:
            start, holds = opened.pop()
            if char == "}" and text[start] == "{" and not holds and index - start < _MAX_OBJECT:
                try:
                    found.append(parse_json(text[start : index + 1]))
                except JsonError:
                    continue
    return found
