"""The user's model as the judge of what the offline engines found (issue 83; docs/formats.md
§19.5, §19.6).

When the user has a model (the writer's provider, `llm.settings`), each duplicate group
the words found (`reworded`, `rule`: a copy is the same text, nothing to judge) and each
contradiction is put to it: the statements, and one question — do these say the same
thing, so one could stand for the others? can these all hold at once? It answers in a JSON
object, its reason first, then its verdict — `{"reason": "<one line>", "verdict":
"same" | "different"}`, or `"contradiction" | "compatible"` (`JudgeAnswer`): a finding it
confirms is shown with its reason and its name (`judged_by`), one it dismisses is moved
to the report's `dismissed`, with its reason. An answer that cannot be read, or a call
that fails, leaves the finding as the offline engine judged it, and the report says why.
Then the wider net (`trust.wider`): pairs of statements the offline engines did not confirm,
most alike first, at most `MAX_QUESTIONS` new questions a run (the rest said unasked); each
it confirms is shown as a finding it judged, each it dismisses is not shown.

What it answered is kept per question and content (`JudgedQuestions`: a digest of the
model, the question and the statements), in Memtab's cache dir as the other trust caches
(a sealed memo, `per_file.memo_of`): asking again about the same statements costs
nothing. It calls a model over the network: run it off the GUI thread.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memtab.check.documents import Document, seen_together
from memtab.fs.records import Record
from memtab.humanize import plural
from memtab.kept.per_file import CACHE_VERSION, MAGIC, memo_of, only
from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.types import ChatProvider, ProviderError, UserMessage
from memtab.llm.written.calls import json_values_in
from memtab.store.home import Home
from memtab.trust.claims import Claim
from memtab.trust.contradictions.records import Contradiction, ContradictionsReport
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport, group_key, listed
from memtab.trust.duplicates.statements import Statement
from memtab.trust.memories import where_in_words
from memtab.trust.wider import (
    CONTROLS,
    MAX_QUESTIONS,
    OPPOSED_SHARED,
    Candidate,
    Together,
    as_shown,
    candidates,
    claims_of,
    opposed_rules,
    places_of,
    sentences_of,
)

Question = Literal[
    "same", "contradict", "same-statement", "differ-statement", "contradict-statement"
]
OFFLINE = "offline"
"""`judged_by` of a finding the offline engine alone judged."""
MAX_TOKENS = 200
MAX_STATEMENT = 1200
"""At most this many characters of one statement are sent (a note past it is cut)."""
MAX_KEPT = 5000
"""Answers kept (the newest)."""
MAX_FAILED = 3
"""After this many failed questions, the wider net is left unasked (the model is not
answering)."""
SYSTEM_PROMPT = (
    "You check findings about the notes (memories) that coding agents keep about a "
    "software project and read at the start of every session. Read the statements and "
    "judge what they mean, not the words they share: opposite rules (always / never, do "
    "/ don't) and different values for one thing (two ports, two tools for one job) "
    "contradict and are never the same; rules about different things are neither; a rule "
    "and a narrower exception to it do not contradict.\n"
    "Reply with only a JSON object: first your reason in one short line, then your verdict."
)
QUESTIONS: dict[Question, tuple[str, str, str]] = {
    "same": (
        "Do these statements state the same rule or fact about the same thing, though worded "
        "differently or one giving more detail? Answer different only when they are about "
        "different things, or disagree (another value, tool, place or the opposite rule).",
        "same",
        "different",
    ),
    "contradict": (
        "Can these statements all be true of one project at the same time, or do they "
        "contradict each other?",
        "contradiction",
        "compatible",
    ),
    "same-statement": (
        "Do these two statements, from two memory files the agent reads, state the same rule "
        "or fact, so that either could be deleted and nothing would be lost? Answer different "
        "when they are about different things, one adds a condition, exception, place or "
        "value the other lacks, or they disagree.",
        "same",
        "different",
    ),
    "differ-statement": (
        "Does either statement say something the other does not say: another thing, tool, "
        "service, value, place, condition or exception, or the opposite? Answer differ if "
        "so; answer same only when each says all the other says, in other words.",
        "differ",
        "same",
    ),
    "contradict-statement": (
        "Can an agent that reads both statements follow or believe both at once in one "
        "project? Answer contradiction only when both are about the same action or thing and "
        "following or believing one means breaking the other; statements about different "
        "things, tools, services or places, or a rule and a narrower case of it, are "
        "compatible.",
        "contradiction",
        "compatible",
    ),
}
"""Each question, and the verdict that confirms the finding and the one that dismisses it
(`-statement`: a pair of the wider net, `trust.wider`, each statement with its file's scope)."""

ProviderFactory = Callable[[ProviderSettings, int | None], ChatProvider]


def make_provider(settings: ProviderSettings, max_tokens: int | None) -> ChatProvider:
    """The judge asks at temperature 0: the same statements get the same verdict every run
    (a sampled one made a small model pass its control pairs in one run and fail the next)."""
    return create_provider(settings, max_tokens=max_tokens, temperature=0.0)


class JudgeAnswer(Record):
    """What the model is asked to answer (see the module doc): its reason, then its
    verdict (one of its question's two)."""

    reason: str
    verdict: str


@dataclass(frozen=True)
class Verdict:
    """The model's answer to one question: yes or no, its reason, and the model."""

    yes: bool
    reason: str
    model: str


@dataclass
class JudgeStats:
    """What judging cost: the questions asked of the model, answered from what was kept,
    failed, its tokens and time."""

    asked: int = 0
    kept: int = 0
    failed: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    wider: int = 0
    """Pairs of the wider net judged (`trust.wider`)."""
    confirmed: int = 0
    """Of those, the pairs the model confirmed."""
    unasked: int = 0
    """Pairs of the wider net left unasked: past the run's `MAX_QUESTIONS`, or after the
    model failed."""
    untrusted: bool = False
    """The model failed a control pair (`CONTROLS`): the wider net was not asked."""
    distrust: list[str] = field(default_factory=list)
    """What the model got wrong of the controls, in words (`CONTROLS`)."""
    standing: int = 0
    """Findings of the offline engines not put to a model that failed a control."""


class ModelJudge:
    """Asks the model of `settings` about statements, keeping its answers (see the module
    doc); one question at a time."""

    def __init__(
        self,
        home: Home,
        settings: ProviderSettings,
        *,
        make: ProviderFactory | None = None,
        clock: Callable[[], float] = time.perf_counter,
        cancel: threading.Event | None = None,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self._make = make
        self._clock = clock
        self._cancel = cancel
        self._provider: ChatProvider | None = None
        self._kept = JudgedQuestions(home)
        self._trusted: dict[Question, bool] = {}
        self.stats = JudgeStats()

    def trusts(self, question: Question) -> bool:
        """Whether the model answers `question`'s controls (`CONTROLS`: a pair to dismiss, then
        one to confirm) as every judge must; asked once a run, what it got wrong in the stats."""
        if question not in self._trusted:
            dismiss, confirm, confirmed_wrongly, dismissed_wrongly = CONTROLS[question]
            wrong = ""
            for pair, right, error in (
                (dismiss, False, confirmed_wrongly),
                (confirm, True, dismissed_wrongly),
            ):
                verdict = self.ask(question, pair)
                if verdict is None or verdict.yes != right:
                    wrong = error if verdict is not None else "could not answer a control pair"
                    break
            if wrong and wrong not in self.stats.distrust:
                self.stats.distrust.append(wrong)
            self._trusted[question] = not wrong
        return self._trusted[question]

    def ask(
        self,
        question: Question,
        statements: Sequence[str],
        about: str = "",
        *,
        fact: str = "",
        new: bool = True,
    ) -> Verdict | None:
        """The model's verdict on `statements` (None: it could not be had — the stats say
        why); `fact`: what the offline readers know of them, given as a fact the model may
        not overrule; `new`: ask the model if no answer is kept (else None)."""
        shown = [_cut(" ".join(s.split())) for s in statements]
        key = _key(self.model, QUESTIONS[question][0], f"{about}\0{fact}" if fact else about, shown)
        kept = self._kept.get(key)
        if kept is not None:
            self.stats.kept += 1
            return kept
        if not new:
            return None
        asked, confirms, dismisses = QUESTIONS[question]
        prompt = asked + (f" They are about {about}." if about else "")
        if fact:
            prompt += f" A fact you may not overrule: {fact}."
        prompt += (
            f'\nAnswer {{"reason": "<one short line>", "verdict": "{confirms}" or "{dismisses}"}}.'
        )
        listed = "\n".join(f"{i + 1}. {s}" for i, s in enumerate(shown))
        started = self._clock()
        try:
            if self._provider is None:
                make = self._make or make_provider
                self._provider = make(self.settings, MAX_TOKENS)
            reply = self._provider.complete(
                SYSTEM_PROMPT,
                [UserMessage(f"{prompt}\n\nStatements:\n{listed}")],
                [],
                cancel=self._cancel,
            )
        except ProviderError as error:
            self._failed(error.message)
            return None
        finally:
            self.stats.seconds += self._clock() - started
        self.stats.asked += 1
        self.stats.input_tokens += reply.usage.input_tokens
        self.stats.output_tokens += reply.usage.output_tokens
        answer = next(
            (a for v in json_values_in(reply.text) if (a := JudgeAnswer.read(v)) is not None),
            None,
        )
        verdict = " ".join(answer.verdict.lower().split()) if answer is not None else ""
        if answer is None or verdict not in (confirms, dismisses):
            self._failed(f"an answer that is no verdict: {' '.join(reply.text.split())[:120]!r}")
            return None
        reason = " ".join(answer.reason.split())[:300]
        judged = Verdict(verdict == confirms, reason, reply.served_model or self.model)
        self._kept.put(key, judged)
        return judged

    def _failed(self, problem: str) -> None:
        self.stats.failed += 1
        if problem not in self.stats.problems:
            self.stats.problems.append(problem)

    def close(self) -> None:
        """Keep what was answered, and close the connection."""
        self._kept.save()
        close = getattr(self._provider, "close", None)
        if close is not None:
            close()

    def note(self) -> str:
        """What judging did, in words ("" when nothing was put to the model)."""
        stats = self.stats
        if not (stats.asked or stats.kept or stats.failed or stats.unasked):
            return ""
        said = f"Judged by {self.model}: {stats.asked} asked, {stats.kept} answered before"
        if stats.wider:
            said += (
                f"; of {plural(stats.wider, 'pair')} the offline engine did not confirm, "
                f"{stats.confirmed} confirmed"
            )
        if stats.distrust:
            them = "it" if stats.standing == 1 else "them"
            parts = []
            if stats.standing:
                parts.append(
                    f"its dismissals were not used ({plural(stats.standing, 'finding')} as the "
                    f"offline engine judged {them})"
                )
            if stats.untrusted:
                parts.append(
                    f"{plural(stats.unasked, 'pair')} the offline engine did not confirm left "
                    "unasked"
                )
            said += (
                f"; {', and '.join(parts)}: the model {' and '.join(stats.distrust)} (a control "
                "pair every judge answers alike)"
            )
        if stats.unasked and not stats.untrusted:
            said += (
                f"; {plural(stats.unasked, 'pair')} left unasked (at most {MAX_QUESTIONS} new "
                "questions a run: the next run asks them)"
            )
        if (stats.wider or stats.unasked) and stats.asked:
            said += (
                f"; {plural(stats.asked, 'question')} took {stats.seconds:.0f} s, "
                f"{stats.input_tokens:,} tokens in and {stats.output_tokens:,} out"
            )
        if stats.failed:
            said += (
                f"; {stats.failed} not judged (the offline engine's finding stands): "
                + "; ".join(stats.problems[:3])
            )
        return said + "."


def _cut(text: str) -> str:
    return text if len(text) <= MAX_STATEMENT else text[: MAX_STATEMENT - 1] + "…"


def _key(model: str, question: str, about: str, statements: Sequence[str]) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    for part in (model, question, about, *sorted(statements)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.digest()


class JudgedQuestions:
    """The model's answers, by question and content, between runs: `(version, "<home
    path>", "judged", (key…), (yes…), (reason…), (model…))` in the trust caches' format
    (`per_file.memo_of`), the newest `MAX_KEPT`; a file not of that shape is none."""

    ENGINE = "judged"

    def __init__(self, home: Home) -> None:
        self.memo = memo_of(home, self.ENGINE)
        self._home = str(home.root)
        self._answers: dict[bytes, Verdict] | None = None
        self._changed = False

    def _load(self) -> dict[bytes, Verdict]:
        if self._answers is None:
            self._answers = self.memo.read_sealed(MAGIC, self._read) or {}
        return self._answers

    def _read(self, held: tuple[Any, ...]) -> dict[bytes, Verdict]:
        if len(held) != 7:
            raise ValueError("not the shape written")
        version, home, engine, keys, answers, reasons, models = held
        if (version, home, engine) != (CACHE_VERSION, self._home, self.ENGINE):
            return {}
        if not (only(bytes, keys) and only(bool, answers) and only(str, reasons)):
            raise TypeError("not the types written")
        if not only(str, models) or not len(keys) == len(answers) == len(reasons) == len(models):
            raise TypeError("not the types written")
        if any(len(key) != 16 for key in keys) or not all(models):
            raise ValueError("not a question's key, or no model")
        return {
            key: Verdict(yes, reason, model)
            for key, yes, reason, model in zip(keys, answers, reasons, models, strict=True)
        }

    def get(self, key: bytes) -> Verdict | None:
        return self._load().get(key)

    def put(self, key: bytes, verdict: Verdict) -> None:
        answers = self._load()
        answers.pop(key, None)
        answers[key] = verdict
        self._changed = True

    def save(self) -> None:
        if not self._changed:
            return
        kept = list(self._load().items())[-MAX_KEPT:]
        self.memo.write_sealed(
            MAGIC,
            (
                CACHE_VERSION,
                self._home,
                self.ENGINE,
                tuple(key for key, _ in kept),
                tuple(v.yes for _, v in kept),
                tuple(v.reason for _, v in kept),
                tuple(v.model for _, v in kept),
            ),
        )
        self._changed = False


def judge_duplicates(
    report: DuplicatesReport,
    judge: ModelJudge,
    said: Mapping[str, Sequence[str]],
    wider: Sequence[Candidate] = (),
) -> DuplicatesReport:
    """`report` with each group the words found put to the model (`said`: a `reworded`
    group's memories' content by its key; a `rule` group's are its members' lines), then
    the `wider` net's pairs (`wider_duplicates`): those it confirms are shown, judged by it."""
    shown: list[DuplicateGroup] = []
    dismissed: list[DuplicateGroup] = []
    trusted = _trusted(judge, "same", sum(group.kind != "copy" for group in report.groups))
    for group in report.groups:
        statements = said.get(group.key) or [m.text for m in group.members if m.text]
        verdict = judge.ask("same", statements) if trusted and group.kind != "copy" else None
        if verdict is None:
            shown.append(group)
            continue
        judged = group.replaced(judged_by=verdict.model, reason=verdict.reason)
        (shown if verdict.yes else dismissed).append(judged)
    shown += [judged_duplicates(*found) for found in _put(judge, SAME, wider)]
    return report.replaced(groups=tuple(shown), dismissed=tuple(dismissed), judged=judge.note())


def judge_contradictions(
    report: ContradictionsReport,
    judge: ModelJudge,
    wider: Sequence[Candidate] = (),
    made: Callable[[Sequence[tuple[Document, Claim]]], Contradiction] | None = None,
) -> ContradictionsReport:
    """`report` with each contradiction put to the model: its sides' newest lines; then the
    `wider` net's pairs (`wider_contradictions`), each it confirms shown as `made` makes it
    (`ContradictionsEngine.contradiction_of`), judged by it."""
    shown: list[Contradiction] = []
    dismissed: list[Contradiction] = []
    trusted = _trusted(judge, "contradict", len(report.contradictions))
    for found in report.contradictions:
        sides = (found.first, found.second, *found.others)
        texts = [side.place.text.strip() for side in sides]
        verdict = judge.ask("contradict", texts, found.about) if trusted else None
        if verdict is None:
            shown.append(found)
            continue
        judged = found.replaced(judged_by=verdict.model, reason=verdict.reason)
        (shown if verdict.yes else dismissed).append(judged)
    if made is not None:
        for candidate, verdict in _put(judge, CONTRADICTS, wider):
            one, other = claims_of(candidate)
            found = made([(candidate.one.document, one), (candidate.other.document, other)])
            shown.append(found.replaced(judged_by=verdict.model, reason=verdict.reason))
    return report.replaced(
        contradictions=tuple(shown), dismissed=tuple(dismissed), judged=judge.note()
    )


def _trusted(judge: ModelJudge, question: Question, findings: int) -> bool:
    """Whether the model may judge the offline engines' `findings` (none: nothing to ask): a
    model that fails `question`'s controls does not, its findings counted as standing."""
    if not findings:
        return False
    if judge.trusts(question):
        return True
    judge.stats.standing += findings
    return False


def wider_duplicates(
    report: DuplicatesReport, read: Sequence[tuple[Document, Sequence[Statement]]]
) -> list[Candidate]:
    """The wider net of `memtab duplicates` (`trust.wider`): statements no group of `report`
    holds together, that the offline readers know nothing against."""
    together = Together([group.members for group in (*report.groups, *report.dismissed)])
    return [c for c in candidates(read, apart=together.side_by_side) if not c.disagree]


def wider_contradictions(
    report: ContradictionsReport, documents: Sequence[Document]
) -> list[Candidate]:
    """The wider net of `memtab contradictions` (`trust.wider`): statements of memories a
    session sees together, no contradiction of `report` between them, that the offline
    readers know disagree — claims of different values, opposite rules about an action
    sharing `OPPOSED_SHARED` words — nothing else is asked."""
    together = Together(
        [
            [place for side in (found.first, found.second, *found.others) for place in side.places]
            for found in (*report.contradictions, *report.dismissed)
        ]
    )
    found = candidates(
        ((d, sentences_of(d)) for d in documents),
        apart=lambda one, other: (
            not seen_together(one.document, other.document) or together.side_by_side(one, other)
        ),
    )
    return [
        c
        for c in found
        if c.how == "value"
        or (c.how == "polarity" and opposed_rules(c.one, c.other, OPPOSED_SHARED) is not None)
    ]


Asked = Sequence[tuple[Question, bool]]
"""The questions a pair of the wider net is put to, each with the answer (yes or no) that
confirms it: the pair is confirmed when every one does, the first's reason shown."""
SAME: Asked = (("same-statement", True), ("differ-statement", False))
"""A duplicate is the same (yes) and says nothing the other does not (no): a small model
says "same" too easily, and rarely errs both ways on one pair."""
CONTRADICTS: Asked = (("contradict-statement", True),)
_OF_FINDINGS: dict[Question, Question] = {
    "same-statement": "same",
    "contradict-statement": "contradict",
}
"""The question findings are put to, whose controls a model must pass too before it is asked
the wider net: one that fails either is not trusted to add findings (precision first)."""


def _put(
    judge: ModelJudge, asked: Asked, wider: Sequence[Candidate]
) -> list[tuple[Candidate, Verdict]]:
    """The pairs the model confirms (`Asked`), most alike first, at most `MAX_QUESTIONS` new
    questions (a pair left unasked is counted in `judge.stats.unasked`, never confirmed);
    none of a model that fails its question's or its findings' question's `CONTROLS`."""
    stats = judge.stats
    if not wider:
        return []
    question = asked[0][0]
    if not (judge.trusts(_OF_FINDINGS[question]) and judge.trusts(question)):
        stats.unasked += len(wider)
        stats.untrusted = True
        return []
    start = stats.asked
    confirmed = []
    for candidate in wider:
        statements = [as_shown(candidate.one), as_shown(candidate.other)]
        verdicts: list[Verdict] = []
        for question, confirms in asked:
            new = stats.asked - start < MAX_QUESTIONS and stats.failed < MAX_FAILED
            verdict = judge.ask(question, statements, fact=candidate.disagree, new=new)
            if verdict is None:
                stats.unasked += not new
                break
            verdicts.append(verdict)
            if verdict.yes != confirms:
                break
        else:
            stats.wider += 1
            stats.confirmed += 1
            confirmed.append((candidate, verdicts[0]))
            continue
        stats.wider += bool(verdicts) and verdicts[-1].yes != asked[len(verdicts) - 1][1]
    return confirmed


def judged_duplicates(candidate: Candidate, verdict: Verdict) -> DuplicateGroup:
    """A pair of the wider net the model confirmed, as a `rule` group it judged."""
    places = places_of(candidate)
    wheres = sorted({where_in_words(place) for place in places})
    where = f"in {listed(wheres)}" if len(wheres) > 1 else f"twice in {wheres[0]}"
    return DuplicateGroup(
        kind="rule",
        similarity=candidate.similarity,
        why=f"The same statement in other words {where}, as the model judged it",
        members=places,
        key=group_key(places, [candidate.one.text, candidate.other.text]),
        judged_by=verdict.model,
        reason=verdict.reason,
    )
