"""A run sized to its time on a model server on this machine (docs/formats.md §9.1 and §10.2,
"Time"; the dream's and the writer's):
from the speed its server's runs are planned at (`llm.speed.stepped`) and the run's limit,
how many files the run is given, how much of each tool result the model is shown, how long
each reply may be and whether another request fits — so that the run ends within its limit
with what it did and what it left for the next run, not with a timeout. The plan spends the
time its own requests take at that speed, never the clock's: what the model is asked is a
function of the input and the settings, and the same session gets the same requests however
loaded the machine is. The clock only stops a run, between requests, that a far slower
machine than planned would take past its limit."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from memtab.fs.clock import Clock
from memtab.llm.local_servers import (
    PROBE_MOST_S,
    ServedContext,
    holds_prompt,
    probe_speed,
    server_busy,
)
from memtab.llm.settings_model import is_local
from memtab.llm.speed import (
    BUSY_SLOWDOWN,
    Speed,
    known_speed,
    measured_speed,
    remember_speed,
    stepped,
)
from memtab.llm.types import (
    AssistantMessage,
    Cancel,
    ChatProvider,
    Message,
    ModelReply,
    ProviderWrapper,
    Timings,
    ToolSpec,
    UserMessage,
)

SAFETY_SHARE = 0.1
"""Of the run's limit, kept free: what no plan of a step spends."""
CALL_TOKENS = 64
"""What a reply calling the tool once (a view) writes, about (Qwen2.5-Coder-1.5B's view
calls, written as indented JSON: 41–52 tokens)."""
CHANGE_TOKENS = 160
"""What a reply making one change (a `str_replace` of a line or two) writes, about: time
kept for it after the reading."""
MIN_REPLY_TOKENS = CALL_TOKENS  # a call cut short is asked again: no time gained
MIN_RESULT_TOKENS = 64
"""Less room than this for a result shows none of it."""
ASCII_PER_TOKEN = 3.0
OTHER_PER_TOKEN = 1.0
BYTES_PER_TOKEN = 2.9
"""Characters (ASCII, other) and bytes of a file's view a token holds, about: Qwen2.5's
tokenizer on the three fixture stores' views, their line numbers counted (28,745 tokens;
English Markdown 3.0 characters a token, Hangul 1.0, JSON 2.1–2.7)."""
PROBED = ("Ollama", "llama.cpp server")
"""The servers whose speed a run asks (`probe_speed`) when none is known: once, the runs'
replies keeping it after (a probe's short prompt reads slower than a run's)."""
BUSY_POLL_S = 2.0
"""How often a run waiting for a busy server asks it again."""
BUSY_WAIT_SHARE = 0.5
"""Of a run's limit, the most it waits before its first request for a server busy with an
earlier one (another run's, or a request whose client gave up: a one-thread llama.cpp server
went on reading such a prompt for 13–20 minutes); the rest is the run's own."""
BUSY = "the model server is busy with an earlier request"
Pause = Callable[[float], object]
"""Waits the seconds given; a true answer (`threading.Event.wait`'s) says the run was cancelled."""
NO_TIME = (
    "[Not shown: this run has no time left to read more on this machine (its limit is "
    "{limit:g} s); {what} left for the next run. Make the changes you have found, then reply "
    "with your one-line summary.]"
)


def estimated_tokens(text: str) -> int:
    """The tokens a model reads in `text`, about."""
    other = sum(1 for character in text if ord(character) > 127)
    return math.ceil((len(text) - other) / ASCII_PER_TOKEN + other / OTHER_PER_TOKEN)


def instruction_tokens(system: str, tools: Sequence[ToolSpec]) -> int:
    """The tokens of a request's instructions, about: its system prompt and its tools."""
    described = (f"{t.name} {t.description} {json.dumps(t.input_schema)}" for t in tools)
    return estimated_tokens(" ".join((system, *described)))


def unread_instructions(provider: ChatProvider, system: str, tools: Sequence[ToolSpec]) -> int:
    """The instructions' tokens a run's first request makes its server read: none when a
    llama.cpp server holds them from an earlier run (`holds_prompt`), all of them on a cold
    server or one that does not say."""
    base_url = getattr(provider, "base_url", None)
    if isinstance(base_url, str) and holds_prompt(base_url, system):
        return 0
    return instruction_tokens(system, tools)


def file_tokens(size_bytes: int) -> int:
    """The tokens a view of a file of `size_bytes` shows, about."""
    return math.ceil(size_bytes / BYTES_PER_TOKEN)


def most_that_fit(fits: Callable[[int], bool], least: int, most: int) -> int:
    """The largest count from `least` to `most` that `fits`, whose cost grows with the count
    (`least` when none does)."""
    low, high = least, most
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if fits(middle) else (low, middle - 1)
    return low


