"""Building the schema's records from whatever a dump holds, noting what does not fit.

A viewer must never fail on a missing, extra or oddly typed field. `read_record` walks a
record's fields as `memtab.traces.schema` declares them (name, camelCase alias, type) and
coerces each value the way a person would read it: `"15000"` is 15000, `1767300000000.0`
is an integer, `"true"` and `1` are true. A value that cannot be read is dropped (text
is kept as its JSON) and noted as "`attempts[1].toolExecutions[2].durationMs` should be
a number but is true". Missing fields stay unset; unknown ones are ignored here (the reader
lists the top-level ones). The records' own reading is not used: it is strict, and a
viewer shows what it can.
"""

from __future__ import annotations

import enum
import functools
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from memtab.fs.jsonfile import finite_number
from memtab.fs.records.codec import Field
from memtab.traces.describe import compact_json, describe_value, error_text
from memtab.traces.schema import DumpModel, Lenient

RecordT = TypeVar("RecordT", bound=DumpModel)


class Notes:
    """Reads fields loosely, noting each present-but-unusable one in a shared list."""

    def __init__(self, prefix: str = "", problems: list[str] | None = None) -> None:
        """Notes for fields under `prefix` (`attempts[0]`), into `problems` (shared)."""
        self.prefix = prefix
        self.problems: list[str] = [] if problems is None else problems

    def nested(self, name: str) -> Notes:
        """Notes for the members of `name` (e.g. `attempts[0]`), into the same list."""
        return Notes(f"{self.prefix}.{name}" if self.prefix else name, self.problems)

    def wrong(self, key: str, expected: str, value: Any) -> None:
        """Note that `key` holds `value` where `expected` was due."""
        where = f"{self.prefix}.{key}" if self.prefix and key else (self.prefix or key)
        self.problems.append(f"`{where}` should be {expected} but is {describe_value(value)}")

    def text(self, key: str, value: Any) -> str | None:
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        self.wrong(key, "text", value)
        return compact_json(value)

    def integer(self, key: str, value: Any) -> int | None:
        number = self.number(key, value)
        return None if number is None else int(number)

    def number(self, key: str, value: Any) -> int | float | None:
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            if finite_number(value) is not None:
                return value
        elif isinstance(value, str):
            try:
                parsed = float(value.strip())
            except ValueError:
                pass
            else:
                if math.isfinite(parsed):
                    return int(parsed) if parsed.is_integer() else parsed
        self.wrong(key, "a number", value)
        return None

    def timestamp(self, key: str, value: Any) -> int | None:
        """ms since the epoch from a number or an ISO 8601 string."""
        if isinstance(value, str) and not value.strip().lstrip("-").replace(".", "").isdigit():
            try:
                moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            except ValueError:
                self.wrong(key, "a time", value)
                return None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return int(moment.timestamp() * 1000)
        return self.integer(key, value)

    def flag(self, key: str, value: Any) -> bool | None:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        self.wrong(key, "true or false", value)
        return None

    def items(self, key: str, value: Any) -> tuple[Any, ...]:
        """A member that should be a list, as a tuple; odd shapes are kept, and noted."""
        if value is None:
            return ()
        if isinstance(value, list):
            return tuple(value)
        self.wrong(key, "a list", value)
        if isinstance(value, dict) and value and all(k.isdigit() for k in value):
            return tuple(value[k] for k in sorted(value, key=int))  # a list saved as {"0": ...}
        return (value,)


class _Kind(enum.Enum):
    TEXT = enum.auto()
    INTEGER = enum.auto()
    NUMBER = enum.auto()
    FLAG = enum.auto()
    TIMESTAMP = enum.auto()
    ERROR_TEXT = enum.auto()
    ONE_OR_MANY = enum.auto()
    LIST = enum.auto()
    OBJECT = enum.auto()
    AS_IS = enum.auto()


