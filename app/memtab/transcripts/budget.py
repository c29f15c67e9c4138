"""The background writer's event budget (docs/formats.md §10.2): the newest events whose compact
JSON array fits in N chars, measured like mux; the newest alone clamped in the middle when even it
does not fit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memtab.redact import redact_json
from memtab.transcripts.events import TranscriptEvent, compact_json, json_len

DEFAULT_MAX_JSON_CHARS = 80_000
TRUNCATION_MARK = "… [{} chars truncated for memory-writer budget] …"
OMITTED_PAYLOAD = "[omitted oversized tool payload]"
OMITTED_TEXT = "[omitted oversized event payload]"
# Keys whose values identify an event or call: never truncated.
_IDENTITY_KEYS = frozenset({"id", "role", "toolCallId", "toolName"})
# Below this length a cut string says too little; clamping then drops payloads instead.
_MIN_CUT_LENGTH = 64


@dataclass(frozen=True, slots=True)
class EventBudget:
    """The events selected for the writer (chronological, unclamped) and their JSON `items` (the
    newest clamped when `clamped`); `trimmed_count` is mux's `eventsSummary.trimmedCount`."""

    events: list[TranscriptEvent]
    items: list[dict[str, Any]]
    original_count: int
    trimmed_count: int
    max_json_chars: int
    clamped: bool
    json_chars: int
    redacted: bool = False

    def json_text(self) -> str:
        """The compact JSON array of `items`, as sent to the model."""
        return compact_json(self.items)

    def summary(self) -> dict[str, int]:
        """`eventsSummary` of a trace dump: `{originalCount, trimmedCount, maxJsonChars}`."""
        return {
            "originalCount": self.original_count,
            "trimmedCount": self.trimmed_count,
            "maxJsonChars": self.max_json_chars,
        }


def select_event_budget(
    events: Sequence[TranscriptEvent],
    max_json_chars: int = DEFAULT_MAX_JSON_CHARS,
    *,
    redact: bool = False,
) -> EventBudget:
    """Select the newest `events` whose compact JSON array fits in `max_json_chars`, sized after
    redaction with `redact` (docs/formats.md §12); ValueError if not even `[]` fits."""
    return select_newest(events, len(events), max_json_chars, redact=redact)


def select_newest(
    events: Sequence[TranscriptEvent],
    original_count: int,
    max_json_chars: int,
    *,
    redact: bool,
    known_sizes: Sequence[int | None] = (),
) -> EventBudget:
    """`select_event_budget` over `events`, the newest of `original_count`, the older known not to
    fit; `known_sizes[i]`: `json_len` of `events[i]`'s item, when known."""
    check_max_json_chars(max_json_chars)
    kept: list[dict[str, Any]] = []
    total = 2  # the brackets of the array
    for position in range(len(events) - 1, -1, -1):
        comma = 1 if kept else 0  # a comma before every item but one
        known = known_sizes[position] if position < len(known_sizes) else None
        if known is not None and total + known + comma > max_json_chars:
            break
        item = event_item(events[position], redact=redact)
        size = json_len(item) + comma
        if total + size > max_json_chars:
            break
        kept.append(item)
        total += size
    clamped = False
    if not kept and events:
        newest = clamp_item(event_item(events[-1], redact=redact), max_json_chars - 2)
        if newest is not None:
            kept.append(newest)
            total += json_len(newest)
            clamped = True
    kept.reverse()
    return EventBudget(
        events=list(events[len(events) - len(kept) :]),
        items=kept,
        original_count=original_count,
        trimmed_count=len(kept),
        max_json_chars=max_json_chars,
        clamped=clamped,
        json_chars=total,
        redacted=redact,
    )


def check_max_json_chars(max_json_chars: int) -> None:
    """ValueError unless a budget of `max_json_chars` can hold at least `[]`."""
    if max_json_chars < 2:
        raise ValueError(f"max_json_chars must be at least 2, got {max_json_chars}")


def event_item(event: TranscriptEvent, *, redact: bool) -> dict[str, Any]:
    """The JSON dict the budget sizes and sends for `event` (redacted when asked)."""
    item = event.to_json()
    return redact_json(item) if redact else item


def clamp_item(item: dict[str, Any], max_chars: int) -> dict[str, Any] | None:
    """`item` shrunk so its compact JSON has at most `max_chars` characters (None: impossible)."""
    if json_len(item) <= max_chars:
        return item
    fitted = _fit_by_cutting(item, max_chars)
    if fitted is not None:
        return fitted
    if isinstance(item.get("toolCalls"), list):
        without_payloads = {**item, "toolCalls": [_strip_payload(c) for c in item["toolCalls"]]}
        fitted = _fit_by_cutting(without_payloads, max_chars)
        if fitted is not None:
            return fitted
    base: dict[str, Any] = {
        key: item[key] for key in ("id", "role", "historySequence") if key in item
    }
    for candidate in ({**base, "text": OMITTED_TEXT}, base, {"role": item.get("role")}):
        if json_len(candidate) <= max_chars:
            return candidate
    return None


def _fit_by_cutting(item: dict[str, Any], max_chars: int) -> dict[str, Any] | None:
    """Binary-search the longest common string length at which `item` fits."""
    # A string longer than the whole budget can never fit, so that bounds the search.
    low, high = _MIN_CUT_LENGTH, min(_longest_string(item), max_chars)
    best: dict[str, Any] | None = None
    while low <= high:
        middle = (low + high) // 2
        candidate = _cut_strings(item, middle)
        if json_len(candidate) <= max_chars:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


def _longest_string(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return max((_longest_string(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max((_longest_string(v) for v in value), default=0)
    return 0


def _cut_strings(value: Any, limit: int, key: str | None = None) -> Any:
    if isinstance(value, str):
        return value if key in _IDENTITY_KEYS else cut_middle(value, limit)
    if isinstance(value, dict):
        return {k: _cut_strings(v, limit, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, limit) for v in value]
    return value


def cut_middle(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, keeping its head and tail around a mark."""
    if len(text) <= limit:
        return text
    removed = len(text) - limit
    for _ in range(3):  # the mark's own length depends on the count it shows
        mark = TRUNCATION_MARK.format(removed)
        room = limit - len(mark)
        if room <= 0:
            return text[:limit]
        if len(text) - room == removed:
            break
        removed = len(text) - room
    head = (room + 1) // 2
    tail = room - head
    cut = text[:head] + mark + (text[-tail:] if tail else "")
    return cut if len(cut) <= limit else text[:limit]


def _strip_payload(call: Any) -> Any:
    if not isinstance(call, dict):
        return call
    results = {key: OMITTED_PAYLOAD for key in ("output", "error") if key in call}
    return {**call, "input": OMITTED_PAYLOAD, **results}