def _message_text(message: Message) -> str:
    if isinstance(message, UserMessage):
        return message.text
    if isinstance(message, AssistantMessage):
        calls = (
            f"{call.name} {call.raw_arguments or call.arguments}" for call in message.tool_calls
        )
        return " ".join((message.text, *calls))
    return " ".join(result.content for result in message.results)


def wait_while_busy(base_url: str, until: float, now: Callable[[], float], pause: Pause) -> bool:
    """Wait, asking again every `BUSY_POLL_S`, while the server at `base_url` is busy
    (`server_busy`), at most until `until` by `now`: True when it is free or does not say,
    False when it is still busy then (or `pause` said the run was cancelled)."""
    while server_busy(base_url):
        left = until - now()
        if left <= 0 or pause(min(BUSY_POLL_S, left)) is True:
            return False
    return True


class RunPace:
    """The time of one run (`limit_s`, from now), planned at the speed its server's runs are
    (`known`, a `stepped` speed; lower only when this run's replies measure below it): the
    tokens its requests read and wrote, at that speed, spend a budget — the limit less its
    safety share and any wait for a busy server. Without a speed it sizes nothing."""

    def __init__(
        self,
        limit_s: float,
        known: Speed | None,
        *,
        now: Callable[[], float],
        started: float | None = None,
        pause: Pause = time.sleep,
    ) -> None:
        """`now`: the run's clock in seconds; `started`: when the run began by it (None: now);
        `pause`: how the run waits for a busy server."""
        self.limit_s = limit_s
        self.known = known
        self._now = now
        begun = now() if started is None else started
        self._deadline = begun + limit_s
        self._planned_end = begun + limit_s * (1 - SAFETY_SHARE)
        self.budget_s = limit_s * (1 - SAFETY_SHARE)
        """The seconds the plan spends: less any wait for a busy server before the run."""
        self.read_tokens = 0
        self.written_tokens = 0
        """What the requests asked so far read (new to the server) and wrote."""
        self.timings: list[Timings] = []
        self.pending = 0
        """Tokens the next request adds that the server has not read (the last reply's calls
        and this step's results)."""
        self.cut = False
        self.pause = pause
        self.busy = False
        """The server was still busy with an earlier request when the run had to ask."""
        self.unmeasured = False
        """The server's speed was probed and it did not answer in time: nothing is sized."""

    @property
    def measured(self) -> Speed | None:
        """The server's speed: as this run's replies show it, else as its runs are planned."""
        return measured_speed(self.timings, self.known)

    @property
    def step(self) -> Speed | None:
        """The step the run plans at: its server's, held while this run's replies measure
        within its band (`stepped`), else the lower step of what they measured — never a
        higher one within a run, whose plan was made at the start."""
        own = measured_speed(self.timings, self.known) if self.timings else None
        if own is None:
            return self.known
        lower = stepped(own, self.known)
        if self.known is None:
            return lower
        return Speed(
            min(self.known.prompt_per_s, lower.prompt_per_s),
            min(self.known.output_per_s, lower.output_per_s),
        )

    @property
    def speed(self) -> Speed | None:
        """The speed the run plans at: its step over `BUSY_SLOWDOWN`."""
        step = self.step
        if step is None:
            return None
        return Speed(step.prompt_per_s / BUSY_SLOWDOWN, step.output_per_s / BUSY_SLOWDOWN)

    def left_s(self) -> float:
        """Seconds of the plan left: its budget less what the requests asked so far take at
        its speed — no less than they took while the machine kept to its step's band. Once
        the run's replies measured the machine slower than that, the plan no longer holds
        and the clock says what is left (its safety share kept)."""
        speed = self.speed
        if speed is None:
            return self.budget_s
        if self.known is not None and self.step != self.known:
            return self._planned_end - self._now()
        return self.budget_s - speed.seconds(self.read_tokens, self.written_tokens)

    def clock_left_s(self) -> float:
        """Seconds by the clock before the run's limit."""
        return self._deadline - self._now()

    def observe(self, reply: ModelReply, prompt_tokens: int = 0) -> None:
        """A reply came to a request of `prompt_tokens` new tokens: what it read and wrote is
        spent, what it took measures the server; its calls are what the next request adds."""
        written = reply.usage.output_tokens
        if not written and reply.timings is not None:
            written = reply.timings.output_tokens
        self.read_tokens += prompt_tokens
        self.written_tokens += written
        if reply.timings is not None:
            self.timings.append(reply.timings)
        self.pending = estimated_tokens(_message_text(reply.as_message()))

    def reads_whole(self, first_request: int, file_tokens: Sequence[int]) -> bool:
        """Whether the run has time to read every one of the files: its first request
        listing them (`first_request` tokens, with the instructions a cold server reads), a
        view of each and one change after. True when the speed is not known: nothing can
        be sized."""
        speed = self.speed
        if speed is None:
            return True
        reading = sum(speed.seconds(tokens, CALL_TOKENS) for tokens in file_tokens)
        after = speed.seconds(0, CALL_TOKENS + CHANGE_TOKENS)
        return speed.seconds(first_request, 0) + reading + after <= self.left_s()

    def most_asked(
        self, request_tokens: Callable[[int], int], reply_tokens: Callable[[int], int], most: int
    ) -> int:
        """How many of `most` proposals, in order, one request may show for the model to
        judge (`request_tokens(count)` new tokens, `reply_tokens(count)` written) in the
        time left: from 0 (not one fits) to `most` (all of them, or no speed known)."""
        if self.speed is None:
            return most
        return most_that_fit(
            lambda count: self.fits(request_tokens(count), reply_tokens(count)), 0, most
        )

    def fits(self, prompt_tokens: int, reply_tokens: int) -> bool:
        """Whether a request of `prompt_tokens` new tokens and its reply of `reply_tokens`
        end in the time left (False when the speed is not known: nothing can be sized)."""
        speed = self.speed
        return speed is not None and speed.seconds(prompt_tokens, reply_tokens) <= self.left_s()

    def may_ask(self, prompt_tokens: int) -> bool:
        """Whether a request of `prompt_tokens` new tokens gets a reply in the plan's time
        left, and by the clock at the speed this run measured (a machine far slower than
        planned stops the run here, between requests)."""
        speed, measured = self.speed, self.measured
        if speed is None or measured is None:
            return True
        planned = speed.seconds(prompt_tokens, MIN_REPLY_TOKENS) <= self.left_s()
        return planned and (
            measured.seconds(prompt_tokens, MIN_REPLY_TOKENS) <= self.clock_left_s()
        )

    def free_for(self, base_url: str, prompt_tokens: int) -> bool:
        """Whether the server at `base_url` is free for a request of `prompt_tokens` new
        tokens: it waits while the server is busy with an earlier request and the request
        still fits the time left (`busy` says when it did not)."""
        while server_busy(base_url):
            if self.clock_left_s() <= 0 or not self.may_ask(prompt_tokens):
                self.busy = True
                return False
            if self.pause(min(BUSY_POLL_S, max(self.clock_left_s(), 0.0))) is True:
                return False
        return True

    def reply_cap(self, prompt_tokens: int) -> int | None:
        """The most tokens the reply to a request of `prompt_tokens` new tokens may write in
        the time left (None: no speed known)."""
        speed = self.speed
        if speed is None:
            return None
        writing_s = self.left_s() - speed.seconds(prompt_tokens, 0)
        return max(int(writing_s * speed.output_per_s), MIN_REPLY_TOKENS)

    def _room(self, speed: Speed, reply_tokens: int) -> int:
        """The tokens of results the time left reads, a reply of `reply_tokens` written after."""
        reading_s = self.left_s() - speed.seconds(0, reply_tokens)
        return int(reading_s * speed.prompt_per_s) - self.pending

    def fitted(self, output: str, command: object, path: object) -> str:
        """A tool result as the model is shown it: a view whole when the time left reads it
        and still leaves time for a change (when no change fits, for a one-line reply: what
        is read is not left for the next run), else cut at a line, saying that the rest is
        left for the next run."""
        speed = self.speed
        tokens = estimated_tokens(output)
        if speed is None or command != "view":  # a change's answer is short, and always shown
            self.pending += tokens
            return output
        room = self._room(speed, CHANGE_TOKENS)
        if room < MIN_RESULT_TOKENS:  # no time to write a change: still to read, and say so
            room = self._room(speed, MIN_REPLY_TOKENS)
        if tokens <= room:
            self.pending += tokens
            return output
        self.cut = True
        lines = output.split("\n")
        kept: list[str] = []
        used = 0
        for line in lines:
            cost = estimated_tokens(line) + 1
            if used + cost > room - MIN_RESULT_TOKENS:
                break
            kept.append(line)
            used += cost
        if not kept:
            what = f"{path} is" if isinstance(path, str) else "it is"
        else:
            other = len(lines) - len(kept)
            what = f"its other {other} lines are" if other != 1 else "its other line is"
        note = NO_TIME.format(limit=self.limit_s, what=what)
        self.pending += used + estimated_tokens(note)
        return "\n".join([*kept, note])


