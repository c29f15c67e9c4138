"""How fast a model server on this machine reads a prompt and writes a reply, as its replies
say (llama.cpp's `timings`, Ollama's durations), kept per server and model in a private
cache file that each run's replies refresh (docs/formats.md §13, served speed)."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from memtab.fs.clock import now_ms
from memtab.fs.config.config_dir import cache_dir
from memtab.fs.jsonfile import JsonError, finite_number, parse_json
from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.memo import Memo
from memtab.fs.private import private_dir
from memtab.fs.records import Record, ValidItems
from memtab.llm.types import Timings

logger = logging.getLogger(__name__)

SPEEDS_FILE: Final = "model-speeds-v1.json"
SPEEDS_VERSION: Final = 1
MAX_SPEEDS_BYTES = 64 * 1024
MAX_KEPT = 32
"""Servers and models remembered, the most recently measured kept."""
MIN_PROMPT_TOKENS = 32
MIN_OUTPUT_TOKENS = 8
"""Fewer tokens than these in a run's replies measure nothing: a server's fixed cost per
request outweighs them."""
MOST_TOKENS = 10_000_000
MOST_SECONDS = 24 * 3600.0
SLOWEST = 0.01
FASTEST = 1_000_000.0
"""Tokens a second a server can be said to read or write; a figure outside is no measure."""
LOCK_WAIT_S = 2.0
_NANOSECONDS = 1e9
BUSY_SLOWDOWN = 1.6
"""How much slower than its step a busy machine may read and write: a run plans at its step
over this (this shared 2-core machine read 3.4–11 tokens a second within an hour,
Qwen2.5-Coder-1.5B on one thread, and a step read at 7 took twice as long as planned)."""
HOLD_RATIO = 4.0
"""A server's runs are planned at a step of a ladder (`step_of`), kept while what its runs
measure stays from the step over `BUSY_SLOWDOWN` (what the plan holds time for) to this many
times it: this 2-core machine's one-thread server read 3.9–46.6 tokens a second within an hour
as its load changed, and a plan that followed each measure gave one session different notes."""


@dataclass(frozen=True)
class Speed:
    """Tokens a second a server reads of a prompt and writes of a reply."""

    prompt_per_s: float
    output_per_s: float

    def seconds(self, prompt_tokens: float, output_tokens: float) -> float:
        """How long reading `prompt_tokens` and writing `output_tokens` takes."""
        return max(prompt_tokens, 0) / self.prompt_per_s + max(output_tokens, 0) / self.output_per_s


def _count(value: object) -> int | None:
    number = finite_number(value)
    if number is None or not 0 <= number <= MOST_TOKENS:
        return None
    return int(number)


def _seconds(value: object, per_second: float) -> float | None:
    number = finite_number(value)
    if number is None or not 0 <= number / per_second <= MOST_SECONDS:
        return None
    return number / per_second


def timings_of(payload: Mapping[str, Any]) -> Timings | None:
    """What a reply says it took: llama.cpp's `timings` (`prompt_n`, `prompt_ms`,
    `predicted_n`, `predicted_ms`) or Ollama's `prompt_eval_count`, `prompt_eval_duration`,
    `eval_count`, `eval_duration` (nanoseconds); None when it says neither whole."""
    llama = payload.get("timings")
    if isinstance(llama, Mapping):
        fields = (
            _count(llama.get("prompt_n")),
            _seconds(llama.get("prompt_ms"), 1000.0),
            _count(llama.get("predicted_n")),
            _seconds(llama.get("predicted_ms"), 1000.0),
        )
    else:
        fields = (
            _count(payload.get("prompt_eval_count")),
            _seconds(payload.get("prompt_eval_duration"), _NANOSECONDS),
            _count(payload.get("eval_count")),
            _seconds(payload.get("eval_duration"), _NANOSECONDS),
        )
    prompt_tokens, prompt_s, output_tokens, output_s = fields
    if prompt_tokens is None or prompt_s is None or output_tokens is None or output_s is None:
        return None
    return Timings(prompt_tokens, prompt_s, output_tokens, output_s)


def _rate(tokens: float, seconds: float, least: int) -> float | None:
    if tokens < least or seconds <= 0:
        return None
    rate = tokens / seconds
    return rate if SLOWEST <= rate <= FASTEST else None


def measured_speed(timings: Iterable[Timings], known: Speed | None = None) -> Speed | None:
    """The speed `timings` show, all their tokens over all their time; a side they show too
    few tokens of is `known`'s (None: no speed, when `known` is None too)."""
    prompt_tokens = prompt_s = output_tokens = output_s = 0.0
    for timing in timings:
        prompt_tokens += timing.prompt_tokens
        prompt_s += timing.prompt_s
        output_tokens += timing.output_tokens
        output_s += timing.output_s
    prompt = _rate(prompt_tokens, prompt_s, MIN_PROMPT_TOKENS)
    output = _rate(output_tokens, output_s, MIN_OUTPUT_TOKENS)
    if prompt is None and known is not None:
        prompt = known.prompt_per_s
    if output is None and known is not None:
        output = known.output_per_s
    if prompt is None or output is None:
        return None
    return Speed(prompt, output)


