"""A writer run sized to its time on a model server on this machine (docs/formats.md §10.2,
"Time"), at the pace the dream plans with (`llm.pace`): the lessons task when
its request and reply fit the time left, else the judging task — the notes code proposes,
numbered, the model keeping some — with as many of them as fit, the surest first, else no
request at all. Every request counts its instructions: the writer's server reads each prompt
whole (`ModelJob.fresh_prompt`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from memtab.humanize import plural
from memtab.llm.pace import MIN_REPLY_TOKENS, RunPace, most_that_fit
from memtab.llm.speed import Speed
from memtab.writer.job.rules_task import MAX_CANDIDATES, Sentence
from memtab.writer.offline.notes import Note

LESSONS_REPLY_TOKENS = 400
"""What a `record_lessons` call of five lessons writes, about (Qwen2.5-Coder-1.5B's: 60–80
tokens a lesson, its kind, words and quote)."""
JUDGE_REPLY_TOKENS = 24
"""What a `keep_notes` call keeping none writes (`{"name": "keep_notes", "arguments": …}`)."""
TOKENS_PER_NUMBER = 2
RULES_SHARE = 0.5
"""Of the time left, the most the standing-rules request may take: the rest is the judging's."""
CONTROLS = 2

Task = Literal["lessons", "judge", "none"]


@dataclass(frozen=True)
class WriterPlan:
    """What a run asks: its task, the notes shown for judging (numbered from 1 in this order)
    and those left out for lack of time; `says`: why, for the run's dump and log."""

    task: Task
    proposed: tuple[Note, ...] = ()
    left_out: tuple[Note, ...] = ()
    says: str = ""
    rules: tuple[Sentence, ...] = ()
    """The user's sentences asked about first (`rules_task`), those that fit; the rest are
    `rules_left_out`."""
    rules_left_out: tuple[Sentence, ...] = ()


def judge_reply_tokens(count: int) -> int:
    """What a `keep_notes` reply keeping up to `count` notes writes, at most, about: no less
    than the least reply a run waits for (`Paced.may_ask`)."""
    return max(JUDGE_REPLY_TOKENS + TOKENS_PER_NUMBER * count, MIN_REPLY_TOKENS)


def plan_run(
    pace: RunPace | None,
    lessons_tokens: int,
    proposed: Sequence[Note],
    judge_tokens: Callable[[Sequence[Note]], int],
    candidates: Sequence[Sentence] = (),
    rules_tokens: Callable[[Sequence[Sentence]], int] | None = None,
) -> WriterPlan:
    """The run's plan: `lessons_tokens`, the lessons task's request; `proposed`, the notes code
    found, surest first; `judge_tokens(notes)`, the judging request showing `notes`;
    `candidates`, the user's sentences that may be rules, asked about first (as many as fit
    `RULES_SHARE` of the time) when the lessons task does not fit, `rules_tokens(sentences)`
    that request. Without a pace (not a server on this machine) or a known speed, the lessons
    task: nothing can be sized (as the dream's run)."""
    speed = pace.speed if pace is not None else None
    if pace is None or speed is None or pace.fits(lessons_tokens, LESSONS_REPLY_TOKENS):
        return WriterPlan("lessons")
    rules, rules_s = _rules_that_fit(pace, speed, candidates, rules_tokens)
    plan = _judging_plan(pace, speed, lessons_tokens, proposed, judge_tokens, rules_s)
    if not candidates:
        return plan
    left = len(candidates) - len(rules)
    asked = (
        f"asked which of {plural(len(rules), 'sentence')} of the user's "
        f"{'are standing rules' if len(rules) > 1 else 'is a standing rule'}"
        if rules
        else "no time to ask which of the user's sentences are standing rules"
    )
    if left and rules:
        asked += f" ({plural(left, 'other')} left out)"
    return replace(
        plan,
        says=f"{asked}; {plan.says}",
        rules=tuple(rules),
        rules_left_out=tuple(candidates[len(rules) :]),
    )


def _rules_that_fit(
    pace: RunPace,
    speed: Speed,
    candidates: Sequence[Sentence],
    rules_tokens: Callable[[Sequence[Sentence]], int] | None,
) -> tuple[Sequence[Sentence], float]:
    """The user's sentences the standing-rules request shows (the first that fit its share of
    the time, none when not one does) and the seconds it takes."""
    if not candidates or rules_tokens is None:
        return (), 0.0
    share = pace.left_s() * RULES_SHARE

    def seconds(count: int) -> float:
        shown = count + CONTROLS
        return speed.seconds(rules_tokens(candidates[:count]), judge_reply_tokens(shown))

    most = min(len(candidates), MAX_CANDIDATES - CONTROLS)
    count = most_that_fit(lambda count: seconds(count) <= share, 0, most)
    return candidates[:count], seconds(count) if count else 0.0


def _judging_plan(
    pace: RunPace,
    speed: Speed,
    lessons_tokens: int,
    proposed: Sequence[Note],
    judge_tokens: Callable[[Sequence[Note]], int],
    reserved_s: float,
) -> WriterPlan:
    """The judging task's plan in the time left after `reserved_s` (the rules request)."""
    notes = tuple(proposed)
    at = f"{speed.prompt_per_s:.1f} tokens/s read, {speed.output_per_s:.1f} written"
    left = f"the {pace.left_s():.0f} s left at {at}"
    if not notes:
        return WriterPlan("none", says=f"nothing to judge: no note proposed ({left})")

    def fits(shown: int) -> bool:
        asked = speed.seconds(judge_tokens(notes[:shown]), judge_reply_tokens(shown))
        return reserved_s + asked <= pace.left_s()

    count = most_that_fit(fits, 0, len(notes))
    lessons = f"the lessons task (~{lessons_tokens:,} tokens to read) does not fit {left}"
    if count == 0:
        return WriterPlan(
            "none",
            left_out=notes,
            says=f"not asked: {lessons}, nor one proposed note; "
            f"{plural(len(notes), 'note')} left out",
        )
    shown = f"judged {count} of the {plural(len(notes), 'proposed note')}"
    rest = len(notes) - count
    says = f"{shown}: {lessons}" + (f"; {plural(rest, 'less sure note')} left out" if rest else "")
    return WriterPlan("judge", proposed=notes[:count], left_out=notes[count:], says=says)
