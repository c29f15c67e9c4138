"""Records: a JSON file Memtab writes or reads is one pydantic model (`Record`).

A record declares each field once — its name in Python (snake_case) and in the file
(camelCase, generated), its type, its default — and its docstring cites the section of
docs/formats.md that describes the file, which in turn names the model. Reading is
`Record.read(raw)` (a parsed JSON value → the record, or None when it is not one);
writing is `to_json()` (the JSON object, camelCase, in the order the fields are declared).

Files other programs write are read leniently, and each rule is a type here, declared on
the field it applies to:

- `Lenient(default)`: a value of the wrong type (or out of range) reads as the default,
  and the rest of the record is still read;
- `OrNone`: the same with None, for optional fields (`OrNone[StrictStr]`);
- `FiniteNumber`, `PositiveTime`, `Count`, `TrueOnly`, `TrimmedText`: the self-healing
  values of mux's files (a count floored, a time > 0, `true` and nothing else…);
- `ValidItems`, `ValidEntries`: a list (an object) whose items (values) are read one by
  one, a bad one dropped without hiding the others.

A record the window keeps in memory is a plain record instead (`fs/plain_records.py`): a
stdlib dataclass with the same configuration (`RECORD_CONFIG`) that pydantic reads and
writes alike, and holding one never imports pydantic.

`OmitNone` marks a field written only when it has a value (mux leaves such fields out).

Required fields use pydantic's strict types (`StrictStr`, `StrictInt` — never a bool —,
`StrictBool`): a record without them is no record, and the reader skips it. Records whose
unknown fields must be written back set `extra="allow"` (the fields come back after the
known ones); a sidecar others write too is changed through `memtab.fs.sidecar`, which
keeps every field at every level whatever the model knows.

This module imports pydantic (about 0.1 s and 11 MB, which a settled window never pays):
a package keeps its records in its own `records.py`, imported by the functions that read,
write or build them, never at the top of a module the window imports (docs/ARCHITECTURE.md,
"Records"). The files read before the first paint and by every scan are read by a few
hand-written readers instead; docs/ARCHITECTURE.md lists them and says why.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Annotated, Any, Self, TypeVar

from memtab.fs.jsonfile import finite_number
from memtab.fs.plain_records import RECORD_CONFIG
from memtab.fs.pydantic_once import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

T = TypeVar("T")

__all__ = [
    "Count",
    "FiniteNumber",
    "Lenient",
    "OmitNone",
    "OrNone",
    "PositiveTime",
    "Record",
    "StrictBool",
    "StrictInt",
    "StrictStr",
    "TrimmedText",
    "TrueOnly",
    "ValidEntries",
    "ValidItems",
]


class Record(BaseModel):
    """A JSON object Memtab reads or writes: camelCase in the file, snake_case in Python,
    immutable. Subclasses cite their docs/formats.md section."""

    model_config = ConfigDict(
        **RECORD_CONFIG,  # type: ignore[typeddict-item]
        frozen=True,
        defer_build=True,  # built by the first record read or written, not at import
        protected_namespaces=(),  # `model` is a field of some records, not pydantic's
    )

    @classmethod
    def read(cls, raw: Any) -> Self | None:
        """The record `raw` (a parsed JSON value) holds, or None when it holds none."""
        try:
            return cls.model_validate(raw)
        except ValidationError:
            return None

    def to_json(self) -> dict[str, Any]:
        """The JSON object: camelCase names, declared fields first, unknown ones kept."""
        return self.model_dump(mode="json", by_alias=True)

    def replaced(self, **changes: Any) -> Self:
        """A copy with `changes`, validated like the original (`model_copy` is not)."""
        values = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self).model_validate({**values, **(self.model_extra or {}), **changes})


OmitNone = Field(exclude_if=lambda value: value is None)
"""A field written only when it is not None: `Annotated[OrNone[StrictInt], OmitNone]`."""


# --- lenient values -------------------------------------------------------------------------


def _or_default(default: Any, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    try:
        return handler(value)
    except ValidationError:
        return default


def Lenient(default: Any) -> WrapValidator:
    """A value the field's type refuses reads as `default` (the record is still read)."""
    return WrapValidator(functools.partial(_or_default, default))


OrNone = Annotated[T | None, Lenient(None)]
"""`OrNone[T]`: `T | None`, a value that is not a `T` read as None."""


def _finite_number(value: Any) -> int | float | None:
    number = finite_number(value)
    return int(number) if isinstance(number, float) and number.is_integer() else number


def _positive_time(value: Any) -> int | None:
    number = _finite_number(value)
    return int(number) if number is not None and number > 0 else None


def _count(value: Any) -> int:
    number = _finite_number(value)
    return math.floor(number) if number is not None and number > 0 else 0


def _trimmed_text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _healed(heal: Callable[[Any], Any]) -> BeforeValidator:
    return BeforeValidator(heal)


FiniteNumber = Annotated[int | float | None, _healed(_finite_number)]
"""A finite number (an integral float as an int), else None."""
PositiveTime = Annotated[int | None, _healed(_positive_time)]
"""Epoch milliseconds: a finite number > 0 (truncated to an int), else None."""
Count = Annotated[int, _healed(_count)]
"""A count: a finite number > 0, floored, else 0."""
TrueOnly = Annotated[bool, _healed(lambda value: value is True)]
"""`true` and nothing else is true."""
TrimmedText = Annotated[str | None, _healed(_trimmed_text)]
"""A non-blank string, trimmed, else None."""


def _valid_items(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    if not isinstance(value, list | tuple):
        return handler([])
    try:
        return handler(value)  # usually every item is good: validated once
    except ValidationError:
        pass
    kept = []
    for item in value:
        try:
            handler([item])
        except ValidationError:
            continue
        kept.append(item)
    return handler(kept)


ValidItems = Annotated[T, WrapValidator(_valid_items)]
"""`ValidItems[tuple[X, ...]]`: a list whose items that are not an `X` are dropped (a value
that is not a list reads as empty)."""


def _valid_entries(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    if not isinstance(value, dict):
        return handler({})
    try:
        return handler(value)  # usually every entry is good: validated once
    except ValidationError:
        pass
    kept = {}
    for key, item in value.items():
        try:
            handler({key: item})
        except ValidationError:
            continue
        kept[key] = item
    return handler(kept)


ValidEntries = Annotated[T, WrapValidator(_valid_entries)]
"""`ValidEntries[dict[str, X]]`: an object whose entries that are not an `X` are dropped (a
value that is not an object reads as empty)."""
