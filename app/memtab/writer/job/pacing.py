"""A writer run sized to its time on a model server on this machine (docs/formats.md §10.2,
"Time"), at the pace the dream plans with (`llm.pace`): the lessons task when
its request and reply fit the time left, else the judging task — the notes code proposes,
numbered, the model keeping some — with as many of them as fit, the surest first, else no
request at all. Every request counts its instructions: the writer's server reads each prompt
whole (`ModelJob.fresh_prompt`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from memtab.humanize import plural
from memtab.llm.pace import MIN_REPLY_TOKENS, RunPace, most_that_fit
from memtab.writer.offline.notes import Note

LESSONS_REPLY_TOKENS = 400
"""What a `record_lessons` call of five lessons writes, about (Qwen2.5-Coder-1.5B's: 60–80
tokens a lesson, its kind, words and quote)."""
JUDGE_REPLY_TOKENS = 24
"""What a `keep_notes` call keeping none writes (`{"name": "keep_notes", "arguments": …}`)."""
TOKENS_PER_NUMBER = 2

Task = Literal["lessons", "judge", "none"]


@dataclass(frozen=True)
class WriterPlan:
    """What a run asks: its task, the notes shown for judging (numbered from 1 in this order)
    and those left out for lack of time; `says`: why, for the run's dump and log."""

    task: Task
    proposed: tuple[Note, ...] = ()
    left_out: tuple[Note, ...] = ()
    says: str = ""


def judge_reply_tokens(count: int) -> int:
    """What a `keep_notes` reply keeping up to `count` notes writes, at most, about: no less
    than the least reply a run waits for (`Paced.may_ask`)."""
    return max(JUDGE_REPLY_TOKENS + TOKENS_PER_NUMBER * count, MIN_REPLY_TOKENS)


def plan_run(
    pace: RunPace | None,
    lessons_tokens: int,
    proposed: Sequence[Note],
    judge_tokens: Callable[[Sequence[Note]], int],
) -> WriterPlan:
    """The run's plan: `lessons_tokens`, the lessons task's request; `proposed`, the notes code
    found, surest first; `judge_tokens(notes)`, the judging request showing `notes`. Without
    a pace (not a server on this machine) or a known speed, the lessons task: nothing can be
    sized (as the dream's run)."""
    speed = pace.speed if pace is not None else None
    if pace is None or speed is None or pace.fits(lessons_tokens, LESSONS_REPLY_TOKENS):
        return WriterPlan("lessons")
    notes = tuple(proposed)
    at = f"{speed.prompt_per_s:.1f} tokens/s read, {speed.output_per_s:.1f} written"
    left = f"the {pace.left_s():.0f} s left at {at}"
    if not notes:
        return WriterPlan("none", says=f"nothing to judge: no note proposed ({left})")

    def fits(shown: int) -> bool:
        return pace.fits(judge_tokens(notes[:shown]), judge_reply_tokens(shown))

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
