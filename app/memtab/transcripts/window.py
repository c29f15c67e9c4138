"""The writer's event budget over a transcript read as a stream, in bounded memory: exactly
`select_event_budget` over all the events, keeping only a suffix that may still be selected (an
event is dropped once certain not to fit), and the newest completed turn."""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memtab.redact import redact_json
from memtab.transcripts.budget import (
    DEFAULT_MAX_JSON_CHARS,
    EventBudget,
    check_max_json_chars,
    select_event_budget,
    select_newest,
)
from memtab.transcripts.events import (
    TranscriptEvent,
    TranscriptFormat,
    TranscriptToolCall,
    json_len,
)
from memtab.transcripts.reader import TranscriptTail

logger = logging.getLogger(__name__)

# Chars of new events between two trims (each redacts about a budget's worth to size them).
TRIM_EVERY = 8 * 1024 * 1024
# Chars the window may hold before it redacts oversized events to size (and drop) them.
MAX_WEIGHT = 16 * 1024 * 1024
# What an event costs beyond its strings (ids, keys, the objects themselves).
_EVENT_OVERHEAD = 200


class OpenEvents(Protocol):
    """What the reader knows about events later lines may still change."""

    def open_calls(self, event: TranscriptEvent) -> list[TranscriptToolCall] | None:
        """None when anything in `event.to_json()` may still change, else the calls whose
        result may ([] when final)."""

    def may_complete(self, event: TranscriptEvent) -> bool:
        """Whether `event.completed_turn` may still change."""


class _NothingOpen:
    """Events from a list: all final."""

    def open_calls(self, event: TranscriptEvent) -> list[TranscriptToolCall] | None:
        return []

    def may_complete(self, event: TranscriptEvent) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class NewestEvents:
    """What a writer run needs of a transcript: the `budget`, the `newest` event and the newest
    that completed a turn (its tool payloads may be emptied: use its ids and flags)."""

    budget: EventBudget
    newest: TranscriptEvent | None
    newest_completed_turn: TranscriptEvent | None

    @classmethod
    def of(
        cls,
        events: Sequence[TranscriptEvent],
        max_json_chars: int = DEFAULT_MAX_JSON_CHARS,
        *,
        redact: bool = False,
    ) -> NewestEvents:
        """The same, from events already in memory."""
        return cls(
            budget=select_event_budget(events, max_json_chars, redact=redact),
            newest=events[-1] if events else None,
            newest_completed_turn=next(
                (event for event in reversed(events) if _completes_turn(event)), None
            ),
        )


def _completes_turn(event: TranscriptEvent) -> bool:
    return event.role == "assistant" and event.completed_turn


def event_weight(event: TranscriptEvent) -> int:
    """About how many chars `event` holds in memory (its strings), without serializing it."""
    weight = _EVENT_OVERHEAD + len(event.text)
    for call in event.tool_calls:
        weight += len(call.output or "") + len(call.error) + _chars(call.input)
    return weight


def _chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(len(str(key)) + _chars(item) for key, item in value.items())
    if isinstance(value, list):
        return sum(_chars(item) for item in value)
    return 8


@dataclass(slots=True, eq=False)
class _Entry:
    event: TranscriptEvent
    index: int  # position in the whole stream
    weight: int
    size: int | None = None  # json_len of its item, once final and measured
    floor: int = 0  # json_len of its item without the results of its open calls
    floor_open_calls: int = 0  # how many calls were open when `floor` was measured


