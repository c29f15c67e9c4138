"""The user's standing rules judged by the model, in the user's words (docs/formats.md §10.2,
"Time"): code proposes the sentences the user typed that the offline directive reader did not
take for rules, numbered, with a known rule and a known non-rule among them; the model answers
`standing_rules` with the numbers that state a standing rule. A model that keeps the known
non-rule or leaves out the known rule is not used for rules (the run says so); each sentence
it keeps otherwise is written as the user typed it, its line the transcript's."""

from __future__ import annotations

import copy
import json
import threading
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from memtab.humanize import plural
from memtab.llm.loop import run_tool_loop
from memtab.llm.pace import Paced, RunPace, instruction_tokens
from memtab.llm.types import ChatProvider, ToolCall, ToolOutcome, ToolSpec, Usage, UserMessage
from memtab.redact import redact_outgoing
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.job.dumps import AttemptTrace
from memtab.writer.job.lesson_tools import LessonTools
from memtab.writer.lessons.digest import shown
from memtab.writer.offline.directives import (
    MAX_DIRECTIVE_CHARS,
    asks,
    directive_of,
    ended,
    sentences_typed,
)
from memtab.writer.offline.notes import DIRECTIVES, Note, normalize
from memtab.writer.prompts import build_rules_message, rules_prompt, rules_tool_specs

STANDING_RULES = "standing_rules"
MIN_SENTENCE_CHARS = 12
MAX_CANDIDATES = 40
"""The most sentences one request shows (its schema's bound), the controls among them."""
# Controls: a sentence any reader takes for a standing rule, and one no reader does. One of
# each is shown among the user's, chosen and placed by the sentences themselves (the same
# session, the same question).
KNOWN_RULES = (
    "Always run the full test suite before you tell me a change is done.",
    "Never push directly to the main branch; open a pull request instead.",
    "From now on, write every commit message in the imperative mood.",
)
KNOWN_NON_RULES = (
    "Thanks, that looks good now.",
    "Now rename the helper in this file to parse_row.",
    "I just restarted my laptop, the build is running again.",
)
FAILED_CONTROLS = "the model's answer failed its controls ({why}): its rules are not used"


@dataclass(frozen=True)
class Sentence:
    """One sentence the user typed, as they typed it, and the message it is in."""

    text: str
    message_id: str


def rule_candidates(events: Iterable[TranscriptEvent]) -> list[Sentence]:
    """The sentences the user typed (not the agent's, not a tool's output) that may state a
    standing rule the offline reader did not find: not a question, not one it took for a
    directive (its note stands), each once, oldest first."""
    found: list[Sentence] = []
    seen: set[str] = set()
    for event in events:
        if event.role != "user" or event.sidechain or not event.text:
            continue
        for sentence in sentences_typed(event.text):
            text = " ".join(sentence.split())
            if not MIN_SENTENCE_CHARS <= len(text) <= MAX_DIRECTIVE_CHARS or asks(text):
                continue
            if directive_of(text) is not None or normalize(text) in seen:
                continue
            seen.add(normalize(text))
            found.append(Sentence(text, event.message_id or event.id))
    return found


