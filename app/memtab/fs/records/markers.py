"""The markers a record's field declares on its type (`Annotated[T, marker…]`): how another
program's value is read, named, written or kept as parsed; import them from `memtab.fs.records`."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from memtab.fs.jsonfile import finite_number
from memtab.fs.records.codec import NOTING, Marker, Reader, RecordError, noted, placed

T = TypeVar("T")


class Key(Marker):
    """The field's key in the file, where it is not its camelCase name (`from`)."""

    __slots__ = ("name",)
    keeps_accepted = True

    def __init__(self, name: str) -> None:
        self.name = name


class _Flag(Marker):
    """A marker that only says how its field is written or kept (`OmitNone`…), by name."""

    __slots__ = ("_name", "as_parsed", "keeps_unread")
    keeps_accepted = True

    def __init__(self, name: str, *, as_parsed: bool = False, keeps_unread: bool = False) -> None:
        self._name = name
        self.as_parsed = as_parsed
        self.keeps_unread = keeps_unread

    def __repr__(self) -> str:
        return self._name


OmitNone = _Flag("OmitNone")
"""A field written only when it is not None: `Annotated[OrNone[int], OmitNone]`."""


OmitEmpty = _Flag("OmitEmpty")
"""A field written only when it holds something (not None, false, "" or empty); numbers use
`OmitNone`."""


KeepUnread = _Flag("KeepUnread", keeps_unread=True)
"""An optional field whose present but unreadable value is written back as it was
(`keep_unknown=True`)."""


class Lenient(Marker):
    """A value the field's type refuses reads as `default` (noted in a read that notes)."""

    __slots__ = ("default",)
    keeps_accepted = True

    def __init__(self, default: Any) -> None:
        self.default = default

    def wrap(self, read: Reader) -> Reader:
        default = self.default

        def read_or_default(value: Any) -> Any:
            try:
                return placed(read, value) if NOTING[0] else read(value)
            except RecordError as problem:
                noted(problem)
                return default

        return read_or_default


class Healed(Marker):
    """The raw value mended by `heal` before it is read (ValueError or TypeError: refused)."""

    __slots__ = ("heal",)

    def __init__(self, heal: Callable[[Any], Any]) -> None:
        self.heal = heal

    def heals(self) -> Callable[[Any], Any]:
        return self.heal

    def wrap(self, read: Reader) -> Reader:
        heal = self.heal

        def read_healed(value: Any) -> Any:
            try:
                healed = heal(value)
            except (ValueError, TypeError) as error:
                raise RecordError(str(error), value) from None
            return read(healed)

        return read_healed


class Checked(Marker):
    """The value read, passed through `check` (ValueError refuses it)."""

    __slots__ = ("check",)

    def __init__(self, check: Callable[[Any], Any]) -> None:
        self.check = check

    def wrap(self, read: Reader) -> Reader:
        check = self.check

        def read_checked(value: Any) -> Any:
            result = read(value)
            try:
                return check(result)
            except ValueError as error:
                raise RecordError(str(error), value) from None

        return read_checked


class AtLeast(Marker):
    """A number ≥ `least`, or a text or list of at least `least` items."""

    __slots__ = ("least",)

    def __init__(self, least: int) -> None:
        self.least = least

    def wrap(self, read: Reader) -> Reader:
        least = self.least

        def read_at_least(value: Any) -> Any:
            result = read(value)
            size = result if isinstance(result, int | float) else len(result)
            if size < least:
                raise RecordError(f"less than {least}", value)
            return result

        return read_at_least


OrNone = Annotated[T | None, Lenient(None)]
"""`OrNone[T]`: `T | None`, a value that is not a `T` read as None."""


def _finite_number(value: Any) -> int | float | None:
    number = finite_number(value)
    return int(number) if isinstance(number, float) and number.is_integer() else number