_MARKED_KINDS = {
    Lenient.ERROR_TEXT: _Kind.ERROR_TEXT,
    Lenient.TIMESTAMP: _Kind.TIMESTAMP,
    Lenient.ONE_OR_MANY: _Kind.ONE_OR_MANY,
}
_SCALAR_KINDS = {str: _Kind.TEXT, bool: _Kind.FLAG, int: _Kind.INTEGER, float: _Kind.NUMBER}


@dataclass(frozen=True)
class _Field:
    """How to read one field of a record: where it is in the file and what it should be."""

    name: str
    alias: str
    kind: _Kind
    record: type[DumpModel] | None = None
    """The record type of an object field, or of a list field's items."""


def read_record(model: type[RecordT], raw: Mapping[str, Any], notes: Notes) -> RecordT:
    """A `model` record from a dump's JSON object, every usable field coerced to its type."""
    values: dict[str, Any] = {}
    for field in record_fields(model):
        if field.alias in raw:
            values[field.name] = _read_field(field, raw[field.alias], notes)
    return model(**values)


def _read_field(field: _Field, value: Any, notes: Notes) -> Any:
    key = field.alias
    match field.kind:
        case _Kind.TEXT:
            return notes.text(key, value)
        case _Kind.INTEGER:
            return notes.integer(key, value)
        case _Kind.NUMBER:
            return notes.number(key, value)
        case _Kind.FLAG:
            return notes.flag(key, value)
        case _Kind.TIMESTAMP:
            return notes.timestamp(key, value)
        case _Kind.ERROR_TEXT:
            return error_text(value)
        case _Kind.ONE_OR_MANY:
            return () if value is None else tuple(value) if isinstance(value, list) else (value,)
        case _Kind.LIST:
            items = notes.items(key, value)
            if field.record is None:
                return items
            return tuple(_read_records(field.record, key, items, notes))
        case _Kind.OBJECT:
            if value is None or field.record is None:
                return None
            if not isinstance(value, dict):
                notes.wrong(key, "an object", value)
                return None
            return read_record(field.record, value, notes.nested(key))
    return value


def _read_records(
    model: type[DumpModel], key: str, items: tuple[Any, ...], notes: Notes
) -> list[DumpModel]:
    """Each object in `items` as a record; other entries are noted and skipped."""
    records = []
    for position, item in enumerate(items):
        where = notes.nested(f"{key}[{position}]")
        if isinstance(item, dict):
            records.append(read_record(model, item, where))
        else:
            where.wrong("", "an object", item)
    return records


def record_positions(value: Any) -> list[int]:
    """Where in a list field each entry `read_record` kept was (0-based), for numbering."""
    items = Notes().items("", value)
    return [position for position, item in enumerate(items) if isinstance(item, dict)]


@functools.cache
def record_fields(model: type[DumpModel]) -> tuple[_Field, ...]:
    """The fields of `model` in declaration order, with how the reader takes each."""
    return tuple(_field(declared) for declared in model.fields())


def _field(declared_field: Field) -> _Field:
    """Read a field's kind off its declaration: a `Lenient` mark, else its type."""
    name, alias = declared_field.name, declared_field.key
    for mark in declared_field.markers:
        if isinstance(mark, Lenient):
            return _Field(name, alias, _MARKED_KINDS[mark])
    declared: Any = declared_field.type
    if typing.get_origin(declared) in (typing.Union, types.UnionType):
        choices = {choice for choice in typing.get_args(declared) if choice is not type(None)}
        if choices == {int, float}:
            return _Field(name, alias, _Kind.NUMBER)
        if len(choices) == 1:
            (declared,) = choices
    if declared in _SCALAR_KINDS:
        return _Field(name, alias, _SCALAR_KINDS[declared])
    if typing.get_origin(declared) is tuple:
        item = typing.get_args(declared)[0]
        return _Field(name, alias, _Kind.LIST, item if _is_record(item) else None)
    if _is_record(declared):
        return _Field(name, alias, _Kind.OBJECT, declared)
    return _Field(name, alias, _Kind.AS_IS)


def _is_record(declared: Any) -> bool:
    return isinstance(declared, type) and issubclass(declared, DumpModel)
