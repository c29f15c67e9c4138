"""What a record writes beyond the fields it holds — mostly the `--json` outputs, whose
JSON says more than (or other than) what the record keeps:

- `computed(fn)`: a value derived from the record (`ok: bool = computed(lambda r: …)`),
  an attribute of the record and written at the place it is declared, but not a slot, not
  given to the constructor, not read from a file;
- `WrittenAs(fn)`: the field's value (when not None) written as `fn(value)` (a scope as
  its label, a nested object under other names);
- `NotWritten`: a field the JSON leaves out (what the process needs, not the output);
- `Inlined`: a field holding a record whose fields are written at its place, as the
  output's own (a row and what the command adds to it: `{**row.to_json(), "more": …}`
  declared, not spread by hand); nothing when it holds None;
- `write_only=True` (on the record's class): an output nothing reads back — its fields
  may be of any type (no reader is built), it is built unchecked, and `read` refuses it.

`memtab.fs.records` exports them with the rest of the record API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from memtab.fs.records.codec import Marker, Reader


class _Computed:
    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        self.compute = compute


def computed(compute: Callable[[Any], Any], *, init: Literal[False] = False) -> Any:
    """A value `compute(record)` derives from the record's fields, written in its JSON at
    the place it is declared (a field specifier: not a constructor argument)."""
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
"""A field whose record is written as the output's own fields, at its place:
`row: Annotated[SourceFileRow, Inlined]` then `content: str` writes the row's keys, then
`content` (a later field of the same key wins, as in a dict display)."""


def not_read(name: str) -> Reader:
    """The reader of a write-only record's field: there is none."""

    def refuse(value: Any) -> Any:
        raise TypeError(f"`{name}` is written only, never read")

    return refuse
