"""Asking the user's model about pairs of statements, many a call, each pair once
(`trust.judging`).

`ModelJudge.verdicts` takes the pairs most likely first, answers from what was kept
(`kept.JudgedPairs`) what it can, and asks the rest in calls of at most `PAIRS_A_CALL` pairs
(`questions.asked_in_one_call`), each call holding a control pair of each verdict
(`questions.controls_of_call`) among them: a call whose controls come back wrong or unanswered
is not heard, and nothing more is asked this run. A run makes at most `CALLS_PER_FILE` calls
a memory file read (at least one); the pairs left wait for the next run, and `note` says how
many, with what the calls cost and what of the replies was refused (`replies.read_reply`).
It calls a model over the network: run it off the GUI thread.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memtab.fs.terminal_text import printable
from memtab.humanize import plural
from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.types import ChatProvider, ProviderError, UserMessage
from memtab.store.home import Home
from memtab.trust.judging.kept import JudgedPairs, Verdict
from memtab.trust.judging.questions import (
    SYSTEM_PROMPT,
    Control,
    Pair,
    asked_in_one_call,
    controls_of_call,
)
from memtab.trust.judging.replies import read_reply

CALLS_PER_FILE = 0.1
"""At most 100 model calls a run per 1,000 memory files read (at least one)."""
PAIRS_A_CALL = 20
"""At most this many pairs a call (its controls besides)."""
CHARS_A_CALL = 12_000
"""A call's statements stop growing past this many characters (notes asked whole are long)."""
TOKENS_AN_ANSWER = 40
"""The reply limit a pair of a call adds (its reason of a few words and its verdict)."""
MAX_FAILED = 2
"""After this many failed calls a run asks nothing more (the model is not answering)."""
MAX_PROBLEMS = 3
"""Problems said in the note (the rest counted)."""
MAX_MODEL_NAME = 120
"""A model's name as its server gives it is cut here (it is shown with every verdict)."""
RUNS_FOR_THE_NET = 3
"""The wider net holds what this many runs ask (`net_size`): past them a run asks only what
changed."""

ProviderFactory = Callable[[ProviderSettings, int | None], ChatProvider]


def make_provider(settings: ProviderSettings, max_tokens: int | None) -> ChatProvider:
    """The judge asks at temperature 0: the same statements get the same verdict every run
    (a sampled one made a small model pass its control pairs in one run and fail the next)."""
    return create_provider(settings, max_tokens=max_tokens, temperature=0.0)


def calls_a_run(files: int) -> int:
    """The calls a run over `files` memory files may make (`CALLS_PER_FILE`, at least one)."""
    return max(1, math.ceil(files * CALLS_PER_FILE))


def net_size(files: int) -> int:
    """The pairs of the wider net over `files` memory files: what `RUNS_FOR_THE_NET` runs ask."""
    return RUNS_FOR_THE_NET * calls_a_run(files) * PAIRS_A_CALL


@dataclass
class JudgeStats:
    """What a run of judging did and cost."""

    budget: int = 1
    """The calls this run may make."""
    calls: int = 0
    asked: int = 0
    """Pairs a call of this run answered."""
    kept: int = 0
    """Pairs answered before (kept): asked nothing."""
    waiting: int = 0
    """Pairs with no answer yet: past the budget, unanswered or refused, or after the model
    failed or was not heard."""
    confirmed: int = 0
    dismissed: int = 0
    failed: int = 0
    """Calls that failed (the connection, the server)."""
    unheard: str = ""
    """What the model got wrong of a control pair, in words: that call's answers were not
    used and nothing more was asked ("": every call's controls were right)."""
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