class BudgetWindow:
    """Feed events oldest first with `add`, then `result()`. `open_events`: what later input may
    change; `empty_dropped`: a dropped event's tool strings emptied in place."""

    def __init__(
        self,
        max_json_chars: int = DEFAULT_MAX_JSON_CHARS,
        *,
        redact: bool = False,
        open_events: OpenEvents | None = None,
        trim_every: int = TRIM_EVERY,
        max_weight: int = MAX_WEIGHT,
        empty_dropped: bool = False,
    ) -> None:
        check_max_json_chars(max_json_chars)
        self.max_json_chars = max_json_chars
        self.redact = redact
        self._open: OpenEvents = open_events if open_events is not None else _NothingOpen()
        self._trim_every = trim_every
        self._max_weight = max_weight
        self._empty_dropped = empty_dropped
        self._entries: deque[_Entry] = deque()
        self._count = 0
        self._weight = 0
        self._weight_since_trim = 0
        # Dropped events: the newest final completed turn, and those whose turn may change.
        self._dropped_completed: _Entry | None = None
        self._dropped_open: list[_Entry] = []
        self.sized_events = 0  # events serialized (and redacted) before the end, for the log

    @property
    def count(self) -> int:
        """Events added so far."""
        return self._count

    @property
    def kept(self) -> int:
        """Events the window holds now."""
        return len(self._entries)

    def add(self, event: TranscriptEvent) -> None:
        """Add the next event of the stream (chronological order)."""
        weight = event_weight(event)
        self._entries.append(_Entry(event, self._count, weight))
        self._count += 1
        self._weight += weight
        self._weight_since_trim += weight
        if self._weight_since_trim >= self._trim_every:
            self.trim()

    def trim(self) -> None:
        """Drop the events that can no longer be selected."""
        self._weight_since_trim = 0
        self._drop_unreachable(size_oversized=False)
        if self._weight > self._max_weight:
            self._drop_unreachable(size_oversized=True)
        self._settle_dropped()

    def result(self) -> NewestEvents:
        """The selection over every event added; the stream must be complete."""
        entries = list(self._entries)
        events = [entry.event for entry in entries]
        budget = select_newest(
            events,
            self._count,
            self.max_json_chars,
            redact=self.redact,
            known_sizes=[entry.size for entry in entries],
        )
        completed = next((event for event in reversed(events) if _completes_turn(event)), None)
        if completed is None:
            candidates = [e for e in self._dropped_open if _completes_turn(e.event)]
            if self._dropped_completed is not None:
                candidates.append(self._dropped_completed)
            if candidates:
                completed = max(candidates, key=lambda entry: entry.index).event
        return NewestEvents(budget, events[-1] if events else None, completed)

    def _drop_unreachable(self, *, size_oversized: bool) -> None:
        total, counted = 2, 0
        for from_newest, entry in enumerate(reversed(self._entries)):
            size = self._final_size(entry, size_oversized=size_oversized)
            if size is None:
                continue  # may still change (or not worth redacting yet): counts as zero
            total += size + (1 if counted else 0)
            counted += 1
            if total > self.max_json_chars:
                # This entry and every older one can no longer be selected.
                unreachable = len(self._entries) - from_newest
                break
        else:
            return
        for _ in range(min(unreachable, len(self._entries) - 1)):  # never the newest
            self._drop(self._entries.popleft())

    def _final_size(self, entry: _Entry, *, size_oversized: bool) -> int | None:
        """The least size the entry's item can end up with (None: not worth finding)."""
        if entry.size is not None:
            return entry.size
        if entry.weight > self.max_json_chars and not size_oversized:
            return None
        open_calls = self._open.open_calls(entry.event)
        if open_calls is None:
            return None
        if open_calls and entry.floor_open_calls == len(open_calls):
            return entry.floor  # calls only ever close: the same ones are still open
        item = entry.event.to_json()
        if open_calls:  # a result may still come or be replaced: count the rest only
            item = _without_results(item, entry.event, open_calls)
        size = json_len(redact_json(item) if self.redact else item)
        self.sized_events += 1
        if open_calls:
            entry.floor, entry.floor_open_calls = size, len(open_calls)
        else:
            entry.size = size
        return size

    def _drop(self, entry: _Entry) -> None:
        self._weight -= entry.weight
        if self._empty_dropped:
            _empty_payloads(entry.event)
        if self._open.may_complete(entry.event):
            self._dropped_open.append(entry)
        else:
            self._note_dropped_completed(entry)

    def _settle_dropped(self) -> None:
        for entry in self._dropped_open:
            if not self._open.may_complete(entry.event):
                self._note_dropped_completed(entry)
        self._dropped_open = [e for e in self._dropped_open if self._open.may_complete(e.event)]

    def _note_dropped_completed(self, entry: _Entry) -> None:
        newest = self._dropped_completed
        if _completes_turn(entry.event) and (newest is None or entry.index > newest.index):
            self._dropped_completed = entry


# The members of a call's item that only its result sets (`TranscriptToolCall.to_json`).
_RESULT_KEYS = ("output", "isError", "error", "exitCode")


def _without_results(
    item: dict[str, Any], event: TranscriptEvent, open_calls: list[TranscriptToolCall]
) -> dict[str, Any]:
    """`item` without the result members of `open_calls`: its redacted size is a floor of the
    final one."""
    open_ids = {id(call) for call in open_calls}
    calls = [
        {k: v for k, v in call_item.items() if k not in _RESULT_KEYS}
        if id(call) in open_ids
        else call_item
        for call, call_item in zip(event.tool_calls, item["toolCalls"], strict=True)
    ]
    return {**item, "toolCalls": calls}


def _empty_payloads(event: TranscriptEvent) -> None:
    """Free what a dropped event's calls hold (`output is None` stays as it was)."""
    for call in event.tool_calls:
        if call.output:
            call.output = ""
        call.input = {} if isinstance(call.input, dict) else ""


MAX_OBSERVE_WAITING = 256


def read_newest_events(
    path: str | os.PathLike[str],
    format: TranscriptFormat | None = None,
    *,
    max_json_chars: int = DEFAULT_MAX_JSON_CHARS,
    redact: bool = False,
    include: Callable[[TranscriptEvent], bool] | None = None,
    trim_every: int = TRIM_EVERY,
    max_weight: int = MAX_WEIGHT,
    observe: Callable[[TranscriptEvent], None] | None = None,
) -> NewestEvents:
    """`NewestEvents.of` over `read_transcript(path, format)`, in bounded memory. `include`
    filters first; `observe` sees each included event once, final, oldest first. OSError only
    when the file cannot be opened."""
    tail = TranscriptTail(path, format)
    window = BudgetWindow(
        max_json_chars,
        redact=redact,
        open_events=tail,
        trim_every=trim_every,
        max_weight=max_weight,
        empty_dropped=True,  # the events of this read are nobody else's
    )

    # Events waiting for their results before `observe` sees them (capped; the oldest goes).
    waiting: deque[TranscriptEvent] = deque()

    def settle(*, all_of_them: bool) -> None:
        assert observe is not None
        while waiting and (
            all_of_them or len(waiting) > MAX_OBSERVE_WAITING or not tail.may_change(waiting[0])
        ):
            observe(waiting.popleft())

    def take(event: TranscriptEvent) -> None:
        if include is not None and not include(event):
            return
        if observe is not None:
            waiting.append(event)
            settle(all_of_them=False)
        window.add(event)

    tail.stream_all(take)
    if observe is not None:
        settle(all_of_them=True)
    logger.debug(
        "read %s: kept %d of %d events, sized %d on the way",
        tail.path,
        window.kept,
        window.count,
        window.sized_events,
    )
    return window.result()
