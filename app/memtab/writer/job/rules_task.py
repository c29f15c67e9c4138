"""The user's standing rules judged by the model, in the user's words (docs/formats.md §10.2,
"Time"): code proposes the sentences the user typed that the offline directive reader did not
take for rules, numbered after the judging task's notes, with a known rule and a known non-rule
among them; the model keeps those that state a standing rule. A model that keeps the known
non-rule or leaves out the known rule is not used at all (the offline writer's notes are written
and the run says so); each sentence it keeps otherwise is written as the user typed it, its line
the transcript's."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest

from memtab.redact import redact_outgoing
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.lessons.digest import shown
from memtab.writer.offline.directives import (
    MAX_DIRECTIVE_CHARS,
    asks,
    directive_of,
    ended,
    rule_taken_back_within,
    sentences_typed,
    takes_back_at_once,
)
from memtab.writer.offline.notes import DIRECTIVES, Note, normalize

MIN_SENTENCE_CHARS = 12
MAX_CANDIDATES = 20
"""The most of the user's sentences one request shows, the controls among them."""
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


@dataclass(frozen=True)
class Sentence:
    """One sentence the user typed, as they typed it, and the message it is in."""

    text: str
    message_id: str


def rule_candidates(events: Iterable[TranscriptEvent]) -> list[Sentence]:
    """The sentences the user typed (not the agent's, not a tool's output) that may state a
    standing rule the offline reader did not find: not a question, not one it took for a
    directive (its note stands), not one the next sentence takes back, each once, oldest first."""
    found: list[Sentence] = []
    seen: set[str] = set()
    for event in events:
        if event.role != "user" or event.sidechain or not event.text:
            continue
        typed = list(sentences_typed(event.text))
        for sentence, after in zip_longest(typed, typed[1:], fillvalue=""):
            if takes_back_at_once(after) or rule_taken_back_within(sentence) is not None:
                continue  # "Use f32 for all of it. Actually scratch that, …"
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

    def verdict(self, numbers: Iterable[int]) -> RulesVerdict:
        """The user's sentences the answer keeps (`numbers`: of `shown`, from 1), when it
        passes both controls."""
        chosen = set(numbers)
        failed = [
            *(["kept the known non-rule"] if self.known_non_rule in chosen else []),
            *(["left out the known rule"] if self.known_rule not in chosen else []),
        ]
        if failed:
            return RulesVerdict(False, (), ", ".join(failed))
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