def _positive_time(value: Any) -> int | None:
    if type(value) is int and 0 < value <= _LARGEST:  # what mux writes: read at once
        return value
    number = _finite_number(value)
    # truncated, a time under 1 ms would be 0, no time: None (healed twice as once)
    return int(number) if number is not None and number >= 1 else None


_LARGEST = int(sys.float_info.max)  # an integer above it is no finite number to JavaScript


def _count(value: Any) -> int:
    if type(value) is int and 0 < value <= _LARGEST:  # what mux writes: read at once
        return value
    number = _finite_number(value)
    return math.floor(number) if number is not None and number > 0 else 0


def _trimmed_text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


FiniteNumber = Annotated[int | float | None, Healed(_finite_number)]
"""A finite number (an integral float as an int), else None."""
PositiveTime = Annotated[int | None, Healed(_positive_time)]
"""Epoch milliseconds: a finite number ≥ 1 (truncated to an int), else None."""
RequiredTime = Annotated[int, Healed(_positive_time)]
"""Epoch milliseconds as `PositiveTime`, required: a record without one is none."""
Count = Annotated[int, Healed(_count)]  # a count: a finite number > 0, floored, else 0
TrueOnly = Annotated[bool, Healed(lambda value: value is True)]  # `true` and nothing else is true
TrimmedText = Annotated[str | None, Healed(_trimmed_text)]
"""A non-blank string, trimmed, else None."""


def _reads(read: Reader, value: Any) -> bool:
    try:
        read(value)
    except RecordError:
        return False
    return True


class _ValidItems(Marker):
    __slots__ = ()

    def wrap(self, read: Reader) -> Reader:
        def read_valid(value: Any) -> Any:
            if NOTING[0]:
                return _valid_items_noted(read, value)
            if not isinstance(value, list | tuple):
                return read([])
            try:
                return read(value)  # usually every item is good: read once
            except RecordError:
                return read([item for item in value if _reads(read, [item])])

        return read_valid


def _valid_items_noted(read: Reader, value: Any) -> Any:
    """`ValidItems` in a read that notes: each dropped item noted at its place."""
    if not isinstance(value, list | tuple):
        noted(RecordError("not a list", value))
        return read([])
    kept: list[Any] = []
    for n, item in enumerate(value):
        try:  # read as a list of one, its notes (and its problem) at `n`, not 0
            kept += placed(read, [item], n, instead=1)
        except RecordError as problem:
            noted(RecordError(problem.reason, problem.value, (n, *problem.where[1:])))
    return type(read([]))(kept)


class _ValidEntries(Marker):
    __slots__ = ()

    def wrap(self, read: Reader) -> Reader:
        def read_valid(value: Any) -> Any:
            if NOTING[0]:
                return _valid_entries_noted(read, value)
            if not isinstance(value, dict):
                return read({})
            try:
                return read(value)  # usually every entry is good: read once
            except RecordError:
                return read({k: v for k, v in value.items() if _reads(read, {k: v})})

        return read_valid


def _valid_entries_noted(read: Reader, value: Any) -> Any:
    """`ValidEntries` in a read that notes: each dropped entry noted at its key."""
    if not isinstance(value, dict):
        noted(RecordError("not an object", value))
        return read({})
    kept: dict[str, Any] = {}
    for key, item in value.items():
        try:
            kept.update(placed(read, {key: item}))
        except RecordError as problem:
            noted(problem)  # placed at its key by the entries' reader
    return kept


PlainJson = _Flag("PlainJson", as_parsed=True)
"""JSON as parsed: its outer kind checked, nothing in it read, kept and written as it is (JSON
values only)."""

ValidItems = Annotated[T, _ValidItems()]
"""`ValidItems[tuple[X, ...]]`: a list, its items that are no `X` dropped."""
ValidEntries = Annotated[T, _ValidEntries()]
"""`ValidEntries[dict[str, X]]`: an object, its entries that are no `X` dropped."""