class Paced(ProviderWrapper):
    """Each request of a run given the reply limit its time holds (`RunPace.reply_cap`), set
    on the provider that sends it when it has one; each reply measures the server."""

    def __init__(
        self,
        provider: ChatProvider,
        sender: Any,
        pace: RunPace,
        *,
        instructions: int = 0,
        fresh: bool = False,
    ) -> None:
        """`instructions`: the tokens of the system prompt and tools the server has not
        read (a cold server's; 0: it keeps them from the last run), counted in the first
        request; `fresh`: each request is read whole (`ModelJob.fresh_prompt`)."""
        super().__init__(provider)
        self.pace = pace
        self._sender = sender
        configured = getattr(sender, "max_tokens", None)
        self._configured = configured if isinstance(configured, int) else None
        self._sent = 0
        self._instructions = instructions
        self._fresh = fresh

    def new_tokens(self, messages: list[Message]) -> int:
        """What a request of `messages` adds that the server has not read, about."""
        unread = messages if self._fresh else messages[self._sent :]
        uncached = self._instructions if self._fresh or self._sent == 0 else 0
        return uncached + estimated_tokens(" ".join(_message_text(m) for m in unread))

    def may_ask(self, messages: list[Message]) -> bool:
        """The tool loop's question before each step (`run_tool_loop`'s `may_ask`). A run's
        first request is asked whatever its cold server's instructions cost: a server that
        keeps them reads them once, and a run that never asked would leave it cold for ever.
        A server busy with an earlier request is waited for while the request still fits."""
        tokens = self.new_tokens(messages)
        if self._sent == 0 and not self._fresh:
            tokens -= self._instructions
        base_url = getattr(self._sender, "base_url", None)
        if isinstance(base_url, str) and not self.pace.free_for(base_url, tokens):
            return False
        return self.pace.may_ask(tokens)

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        tokens = self.new_tokens(messages)
        cap = self.pace.reply_cap(tokens)
        if cap is not None and self._configured is not None:
            self._sender.max_tokens = min(self._configured, cap)
        self._sent = len(messages)
        reply = self.provider.complete(system, messages, tools, cancel=cancel)
        self.pace.observe(reply, tokens)
        return reply


