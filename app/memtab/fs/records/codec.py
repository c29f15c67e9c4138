"""The record codec's engine: a record class's fields, and a reader for each declared type.

`memtab.fs.records` is what records import (the `Record` base, the markers); this module
is what it runs on. A record's fields are taken from its annotations once, when the class
is first read or written (not when it is created: a record class costs what a plain
class costs to define, so first-paint modules may declare records). Each field's type
becomes a reader — a function from a parsed JSON value to the value the record holds,
raising `RecordError` — built from the type and its `Annotated` markers, each marker wrapping
the reader of what it annotates (the first marker innermost).

Every type is read strictly: `str` is a string, `int` an integer that is not a bool,
`float` any number but a bool, `bool` true or false, `Literal[...]` one of its values, a
union the first of its members that reads (left to right), `tuple[X, ...]` a list of X,
`dict[str, X]` an object of X, a record an object its class reads, a `Path` a string (written
as one), `Any` anything.
"""

from __future__ import annotations

import enum
import pathlib
import threading
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, Literal, TypeVar, Union, get_args, get_origin

Reader = Callable[[Any], Any]
"""A parsed JSON value → the value a field holds (raises `RecordError`)."""


class RecordError(ValueError):
    """A value a field's type refuses: where (keys and indexes from the record read),
    what was found, and why."""

    def __init__(self, reason: str, value: Any, where: tuple[str | int, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.value = value
        self.where = where

    def at(self, *where: str | int) -> RecordError:
        """The same problem, one level out (`where` goes in front)."""
        return RecordError(self.reason, self.value, (*where, *self.where))

    def __str__(self) -> str:
        path = ".".join(str(part) for part in self.where)
        return f"{path}: {self.reason}" if path else self.reason


MISSING = "missing"
"""The reason of a required field that is absent."""

T = TypeVar("T")


# --- notes: what a read that asks for them was forgiven -----------------------------------
#
# A lenient field takes what its type refuses (`Lenient`: its default; `ValidItems`: the
# item dropped; a `Healed` function: the value mended), and a read may ask what it forgave,
# each with its place (`Record.read_noting`: a trace dump's "`attempts[1].durationMs` should
# be a number but is true"). The notes of this thread's read are in `_NOTES.found`; a read
# that fails leaves none (`placed`), and a reader places those of what it read under its
# key or index. No other read looks further than `NOTING[0]`, 0 while nothing notes.


class _Notes(threading.local):
    found: list[RecordError] | None = None


_NOTES = _Notes()
NOTING = [0]
"""How many reads note now, in every thread (while 0, no reader looks for notes)."""
_NOTING_LOCK = threading.Lock()


def note(reason: str, value: Any) -> None:
    """Say that `value` was mended rather than taken as it was — what a `Healed` function
    says of what it forgave (`reason`: what the value is not, "not a list") — for a read
    that notes (`noting`); nothing in another read."""
    if NOTING[0]:
        noted(RecordError(reason, value))


def noted(problem: RecordError) -> None:
    """Note `problem`, refused and forgiven (a `Lenient` field's default, a dropped item),
    for a read that notes; nothing in another read."""
    found = _NOTES.found if NOTING[0] else None
    if found is not None:
        found.append(problem)


def placed(read: Reader, value: Any, *where: str | int, instead: int = 0) -> Any:
    """`read(value)` within a read that notes: the notes it makes placed under `where`
    (keys and indexes) instead of their first `instead` parts, none kept when it fails."""
    found = _NOTES.found
    if found is None:
        return read(value)
    since = len(found)
    try:
        result = read(value)
    except RecordError:
        del found[since:]
        raise
    if (where or instead) and len(found) > since:
        found[since:] = [
            RecordError(made.reason, made.value, (*where, *made.where[instead:]))
            for made in found[since:]
        ]
    return result


def noting(read: Callable[[], T]) -> tuple[T, list[RecordError]]:
    """What `read()` gives, and what it noted on the way (see above), in order."""
    outer, found = _NOTES.found, list[RecordError]()
    _NOTES.found = found
    with _NOTING_LOCK:
        NOTING[0] += 1
    try:
        return read(), found
    finally:
        _NOTES.found = outer
        with _NOTING_LOCK:
            NOTING[0] -= 1


class Marker:
    """Something `Annotated` declares on a field's type: how it is read (`wrap`), or how
    the field is named or written (`Key`, `OmitNone`, which leave the reader as it is)."""

    __slots__ = ()
    keeps_accepted: bool = False
    """Whether a value the wrapped reader accepts comes out of this marker's reader as it
    is (so a reader may take a value its type's test accepts: `records.reading`)."""
    as_parsed: bool = False
    """Whether the value is JSON as parsed, read without a walk and written as it is
    (`PlainJson`)."""

    def wrap(self, read: Reader) -> Reader:
        return read

    def heals(self) -> Callable[[Any], Any] | None:
        """The function that mends the raw value before the type reads it (`Healed`)."""
        return None


class Field:
    """One declared field: its Python name, its key in the file, its type (without
    markers), its markers, how it is read, whether it is written when None (when empty),
    and how it is written (`write`: the value → what the JSON holds; None: as it is).
    (Plain classes here, not dataclasses: a dataclass costs ~1 ms to define.)"""

    __slots__ = ("key", "markers", "name", "omit_empty", "omit_none", "read", "type", "write")

    def __init__(
        self,
        name: str,
        key: str,
        declared: Any,
        markers: tuple[Any, ...],
        read: Reader,
        omit_none: bool,
        write: Callable[[Any], Any] | None = None,
        omit_empty: bool = False,
    ) -> None:
        self.name, self.key, self.type, self.markers = name, key, declared, markers
        self.read, self.omit_none, self.omit_empty = read, omit_none, omit_empty
        self.write = write


class _Absent(enum.Enum):
    ABSENT = enum.auto()


ABSENT: Final = _Absent.ABSENT
"""No default: the field is required."""


def camel_name(name: str) -> str:
    """A field's key in the file: `files_checked` → `filesChecked`."""
    head, *words = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in words)


def reader_of(declared: Any, record_reader: Callable[[Any], Reader | None]) -> Reader:
    """The reader of a value of type `declared` (see the module doc); `record_reader(t)` is
    the reader of `t` when it is a record class, else None."""
    origin = get_origin(declared)
    if origin is Annotated:
        inner, *markers = get_args(declared)
        as_parsed = any(getattr(marker, "as_parsed", False) for marker in markers)
        read = _outer_kind(inner) if as_parsed else reader_of(inner, record_reader)
        for marker in markers:
            if isinstance(marker, Marker):
                read = marker.wrap(read)
        return read
    if declared is Any or declared is object:
        return _as_is
    if declared is None or declared is type(None):
        return _none
    if declared in _SCALARS:
        return _SCALARS[declared]
    if origin is Literal:
        return _literal(get_args(declared))
    if origin in (Union, types.UnionType):
        return _union(tuple(reader_of(member, record_reader) for member in get_args(declared)))
    if origin is tuple:
        return _tuple(get_args(declared), record_reader)
    if origin in (list, typing.Sequence) or declared is list:
        item = reader_of(get_args(declared)[0], record_reader) if get_args(declared) else _as_is
        return _items(item, list)
    if origin in (dict, Mapping) or declared in (dict, Mapping):
        args = get_args(declared)
        return _entries(reader_of(args[1], record_reader) if args else _as_is)
    if (read_record := record_reader(declared)) is not None:
        return read_record
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        return _enum(declared)
    if declared is pathlib.Path:
        return _path
    raise TypeError(f"a record field cannot be of type {declared!r}")


def _outer_kind(declared: Any, in_union: bool = False) -> Reader:
    """The reader of a value kept as parsed (`PlainJson`): its outer kind checked, nothing
    in it read (in a union with an object or a list, a plain value read as its type)."""
    origin = get_origin(declared) or declared
    if origin in (Union, types.UnionType):
        return _union(tuple(_outer_kind(member, True) for member in get_args(declared)))
    if in_union and declared in (*_SCALARS, None, type(None)):
        return _SCALARS.get(declared, _none)
    if origin in (dict, Mapping):
        return _object_as_parsed
    if origin in (list, tuple, typing.Sequence):
        return _list_as_parsed
    if declared is Any:
        return _as_is
    raise TypeError(f"PlainJson is for an object, a list or Any, not {declared!r}")


def _object_as_parsed(value: Any) -> Any:
    if type(value) is not dict:
        raise RecordError("not an object", value)
    return value


def _list_as_parsed(value: Any) -> Any:
    if type(value) is not list:
        raise RecordError("not a list", value)
    return value


def written_as_parsed(bare: Any, markers: tuple[Any, ...]) -> bool:
    """Whether a field of type `bare` with `markers` holds JSON as parsed, written as it is:
    `PlainJson`, or an object whose values are (`dict[str, Annotated[…, PlainJson]]`)."""
    if any(getattr(marker, "as_parsed", False) for marker in markers):
        return True
    if (get_origin(bare) or bare) not in (dict, Mapping) or len(get_args(bare)) != 2:
        return False
    value = get_args(bare)[1]
    return any(getattr(m, "as_parsed", False) for m in getattr(value, "__metadata__", ()))


def accepted_types(declared: Any) -> frozenset[type] | None:
    """The types whose values `declared`'s reader gives back as they are (a value of one
    is taken after `type(v) in kinds`: `records.reading`), `JSON_KINDS` for `Any` (every
    value a JSON file holds), or None when there are none."""
    if get_origin(declared) is Annotated:
        inner, *markers = get_args(declared)
        keeps = all(m.keeps_accepted for m in markers if isinstance(m, Marker))
        return accepted_types(inner) if keeps else None
    if declared is Any or declared is object:
        return JSON_KINDS
    if declared is None or declared is type(None):
        return _NULL
    if declared in _ACCEPTED:
        return _ACCEPTED[declared]
    if get_origin(declared) in (Union, types.UnionType):
        members = [accepted_types(member) for member in get_args(declared)]
        if any(kinds is None for kinds in members):
            return None
        if any(kinds is JSON_KINDS for kinds in members):
            return JSON_KINDS
        return frozenset[type]().union(*(kinds for kinds in members if kinds is not None))
    return None


JSON_KINDS: Final[frozenset[type]] = frozenset((str, int, float, bool, type(None), list, dict))
"""The types of the values JSON parses to: what `Any` takes as it is."""
_NULL: Final[frozenset[type]] = frozenset((type(None),))
_ACCEPTED: dict[Any, frozenset[type]] = {
    str: frozenset((str,)),
    int: frozenset((int,)),
    float: frozenset((float, int)),
    bool: frozenset((bool,)),
}


def accepted_as_is(declared: Any, var: str) -> str | None:
    """A Python test of the value named `var` true only where `declared`'s reader would
    give that value back as it is ("True": every value), or None when there is none: the
    test a generated writer makes of a value (`accepted_types`, as source)."""
    kinds = accepted_types(declared)
    if kinds is None:
        return None
    if kinds is JSON_KINDS:
        return "True"
    named = sorted(kinds, key=_WRITTEN_ORDER.index)
    return " or ".join(
        f"{var} is None" if kind is type(None) else f"type({var}) is {kind.__name__}"
        for kind in named
    )


_WRITTEN_ORDER = (str, int, float, bool, type(None))


def written_as_is(bare: Any, markers: tuple[Any, ...]) -> bool:
    """Whether a field of type `bare` always holds plain JSON (a string, number, boolean
    or null), written as it is."""
    if get_origin(bare) is Literal:
        return all(type(choice) in PLAIN_JSON for choice in get_args(bare))
    test = accepted_as_is(bare, "v")
    if test is None or test == "True":
        return False
    return all(type(getattr(m, "default", None)) in PLAIN_JSON for m in markers)


PLAIN_JSON = frozenset((str, int, float, bool, type(None)))


def _as_is(value: Any) -> Any:
    return value


def _none(value: Any) -> None:
    if value is not None:
        raise RecordError("not null", value)


def _string(value: Any) -> str:
    if not isinstance(value, str):
        raise RecordError("not a string", value)
    return value


def _integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError("not an integer", value)
    return value


def _number(value: Any) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise RecordError("not a number", value)
    return value


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise RecordError("not true or false", value)
    return value


_SCALARS: dict[Any, Reader] = {str: _string, int: _integer, float: _number, bool: _boolean}


def _literal(allowed: tuple[Any, ...]) -> Reader:
    def read(value: Any) -> Any:
        for choice in allowed:
            if value == choice and type(value) is type(choice):
                return choice
        raise RecordError(f"not one of {', '.join(map(repr, allowed))}", value)

    return read


def _union(members: tuple[Reader, ...]) -> Reader:
    def read(value: Any) -> Any:
        first: RecordError | None = None
        for member in members:
            try:
                return placed(member, value) if NOTING[0] else member(value)
            except RecordError as problem:
                first = first or problem
        assert first is not None
        raise first

    return read


def _tuple(args: tuple[Any, ...], record_reader: Callable[[Any], Reader | None]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        return _items(reader_of(args[0], record_reader), tuple)
    readers = tuple(reader_of(arg, record_reader) for arg in args)

    def read(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(readers):
            raise RecordError(f"not a list of {len(readers)}", value)
        return tuple(
            _item(reader, item, n)
            for n, (reader, item) in enumerate(zip(readers, value, strict=True))
        )

    return read


def _item(read: Reader, value: Any, where: str | int) -> Any:
    try:
        return placed(read, value, where) if NOTING[0] else read(value)
    except RecordError as problem:
        raise problem.at(where) from None


def _items(read: Reader, kind: type[tuple[Any, ...]] | type[list[Any]]) -> Reader:
    def read_all(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise RecordError("not a list", value)
        return kind(_item(read, item, n) for n, item in enumerate(value))

    return read_all


def _entries(read: Reader) -> Reader:
    def read_all(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise RecordError("not an object", value)
        for key in value:
            if not isinstance(key, str):
                raise RecordError("a key that is not a string", key)
        return {key: _item(read, item, key) for key, item in value.items()}

    return read_all


def _path(value: Any) -> pathlib.Path:
    if isinstance(value, pathlib.Path):
        return value
    return pathlib.Path(_string(value))


def _enum(kind: type[enum.Enum]) -> Reader:
    def read(value: Any) -> enum.Enum:
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            raise RecordError(f"not a {kind.__name__}", value) from None

    return read


def written(value: Any) -> Any:
    """A value as JSON: a record's object, a tuple as a list, an enum's value."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    to_json = getattr(value, "to_json", None)
    if to_json is not None and not isinstance(value, type):
        return to_json()
    if isinstance(value, list | tuple):
        return [written(item) for item in value]
    if isinstance(value, dict):
        return {key: written(item) for key, item in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, pathlib.PurePath):
        return str(value)
    return value
