"""A cron schedule read into when it fires (docs/formats.md §19.6), so two ways of writing
one schedule are one value: `0 9 * * *` and `0 09 * * *`, `@daily` and `0 0 * * *`,
`0 9 * * MON-FRI` and `0 9 * * 1-5`, `*/15 * * * *` and `0,15,30,45 * * * *`.

The five fields of crontab(5) — minute, hour, day of month, month, day of week — each a
list of values, ranges and steps (`*/15`, `1-5`, `10-50/20`), months and weekdays also by
their names, Sunday 0 or 7; and the macros (`@hourly` … `@yearly`, `@reboot`). A text in
another dialect (seconds, Quartz's `L`, `W`, `#`) is no schedule read: compared as text.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_NAMES: tuple[dict[str, int], ...] = (
    {},
    {},
    {},
    {name: number + 1 for number, name in enumerate(_MONTHS)},
    {name: number for number, name in enumerate(_DAYS)},
)
_MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


class Schedule(NamedTuple):
    """When a cron schedule fires: its minutes, hours and months, and its days — of the
    month, of the week (Sunday 0), each None where the field is any day (cron fires on a
    day either names when both are set)."""

    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int] | None
    months: frozenset[int]
    weekdays: frozenset[int] | None


REBOOT = Schedule(frozenset(), frozenset(), None, frozenset(), None)
"""`@reboot`: at start, no time."""


@functools.lru_cache(maxsize=1024)
def schedule_of(text: str) -> Schedule | None:
    """The schedule a cron expression says, or None when `text` is none (module doc)."""
    said = text.strip().lower()
    if said == "@reboot":
        return REBOOT
    fields = _MACROS.get(said, said).split()
    if len(fields) != 5:
        return None
    read = [_field(field, index) for index, field in enumerate(fields)]
    if any(values is None for values in read):
        return None
    minutes, hours, days, months, weekdays = read
    assert minutes is not None and hours is not None and days is not None
    assert months is not None and weekdays is not None
    weekdays = frozenset(day % 7 for day in weekdays)
    return Schedule(
        minutes,
        hours,
        None if len(days) == 31 else days,
        months,
        None if len(weekdays) == 7 else weekdays,
    )


def same_schedule(one: str, other: str) -> bool:
    """Whether two texts are one cron schedule written two ways (both read, and equal)."""
    mine = schedule_of(one)
    return mine is not None and mine == schedule_of(other)


def is_schedule(text: str) -> bool:
    """Whether `text` reads as a cron schedule."""
    return schedule_of(text) is not None


def _field(field: str, index: int) -> frozenset[int] | None:
    """The values one field names (None: not a field of this kind)."""
    low, high = _BOUNDS[index]
    found: set[int] = set()
    for item in field.split(","):
        span, _, step_said = item.partition("/")
        step = _number(step_said) if step_said else 1
        if step is None or step < 1:
            return None
        bounds = (low, high) if span in ("*", "?") else _span(span, index, high, bool(step_said))
        if bounds is None:
            return None
        start, end = bounds
        if not low <= start <= end <= high:
            return None
        found.update(range(start, end + 1, step))
    return frozenset(found)


def _span(span: str, index: int, high: int, stepped: bool) -> tuple[int, int] | None:
    """A value or a range's first and last (a stepped value runs to the field's end)."""
    first, dash, last = span.partition("-")
    start = _value(first, index)
    end = _value(last, index) if dash else (high if stepped else start)
    if start is None or end is None:
        return None
    if index == 4 and dash and end == 0:
        end = 7  # "fri-sun": Sunday closes the week
    return start, end


def _value(said: str, index: int) -> int | None:
    named = _NAMES[index].get(said)
    return named if named is not None else _number(said)


def _number(said: str) -> int | None:
    return int(said) if said.isascii() and said.isdigit() and len(said) <= 2 else None