class ModelJudge:
    """Asks the model of `settings` about pairs of statements (see the module doc); `files`:
    the memory files read, which bound the run's calls."""

    def __init__(
        self,
        home: Home,
        settings: ProviderSettings,
        *,
        files: int = 0,
        make: ProviderFactory | None = None,
        clock: Callable[[], float] = time.perf_counter,
        cancel: threading.Event | None = None,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self._make = make or make_provider
        self._clock = clock
        self._cancel = cancel
        self._provider: ChatProvider | None = None
        self._kept = JudgedPairs(home)
        self.stats = JudgeStats(budget=calls_a_run(files))

    def verdicts(self, pairs: Sequence[Pair]) -> dict[Pair, Verdict]:
        """The verdicts on `pairs`, given most likely first: those kept, then those the run's
        calls answer, in that order; the rest wait (`JudgeStats.waiting`). A pair given twice
        (either way round) is asked once."""
        alike: dict[bytes, list[Pair]] = {}
        for pair in pairs:
            alike.setdefault(pair.key(self.model), []).append(pair)
        answered: dict[bytes, Verdict] = {}
        asking: list[tuple[bytes, Pair]] = []
        for key, same in alike.items():
            kept = self._kept.get(key)
            if kept is not None:
                answered[key] = kept
                self.stats.kept += 1
            else:
                asking.append((key, same[0]))
        start = 0
        while start < len(asking) and self._may_call():
            batch = _batch(asking, start)
            start += len(batch)
            answered.update(self._call(batch))
        self.stats.waiting += sum(key not in answered for key, _ in asking)
        return {
            pair: answered[key] for key, same in alike.items() if key in answered for pair in same
        }

    def _may_call(self) -> bool:
        stats = self.stats
        cancelled = self._cancel is not None and self._cancel.is_set()
        return (
            stats.calls < stats.budget
            and stats.failed < MAX_FAILED
            and not stats.unheard
            and not cancelled
        )

    def _call(self, batch: Sequence[tuple[bytes, Pair]]) -> dict[bytes, Verdict]:
        """One call asking `batch` (each pair by its key) with its controls: the verdicts heard,
        by key."""
        stats = self.stats
        controls = controls_of_call(stats.calls)
        listed, at = _with_controls([pair for _, pair in batch], controls)
        started = self._clock()
        try:
            if self._provider is None:
                most = (PAIRS_A_CALL + len(controls)) * TOKENS_AN_ANSWER + TOKENS_AN_ANSWER
                self._provider = self._make(self.settings, most)
            reply = self._provider.complete(
                SYSTEM_PROMPT, [UserMessage(asked_in_one_call(listed))], [], cancel=self._cancel
            )
        except ProviderError as error:
            stats.failed += 1
            self._problem(error.message)
            return {}
        finally:
            stats.seconds += self._clock() - started
            stats.calls += 1
        stats.input_tokens += reply.usage.input_tokens
        stats.output_tokens += reply.usage.output_tokens
        read = read_reply(reply.text, len(listed))
        for refused in read.refused:
            self._problem(refused)
        for control, number in zip(controls, at, strict=True):
            answer = read.answers.get(number)
            if answer is None or answer.verdict != control.verdict:
                stats.unheard = control.wrong if answer else "could not answer a control pair"
                return {}
        model = printable(reply.served_model or self.model)[:MAX_MODEL_NAME]
        keys = iter(key for key, _ in batch)
        heard: dict[bytes, Verdict] = {}
        for number in range(1, len(listed) + 1):
            if number in at:
                continue
            key = next(keys)
            answer = read.answers.get(number)
            if answer is not None:
                heard[key] = Verdict(answer.verdict, answer.reason, model)
                self._kept.put(key, heard[key])
        stats.asked += len(heard)
        return heard

    def _problem(self, problem: str) -> None:
        if problem not in self.stats.problems:
            self.stats.problems.append(problem)

    def close(self) -> None:
        """Keep what was answered, and close the connection."""
        self._kept.save()
        close = getattr(self._provider, "close", None)
        if close is not None:
            close()

    def note(self) -> str:
        """What judging did, in words ("" when no pair was put to the model)."""
        stats = self.stats
        if not (stats.calls or stats.kept or stats.waiting):
            return ""
        said = (
            f"Judged by {self.model}: {plural(stats.calls, 'call')} asked "
            f"{plural(stats.asked, 'pair')}, {stats.kept} answered before"
        )
        if stats.confirmed or stats.dismissed:
            said += f"; {stats.confirmed} confirmed, {stats.dismissed} dismissed"
        if stats.unheard:
            said += (
                f"; the model {stats.unheard} (a control pair every judge answers alike): its "
                "answers in that call were not used and nothing more was asked"
            )
        if stats.waiting:
            said += (
                f"; {plural(stats.waiting, 'pair')} wait (at most {plural(stats.budget, 'call')} "
                f"a run of {PAIRS_A_CALL} pairs: the next run asks them)"
            )
        if stats.calls:
            said += (
                f"; {plural(stats.calls, 'call')} took {stats.seconds:.0f} s, "
                f"{stats.input_tokens:,} tokens in and {stats.output_tokens:,} out"
            )
        if stats.failed:
            said += f"; {plural(stats.failed, 'call')} failed"
        if stats.problems:
            more = len(stats.problems) - MAX_PROBLEMS
            said += "; refused or failed: " + "; ".join(stats.problems[:MAX_PROBLEMS])
            said += f" (and {more} more)" if more > 0 else ""
        return said + "."


def _batch(pairs: Sequence[tuple[bytes, Pair]], start: int) -> list[tuple[bytes, Pair]]:
    """The pairs of one call from `start`: at most `PAIRS_A_CALL`, their statements within
    `CHARS_A_CALL` (one at least)."""
    batch: list[tuple[bytes, Pair]] = []
    size = 0
    for key, pair in pairs[start : start + PAIRS_A_CALL]:
        size += len(pair.one) + len(pair.other)
        if batch and size > CHARS_A_CALL:
            break
        batch.append((key, pair))
    return batch


def _with_controls(
    batch: Sequence[Pair], controls: Sequence[Control]
) -> tuple[list[Pair], list[int]]:
    """The pairs of a call with the controls spread among them, and each control's number."""
    listed = list(batch)
    at: list[int] = []
    for index, control in enumerate(controls):
        position = (index * (len(listed) + 1)) // len(controls) + index
        position = min(position, len(listed))
        listed.insert(position, control.pair)
        at.append(position + 1)
    return listed, at
