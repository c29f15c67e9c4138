"""The one question a pair of statements is asked, how a call asks many, and the control pairs
every judge answers alike (`trust.judging`).

A pair is two statements, each shown with its file's scope (`shown`). The model answers each
with a reason of a few words (`neither`, most pairs, may leave it out: a small local model
writes each word at its pace), then one verdict: `same` (either could go and nothing would be
lost), `conflict` (they cannot both hold) or `neither`. A call lists the pairs numbered, the
controls among them (`CONTROLS`: a judge that gets one wrong is not heard in that call).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

VerdictKind = Literal["same", "conflict", "neither"]
VERDICTS: tuple[VerdictKind, ...] = ("same", "conflict", "neither")
MAX_STATEMENT = 1200
"""At most this many characters of one statement are sent (a note past it is cut)."""

SYSTEM_PROMPT = (
    "You check the notes (memories) that coding agents keep about software projects and read "
    "at the start of every session. Judge what statements mean, not the words they share.\n"
    "Reply with only a JSON array, one object for each pair, in the pairs' order."
)
QUESTION = (
    "Each pair below is two statements from two memory files, each with its file's scope. "
    "For each pair, answer:\n"
    '- "same": they state the same rule or fact about the same thing, in other words, or one '
    "with a reason or example the other leaves out: either could be deleted and nothing would "
    "be lost;\n"
    '- "conflict": they are about the same thing and cannot both hold: opposite rules (always '
    "/ never, do / don't), or different values for one thing (two ports, versions, paths or "
    "commands for one purpose, two tools for one job);\n"
    '- "neither": they are about different things (another service, tool, place or value), or '
    "both can hold (a rule and a narrower exception to it, two different facts).\n"
    'Answer [{"pair": 1, "reason": "<a few words>", "verdict": "same" or "conflict" or '
    '"neither"}, ...], one object for every pair; for "neither" the reason may be left out.'
)
"""The question (its words are part of every answer's key: asked in other words, asked again)."""


@dataclass(frozen=True)
class Pair:
    """Two statements as the model reads them (`shown`), in the order shown."""

    one: str
    other: str

    def key(self, model: str) -> bytes:
        """What an answer is kept by: the model, the question and the two statements (either
        order)."""
        digest = hashlib.blake2b(digest_size=16)
        for part in (model, QUESTION, *sorted((self.one, self.other))):
            digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
        return digest.digest()


def shown(statement: str, scope: str = "") -> str:
    """A statement as the model reads it: its file's scope (`scope`, in words), then the text
    on one line, cut at `MAX_STATEMENT`."""
    text = " ".join(statement.split())
    if len(text) > MAX_STATEMENT:
        text = text[: MAX_STATEMENT - 1] + "…"
    return f"{scope} {text}" if scope else text


def asked_in_one_call(pairs: Sequence[Pair]) -> str:
    """The user message that asks `pairs` (numbered from 1)."""
    listed = "\n\n".join(
        f"Pair {number}\nA: {pair.one}\nB: {pair.other}"
        for number, pair in enumerate(pairs, start=1)
    )
    return f"{QUESTION}\n\n{listed}"


GLOBAL = "(global memory, read in every project)"
SHOP = "(project memory of project shop)"


@dataclass(frozen=True)
class Control:
    """A pair every judge answers alike, its verdict, and in words what a model that answers
    otherwise got wrong."""

    pair: Pair
    verdict: VerdictKind
    wrong: str


CONTROLS: dict[VerdictKind, tuple[Control, ...]] = {
    "same": (
        Control(
            Pair(
                f"{GLOBAL} Always run the unit tests before pushing.",
                f"{SHOP} Run the unit tests every time before you push.",
            ),
            "same",
            "did not call an obvious rewording the same",
        ),
        Control(
            Pair(
                f"{SHOP} Format Python code with black before committing.",
                f"{GLOBAL} Run black on the Python code before every commit.",
            ),
            "same",
            "did not call an obvious rewording the same",
        ),
    ),
    "conflict": (
        Control(
            Pair(
                f"{GLOBAL} Always use tabs for indentation.",
                f"{SHOP} Never use tabs for indentation.",
            ),
            "conflict",
            "did not call an always/never opposite a conflict",
        ),
        Control(
            Pair(
                f"{SHOP} The API's dev server listens on port 8000.",
                f"{SHOP} The API's dev server listens on port 8080.",
            ),
            "conflict",
            "did not call two ports of one server a conflict",
        ),
    ),
    "neither": (
        Control(
            Pair(
                f"{SHOP} The API's dev server runs on port 8000.",
                f"{SHOP} The docs site's dev server runs on port 8000.",
            ),
            "neither",
            "called two statements about different things the same or a conflict",
        ),
        Control(
            Pair(
                f"{GLOBAL} Always run the unit tests before pushing.",
                f"{SHOP} Never run the load tests on a laptop.",
            ),
            "neither",
            "called two rules about different things the same or a conflict",
        ),
    ),
}
"""The controls: each call holds one of each verdict (a small model calls nearly every pair
the same, or a conflict), so a judge is heard only where it tells them apart."""


def controls_of_call(number: int) -> tuple[Control, ...]:
    """The controls the `number`th call of a run holds: one of each verdict, in turn."""
    return tuple(CONTROLS[verdict][number % len(CONTROLS[verdict])] for verdict in VERDICTS)
