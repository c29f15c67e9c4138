"""The record codec's engine: a record class's fields, and a strict reader for each declared type,
wrapped by its `Annotated` markers (the first innermost)."""

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
    """A value a field's type refuses: where, what was found, and why."""

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


MISSING = "missing"  # the reason of a required field that is absent

T = TypeVar("T")


# Notes: what a read that asks for them was forgiven (`Record.read_noting`), in `_NOTES.found`.


class _Notes(threading.local):
    found: list[RecordError] | None = None


_NOTES = _Notes()
NOTING = [0]  # how many reads note now, in every thread (while 0, no reader looks for notes)
_NOTING_LOCK = threading.Lock()


def note(reason: str, value: Any) -> None:
    """Note that `value` was mended (`reason`: what it is not), for a read that notes."""
    if NOTING[0]:
        noted(RecordError(reason, value))


def noted(problem: RecordError) -> None:
    """Note `problem` as forgiven, for a read that notes."""
    found = _NOTES.found if NOTING[0] else None
    if found is not None:
        found.append(problem)


def placed(read: Reader, value: Any, *where: str | int, instead: int = 0) -> Any:
    """`read(value)` in a read that notes, its notes placed under `where` instead of their first
    `instead` parts."""
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
    """Declared on a field's type by `Annotated`: how it is read (`wrap`), named or written."""

    __slots__ = ()
    keeps_accepted: bool = False  # whether a value the wrapped reader accepts comes out as it is
    as_parsed: bool = False
    """Whether the value is kept as parsed and written as it is (`PlainJson`)."""

    def wrap(self, read: Reader) -> Reader:
        return read

    def heals(self) -> Callable[[Any], Any] | None:
        """The function that mends the raw value before the type reads it (`Healed`)."""
        return None


class Field:
    """One declared field: names, type, markers, reader, and how it is written (a plain class: a
    dataclass is slow to define)."""

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


ABSENT: Final = _Absent.ABSENT  # no default: the field is required


def camel_name(name: str) -> str:
    """A field's key in the file: `files_checked` → `filesChecked`."""
    head, *words = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in words)


def reader_of(declared: Any, record_reader: Callable[[Any], Reader | None]) -> Reader:
    """The reader of a value of type `declared`; `record_reader(t)` gives a record class's."""
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
    """The reader of a value kept as parsed (`PlainJson`): its outer kind checked, nothing read."""
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
    """Whether a field holds JSON as parsed, written as it is (`PlainJson`, or objects of them)."""
    if any(getattr(marker, "as_parsed", False) for marker in markers):
        return True
    if (get_origin(bare) or bare) not in (dict, Mapping) or len(get_args(bare)) != 2:
        return False
    value = get_args(bare)[1]
    return any(getattr(m, "as_parsed", False) for m in getattr(value, "__metadata__", ()))


def accepted_types(declared: Any) -> frozenset[type] | None:
    """The types whose values `declared`'s reader gives back as they are (`JSON_KINDS` for `Any`);
    None: none."""
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
    """A Python test of `var`, true only where `declared`'s reader returns it as is; None: none."""
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
    """Whether a field always holds plain JSON (string, number, boolean or null)."""
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