def probe_seconds(limit_s: float) -> float:
    """The longest a run of `limit_s` waits for its speed probe: a tenth of it, at most
    `PROBE_MOST_S`."""
    return min(limit_s / 10, PROBE_MOST_S)


def pace_of(
    provider: ChatProvider,
    limit_s: float,
    served: ServedContext | None,
    clock: Clock,
    pause: Pause = time.sleep,
) -> RunPace | None:
    """The pace of a run on `provider` starting now, when its server is on this machine (a
    cloud model is not sized): at the speed its runs are planned at there, or probed now
    (Ollama, a llama.cpp server) when none is known (`llm.local_servers.probe_speed`). A
    server busy with an earlier request is waited for first, at most `BUSY_WAIT_SHARE` of
    the limit (`pause` waits, the wait taken from the plan's budget; the pace's `busy` says
    it still was). Its time is `clock`'s, the run's (a test's drives it)."""
    started = clock() / 1000
    base_url = getattr(provider, "base_url", None)
    if not isinstance(base_url, str) or not is_local(base_url):
        return None

    def now() -> float:
        return clock() / 1000

    pace = RunPace(limit_s, None, now=now, started=started, pause=pause)
    waited = 0.0

    def waiting(seconds: float) -> object:
        nonlocal waited
        waited += seconds
        return pause(seconds)

    free = wait_while_busy(base_url, started + limit_s * BUSY_WAIT_SHARE, now, waiting)
    pace.budget_s -= waited
    if not free:
        pace.busy = True
        return pace  # a probe now would wait behind the earlier request
    kept = known_speed(base_url, provider.model)
    if kept is not None:
        pace.known = stepped(Speed(kept.prompt_per_s, kept.output_per_s))
    elif served is not None and served.server in PROBED:
        timings = probe_speed(
            base_url, provider.model, nonce=clock(), timeout=probe_seconds(limit_s)
        )
        probed = measured_speed([timings]) if timings is not None else None
        if probed is not None:
            pace.known = stepped(probed)
            remember_speed(base_url, provider.model, pace.known, at_ms=clock())
        else:
            pace.unmeasured = True
    return pace


def remember_run_speed(provider: ChatProvider, pace: RunPace, clock: Clock) -> None:
    """Keep the speed the next runs are planned at, `stepped` from the run's own (a step
    held while the machine's load moves its measure within `HOLD_RATIO`), when its replies
    measured anything."""
    base_url = getattr(provider, "base_url", None)
    speed = measured_speed(pace.timings, pace.known) if pace.timings else None
    if isinstance(base_url, str) and speed is not None:
        remember_speed(base_url, provider.model, stepped(speed, pace.known), at_ms=clock())
