"""Findings: facts about the project the agent told the user when it finished a task.

Only the final answer of a turn is read (the assistant text that completed it), and only
its lines that state a lasting fact — a cause, a requirement, a constraint, what works
instead of what — about something concrete (a file, a command, a `code` name):

- "Key fix: Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1`
  instead of manually extracting trace_id from the span context record." — kept;
- "Added OpenTelemetry dependencies", "All 297 tests passing", "Want me to continue?",
  "I'll read the worker service first." — a report of what was done, a status, an offer,
  a plan: not kept.

Each kept line is written as one sentence, at most `MAX_FINDING_CHARS` long (a longer
one is skipped, never cut), and at most `MAX_FINDINGS_PER_ANSWER` come from one answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memtab.transcripts import TranscriptEvent

MAX_FINDING_CHARS = 240
MIN_FINDING_CHARS = 25
MAX_FINDINGS_PER_ANSWER = 3

# What makes a line a lasting fact rather than a report.
_FACT_MARKERS = re.compile(
    r"\b(?:root cause|the cause|caused by|because|the fix\b|key fix|fixed by|resolved by"
    r"|turns? out|turned out|requires?|required|needs? (?:to|a|an|the)|must (?:be|run|use|not)"
    r"|expects?|only works|does(?:n't| not) work|won't work|instead of|workaround|gotcha"
    r"|is not supported|isn't supported|has to|have to|otherwise)\b",
    re.IGNORECASE,
)
# Something concrete the fact is about: code, a path, a file name, an env var.
_CONCRETE = re.compile(
    r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b[\w-]+\.(?:py|ts|tsx|js|json|md|toml|ya?ml|sh|rs|go|ex|exs"
    r"|lock|cfg|ini|env|css|html)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
)
_NOT_A_FACT = re.compile(
    r"^(?:i|i'm|i've|i'll|i'd|let me|let's|we'll|want me|would you|shall i|should i|if you"
    r"|do you|next|now|then|here's|here is|done|great|perfect|sure|ok|okay)\b"
    r"|\b(?:want me to|let me know|i can|i could|i will|if you'd like|would you like)\b",
    re.IGNORECASE,
)
_STATUS = re.compile(
    r"\b(?:\d+ (?:tests?|passed|failures?|errors?)|tests? pass(?:ing|ed)?|all green"
    r"|pushed|merged|committed|pr #?\d+|commit [0-9a-f]{7,})\b",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_LABEL = re.compile(r"^\*{0,2}[\w ]{2,30}\*{0,2}:\*{0,2}\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_FENCED_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


def findings_in_answers(events: Sequence[TranscriptEvent]) -> list[str]:
    """Facts from the final answers of the turns in `events` (oldest first), once each."""
    found: list[str] = []
    for event in events:
        if event.sidechain or event.role != "assistant" or not event.completed_turn:
            continue
        for finding in facts_in(event.text)[:MAX_FINDINGS_PER_ANSWER]:
            if finding not in found:
                found.append(finding)
    return found


def facts_in(answer: str) -> list[str]:
    """The lines of one final answer that state a lasting fact (see the module doc)."""
    facts: list[str] = []
    for raw_line in _FENCED_CODE.sub("\n", answer).splitlines():
        line = _BULLET.sub("", raw_line.strip()).strip()
        if not line or line.startswith(("#", "|", ">")):
            continue
        line = line.replace("**", "")
        for sentence in _SENTENCE_END.split(line):
            fact = _fact(sentence)
            if fact is not None and fact not in facts:
                facts.append(fact)
    return facts


def _fact(sentence: str) -> str | None:
    text = " ".join(sentence.split())
    if not MIN_FINDING_CHARS <= len(text) <= MAX_FINDING_CHARS or text.endswith("?"):
        return None
    if not _FACT_MARKERS.search(text) or not _CONCRETE.search(text):
        return None
    body = _LABEL.sub("", text)  # "Key fix in this session: …" keeps what follows
    if _NOT_A_FACT.search(body) or _STATUS.search(body):
        return None
    body = body[0].upper() + body[1:]
    return body if body.endswith((".", "!")) else body + "."