STEPS_PER_DOUBLING = 4
"""The ladder's steps (… 8, 9.5, 11.3, 13.5, 16 …): a step is at most 16 % below its measure,
so a plan at a step asks little less than one at the measure."""


def step_of(rate: float) -> float:
    """The ladder's step at or below `rate`."""
    steps = math.floor(math.log2(rate) * STEPS_PER_DOUBLING + 1e-3)  # a step is its own step
    return 2.0 ** (steps / STEPS_PER_DOUBLING)


def stepped(measured: Speed, kept: Speed | None = None) -> Speed:
    """The speed a server's runs are planned at once it measured `measured`: each side
    `kept`'s step while the measure stays from that step over `BUSY_SLOWDOWN` to `HOLD_RATIO`
    times it, else the step at or below the measure — so that the machine's load does not
    change what a run asks, and a plan is never kept that the machine no longer keeps to."""

    def side(rate: float, old: float | None) -> float:
        if old is not None and step_of(old) / BUSY_SLOWDOWN <= rate < HOLD_RATIO * step_of(old):
            return step_of(old)
        return step_of(rate)

    return Speed(
        side(measured.prompt_per_s, kept.prompt_per_s if kept is not None else None),
        side(measured.output_per_s, kept.output_per_s if kept is not None else None),
    )


class KnownSpeed(Record):
    """One server's model as its runs are planned (docs/formats.md §13): its API's address,
    the model, its speeds (`stepped`) and when they were last measured (epoch ms)."""

    server: str
    model: str
    prompt_per_s: float
    output_per_s: float
    measured_at: int


class SpeedsFile(Record):
    """The speeds cache (docs/formats.md §13, served speed): a version and the speeds."""

    version: Literal[1]
    speeds: ValidItems[tuple[KnownSpeed, ...]]


def _memo() -> Memo:
    return Memo(cache_dir() / SPEEDS_FILE, "model speeds cache", MAX_SPEEDS_BYTES, logger)


def _plausible(entry: KnownSpeed) -> bool:
    return all(
        math.isfinite(rate) and SLOWEST <= rate <= FASTEST
        for rate in (entry.prompt_per_s, entry.output_per_s)
    )


def _kept(memo: Memo) -> list[KnownSpeed]:
    data = memo.read()
    if data is None:
        return []
    try:
        document = SpeedsFile.read(parse_json(data))
    except JsonError:
        document = None
    if document is None:
        logger.info("The %s %s is not one Memtab wrote: measured anew", memo.what, memo.path)
        return []
    return [entry for entry in document.speeds if _plausible(entry)]


def known_speed(server: str, model: str) -> KnownSpeed | None:
    """What was last measured of `model` on the server at `server`, if anything."""
    return next(
        (entry for entry in _kept(_memo()) if (entry.server, entry.model) == (server, model)),
        None,
    )


def remember_speed(server: str, model: str, speed: Speed, *, at_ms: int | None = None) -> None:
    """Keep `speed` as `model`'s on the server at `server`, under the cache's lock (another
    Memtab may measure at once); a failure is logged, the run goes on."""
    memo = _memo()
    entry = KnownSpeed(
        server=server,
        model=model,
        prompt_per_s=round(speed.prompt_per_s, 6),  # a step read back is the same step
        output_per_s=round(speed.output_per_s, 6),
        measured_at=now_ms() if at_ms is None else at_ms,
    )
    try:
        lock = private_dir(memo.path.parent) / f"{SPEEDS_FILE}.lock"
        with interprocess_lock(lock, timeout_s=LOCK_WAIT_S):
            others = [e for e in _kept(memo) if (e.server, e.model) != (server, model)]
            others.sort(key=lambda e: e.measured_at, reverse=True)
            document = SpeedsFile(version=SPEEDS_VERSION, speeds=(entry, *others[: MAX_KEPT - 1]))
            memo.write(json.dumps(document.to_json(), separators=(",", ":")).encode())
    except OSError as error:  # the lock's timeout too
        logger.info("Could not keep the speed of %s at %s: %s", model, server, error)
