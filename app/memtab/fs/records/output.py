"""What a record writes beyond the fields it holds (mostly `--json` outputs): `computed`,
`WrittenAs`, `NotWritten`, `Inlined` and `write_only=True`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from memtab.fs.records.codec import Marker, Reader


class _Computed:
    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        self.compute = compute


def computed(compute: Callable[[Any], Any], *, init: Literal[False] = False) -> Any:
    """A value `compute(record)` derives, written at its declared place (not a constructor
    argument)."""
    return _Computed(compute)


def is_computed(default: Any) -> bool:
    return type(default) is _Computed


class WrittenAs(Marker):
    """The field's value (when not None) written as `write(value)`."""

    __slots__ = ("write",)
    keeps_accepted = True  # reading is not its business

    def __init__(self, write: Callable[[Any], Any]) -> None:
        self.write = write


class _WritingMarker(Marker):
    """A marker that says only how a field is written, by being there."""

    __slots__ = ("name",)
    keeps_accepted = True  # reading is not its business

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NotWritten = _WritingMarker("NotWritten")
"""A field the record's JSON leaves out: `Annotated[tuple[str, ...], NotWritten]`."""

Inlined = _WritingMarker("Inlined")
"""A field whose record is written as the output's own fields, at its place."""


def not_read(name: str) -> Reader:
    """The reader of a write-only record's field: there is none."""

    def refuse(value: Any) -> Any:
        raise TypeError(f"`{name}` is written only, never read")

    return refuse
