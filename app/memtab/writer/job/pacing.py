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
from memtab.llm.pace import BUSY, MIN_REPLY_TOKENS, RunPace, most_that_fit
from memtab.writer.job.rules_task import MAX_CANDIDATES, Sentence
from memtab.writer.offline.notes import Note

LESSONS_REPLY_TOKENS = 400
"""What a `record_lessons` call of five lessons writes, about (Qwen2.5-Coder-1.5B's: 60–80
tokens a lesson, its kind, words and quote)."""
JUDGE_REPLY_TOKENS = 24
"""What a `keep_notes` call keeping none writes (`{"name": "keep_notes", "arguments": …}`)."""
TOKENS_PER_NUMBER = 2
CONTROLS = 2
"""The known rule and non-rule shown among the user's sentences (`rules_task`)."""

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
    """The user's sentences shown after the notes (`rules_task`), those that fit; the rest are
    `rules_left_out`."""
    rules_left_out: tuple[Sentence, ...] = ()
    unasked: str = ""
    """Why the model could not be asked at all (its server busy, or too slow to be timed);
    the run then writes the offline notes."""


def unasked_plan(pace: RunPace, proposed: Sequence[Note], probe_s: float) -> WriterPlan | None:
    """The plan of a run whose model cannot be asked: its server still busy with an earlier
    request after the run waited, or probed for its speed without an answer in `probe_s` (a
    request sent unsized would outlast the run and keep the server reading after it); None
    when it can be asked."""
    if pace.busy:
        why = BUSY
    elif pace.unmeasured:
        why = f"the model server did not answer a short probe of its speed within {probe_s:g} s"
    else:
        return None
    return WriterPlan("none", left_out=tuple(proposed), unasked=why)  # the fallback says why


def judge_reply_tokens(count: int) -> int:
    """What a `keep_notes` reply keeping up to `count` notes writes, at most, about: no less
    than the least reply a run waits for (`Paced.may_ask`)."""
    return max(JUDGE_REPLY_TOKENS + TOKENS_PER_NUMBER * count, MIN_REPLY_TOKENS)


def plan_run(
    pace: RunPace | None,
    lessons_tokens: int,
    proposed: Sequence[Note],
    judge_tokens: Callable[[Sequence[Note], Sequence[Sentence]], int],
    candidates: Sequence[Sentence] = (),
) -> WriterPlan:
    """The run's plan: `lessons_tokens`, the lessons task's request; `proposed`, the notes code
    found, surest first; `candidates`, the user's sentences that may state a rule;
    `judge_tokens(notes, sentences)`, the judging request showing those (the sentences with
    their controls): as many notes as fit, then as many sentences as fit after them. Without
    a pace (not a server on this machine) or a known speed, the lessons task: nothing can be
    sized (as the dream's run)."""
    speed = pace.speed if pace is not None else None
    if pace is None or speed is None or pace.fits(lessons_tokens, LESSONS_REPLY_TOKENS):
        return WriterPlan("lessons")
    notes = tuple(proposed)
    at = f"{speed.prompt_per_s:.1f} tokens/s read, {speed.output_per_s:.1f} written"
    left = f"the {pace.left_s():.0f} s left at {at}"
    if not notes and not candidates:
        return WriterPlan("none", says=f"nothing to judge: no note proposed ({left})")

    def fits(shown: int, sentences: int = 0) -> bool:
        asked = judge_tokens(notes[:shown], candidates[:sentences])
        with_controls = sentences + CONTROLS if sentences else 0
        return pace.fits(asked, judge_reply_tokens(shown + with_controls))

    count = most_that_fit(fits, 0, len(notes))
    most = min(len(candidates), MAX_CANDIDATES - CONTROLS)
    rules = most_that_fit(lambda sentences: fits(count, sentences), 0, most)
    lessons = f"the lessons task (~{lessons_tokens:,} tokens to read) does not fit {left}"
    if count == 0 and rules == 0:
        return WriterPlan(
            "none",
            left_out=notes,
            says=f"not asked: {lessons}, nor one proposed note or sentence of the user's; "
            f"{plural(len(notes), 'note')} left out",
        )
    says = f"judged {count} of the {plural(len(notes), 'proposed note')}"
    if candidates:
        says += f" and {rules} of the user's {plural(len(candidates), 'sentence')}"
    rest = len(notes) - count
    says += f": {lessons}" + (f"; {plural(rest, 'less sure note')} left out" if rest else "")
    return WriterPlan(
        "judge",
        proposed=notes[:count],
        left_out=notes[count:],
        says=says,
        rules=tuple(candidates[:rules]),
        rules_left_out=tuple(candidates[rules:]),
    )
