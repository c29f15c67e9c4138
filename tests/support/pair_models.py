"""Stand-in models for the trust judge (`memtab.trust.judging`): each reads the pairs a call
asks (`Pair N` / `A:` / `B:`, as `questions.asked_in_one_call` lists them), answers the
control pairs as every judge must, and the others as its test says."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Mapping

from memtab.llm.types import Message, ModelReply, ToolSpec, Usage
from memtab.trust.judging.questions import CONTROLS
from support.scripted_provider import ScriptedProvider

PAIR = re.compile(r"^Pair (\d+)\nA: (.*)\nB: (.*)$", re.MULTILINE)
CONTROL_VERDICTS = {
    frozenset((control.pair.one, control.pair.other)): control.verdict
    for controls in CONTROLS.values()
    for control in controls
}
Judge = Callable[[str, str], str | None]
"""A verdict on two statements as shown (None: the pair is left unanswered)."""


def pairs_asked(text: str) -> list[tuple[int, str, str]]:
    """The pairs a call's message asks: (number, A, B)."""
    return [(int(number), one, other) for number, one, other in PAIR.findall(text)]


def control_verdict(one: str, other: str) -> str | None:
    return CONTROL_VERDICTS.get(frozenset((one, other)))


def by_words(verdicts: Mapping[tuple[str, str], str]) -> Judge:
    """A judge of pairs whose statements hold two fragments (either way round): the verdict
    given for them, else `neither`."""

    def judge(one: str, other: str) -> str | None:
        for (mine, theirs), verdict in verdicts.items():
            if (mine in one and theirs in other) or (mine in other and theirs in one):
                return verdict
        return "neither"

    return judge


class PairsModel(ScriptedProvider):
    """A model answering each call's pairs by `judge`, its controls right (`controls_right`:
    False answers them as a model saying the same of everything), or with `raw` text as is;
    `reason`: what it says of each pair but the controls ("judged N" by the pair's number)."""

    def __init__(
        self,
        judge: Judge | None = None,
        *,
        controls_right: bool = True,
        raw: Callable[[list[tuple[int, str, str]]], str] | None = None,
        reason: str = "",
    ) -> None:
        super().__init__()
        self.judge = judge or by_words({})
        self.reason = reason
        self.controls_right = controls_right
        self.raw = raw
        self.asked: list[list[tuple[int, str, str]]] = []

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        super().complete(system, messages, tools, cancel=cancel)
        asked = pairs_asked(messages[-1].text)  # type: ignore[union-attr]
        self.asked.append(asked)
        if self.raw is not None:
            return ModelReply(self.raw(asked), usage=Usage(100, 10), served_model="judge-1.q4")
        answers = []
        for number, one, other in asked:
            control = control_verdict(one, other)
            verdict = (control if self.controls_right else "same") if control else None
            verdict = verdict or self.judge(one, other)
            if verdict is not None:
                said = (not control and self.reason) or f"judged {number}"
                answers.append({"pair": number, "reason": said, "verdict": verdict})
        text = f"Here you go:\n```json\n{json.dumps(answers)}\n```"
        return ModelReply(text, usage=Usage(100, 10), served_model="judge-1.q4")

    def statements(self) -> list[tuple[str, str]]:
        """Every pair asked but the controls, in order."""
        return [
            (one, other)
            for call in self.asked
            for _, one, other in call
            if control_verdict(one, other) is None
        ]
