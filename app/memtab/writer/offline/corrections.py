"""Corrected values: a sentence that sets a number right — "the lookback is 7 days, not 3", "the
dev server is on port 3100 (Procfile.dev), not 3000 as I assumed" — said by the user correcting
the agent, or by the agent correcting itself. A value someone already got wrong once is the
fact most worth keeping (docs/formats.md §10.2)."""

from __future__ import annotations

import re

from memtab.writer.offline.directives import ended

MAX_CORRECTION_CHARS = 240

_NUMBER = r"`?v?\d[\w.]*`?"
# "<subject> is [a word] <number> [a unit] [(where it is said)], not <number>": the right value
# and the wrong one, both numbers (a port, a version, a limit, a count of days).
_CORRECTED = re.compile(
    r"\b(?:(?:is|are|was|were)(?: on| at)?|runs on|listens on|uses)\s+(?:[A-Za-z][\w.-]*\s+)?"
    + _NUMBER
    + r"(?:\s+[a-z]+)?(?:\s*\([^()]{1,40}\))?,\s+not\s+"
    + _NUMBER
)
# Where the clause holding the correction begins: a sentence's start, or a break before it.
_CLAUSE_START = re.compile(r"(?:^\(?|[.;—–]\s+|;|,\s+(?:and|but|so)\s+)")
_CONNECTIVE = re.compile(
    r"^(?:(?:and|but|so|then|also|right|ok|okay|oh)\b[,:]?\s+)+", re.IGNORECASE
)
_NO_SUBJECT = re.compile(r"^(?:it|this|that|these|those|they|which|there|here)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`])")


def corrections_in(text: str) -> list[str]:
    """The corrected values `text` states, each the clause that states it, as a note."""
    found: list[str] = []
    for line in text.splitlines():
        for sentence in _SENTENCE_END.split(line.strip()):
            note = _correction(sentence)
            if note is not None and note not in found:
                found.append(note)
    return found


def _correction(sentence: str) -> str | None:
    match = _CORRECTED.search(sentence)
    if match is None:
        return None
    starts = [m.end() for m in _CLAUSE_START.finditer(sentence, 0, match.start())]
    clause = sentence[max(starts, default=0) :].strip()
    if clause.endswith(")") and clause.count(")") > clause.count("("):
        clause = clause[:-1].rstrip()
    clause = _CONNECTIVE.sub("", clause)
    subject = clause[: clause.find(match.group(0))].strip() if match.group(0) in clause else ""
    if not subject or _NO_SUBJECT.match(subject) or len(clause) > MAX_CORRECTION_CHARS:
        return None
    return ended(clause[0].upper() + clause[1:])