@dataclass(frozen=True)
class RulesQuestion:
    """What the model is shown: the user's sentences with the two controls among them."""

    sentences: tuple[Sentence, ...]
    shown: tuple[str, ...] = field(init=False)
    known_rule: int = field(init=False)
    """The known rule's number (from 1), and the known non-rule's."""
    known_non_rule: int = field(init=False)

    def __post_init__(self) -> None:
        texts = [shown(redact_outgoing(s.text), MAX_DIRECTIVE_CHARS) for s in self.sentences]
        seed = zlib.crc32("\n".join(texts).encode())
        rule = _control(KNOWN_RULES, seed, texts)
        non_rule = _control(KNOWN_NON_RULES, seed // 3, texts)
        texts.insert(seed % (len(texts) + 1), rule)
        texts.insert((seed // 7) % (len(texts) + 1), non_rule)
        object.__setattr__(self, "shown", tuple(texts))
        object.__setattr__(self, "known_rule", texts.index(rule) + 1)
        object.__setattr__(self, "known_non_rule", texts.index(non_rule) + 1)

    def message(self, *, workspace: str, project: str) -> str:
        return build_rules_message(workspace=workspace, project=project, sentences=self.shown)

    @property
    def specs(self) -> list[ToolSpec]:
        """`standing_rules`, its numbers those shown: a server asked by schema writes no other."""
        count = len(self.shown)
        specs = []
        for spec in rules_tool_specs():
            schema = copy.deepcopy(spec.input_schema)
            schema["properties"]["rules"]["maxItems"] = count
            schema["properties"]["rules"]["items"]["maximum"] = count
            specs.append(replace(spec, input_schema=schema))
        return specs

    def verdict(self, numbers: Sequence[int]) -> RulesVerdict:
        """The user's sentences the answer keeps, when it passes both controls."""
        chosen = set(numbers)
        failed = [
            *(["kept the known non-rule"] if self.known_non_rule in chosen else []),
            *(["left out the known rule"] if self.known_rule not in chosen else []),
        ]
        if failed:
            return RulesVerdict(False, (), FAILED_CONTROLS.format(why=", ".join(failed)))
        user = [n for n in range(1, len(self.shown) + 1) if n not in self._controls]
        by_number = dict(zip(user, self.sentences, strict=True))
        kept = tuple(by_number[n] for n in sorted(chosen) if n in by_number)
        return RulesVerdict(True, kept, "")

    @property
    def _controls(self) -> tuple[int, int]:
        return self.known_rule, self.known_non_rule


def _control(pool: Sequence[str], seed: int, texts: Sequence[str]) -> str:
    """A control from `pool` (by `seed`) that is none of the user's sentences."""
    taken = {normalize(text) for text in texts}
    ordered = [pool[(seed + i) % len(pool)] for i in range(len(pool))]
    return next(text for text in ordered if normalize(text) not in taken)


@dataclass(frozen=True)
class RulesVerdict:
    """Whether the answer passed its controls, the sentences it keeps, and why not."""

    passed: bool
    kept: tuple[Sentence, ...]
    why: str

    def notes(self) -> dict[Note, str]:
        """Each kept sentence as a directive in the user's words, with its line as evidence."""
        return {
            Note(DIRECTIVES, ended(s.text), message_ids=(s.message_id,)): s.text for s in self.kept
        }


class RulesAnswer:
    """The tool of the standing-rules request: takes the numbers the model answers."""

    def __init__(self, question: RulesQuestion) -> None:
        self.question = question
        self.numbers: list[int] | None = None
        """The numbers answered (None: no answer yet); a number not shown is left out."""

    def execute(self, call: ToolCall) -> ToolOutcome:
        if call.name != STANDING_RULES:
            return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)
        values = (call.arguments or {}).get("rules")
        count = len(self.question.shown)
        self.numbers = [
            value
            for value in (values if isinstance(values, list) else [])
            if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= count
        ]
        return ToolOutcome(call.id, json.dumps({"success": True}))


@dataclass(frozen=True)
class RulesRequest:
    """A standing-rules request of a run: sent through `outgoing` (what may leave the
    machine), its reply limit set on `sender`, timed by the run's `pace`."""

    outgoing: ChatProvider
    sender: Any
    pace: RunPace
    sentences: tuple[Sentence, ...]


@dataclass(frozen=True)
class RulesAsked:
    """What the request did: its exchange (for the dump), tokens, whether a rule was written,
    and what the run's summary says of it."""

    attempt: AttemptTrace
    usage: Usage
    wrote: bool
    says: str


def ask_rules(
    request: RulesRequest,
    tools: LessonTools,
    *,
    workspace: str,
    project: str,
    deadline: float,
    cancel: threading.Event | None,
    run_limit_s: float,
    hint: str,
) -> RulesAsked:
    """Ask which of the user's sentences are standing rules (one request, one reply) and write
    those a controlled answer keeps through `tools` (the rails, the user's words)."""
    question = RulesQuestion(request.sentences)
    system, specs = rules_prompt(), question.specs
    fresh = getattr(request.sender, "fresh_prompt", False) is True
    instructions = instruction_tokens(system, specs)
    paced = Paced(
        request.outgoing, request.sender, request.pace, instructions=instructions, fresh=fresh
    )
    answer = RulesAnswer(question)
    messages = [UserMessage(question.message(workspace=workspace, project=project))]
    attempt = AttemptTrace(attempt_index=1, messages=list(messages))
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        attempt.aborted, attempt.error = True, "no time left to ask"
        return RulesAsked(attempt, Usage(), False, "the user's rules not asked: no time left")
    loop = run_tool_loop(
        paced,
        system,
        messages,
        specs,
        answer.execute,
        max_steps=1,
        timeout_s=remaining,
        cancel=cancel,
        timeout_hint=hint,
        run_limit_s=run_limit_s,
        may_ask=paced.may_ask,
    )
    attempt.messages, attempt.replies = loop.messages, loop.replies
    attempt.tool_executions = list(loop.tool_executions)
    attempt.finish_reason = loop.replies[-1].stop_reason if loop.replies else loop.stop_reason
    shown = plural(len(request.sentences), "sentence")
    if answer.numbers is None:
        attempt.error = loop.detail or "no standing_rules call"
        attempt.aborted = loop.stop_reason in ("timeout", "cancelled")
        says = f"the user's rules: no answer ({attempt.error})"
        return RulesAsked(attempt, loop.usage, False, says)
    verdict = question.verdict(answer.numbers)
    if not verdict.passed:
        attempt.error = verdict.why
        return RulesAsked(attempt, loop.usage, False, f"the user's rules: {verdict.why}")
    if not verdict.kept:
        says = f"the user's rules: none among the {shown} (controls passed)"
        return RulesAsked(attempt, loop.usage, False, says)
    call_id = next((e.tool_call_id for e in loop.tool_executions), "standing_rules")
    wrote = tools.write_rules(call_id, verdict.notes())
    attempt.wrote = wrote
    says = (
        f"the user's rules: {len(verdict.kept)} of the {shown} kept in their words "
        f"(controls passed){'' if wrote else ', none new to the file'}"
    )
    return RulesAsked(attempt, loop.usage, wrote, says)
