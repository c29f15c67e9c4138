"""A record's JSON Schema (store/scopes/tool_args.py): what each declared type and marker says."""

from __future__ import annotations

import enum
from typing import Annotated, Literal

from memtab.fs.records import AtLeast, Key, OrNone, Record
from memtab.store.scopes.tool_args import record_schema


class Colour(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class _Described(Key):
    __slots__ = ("description",)

    def __init__(self, name: str, description: str) -> None:
        super().__init__(name)
        self.description = description


class Inner(Record):
    size: int


class Sample(Record):
    name: Annotated[str, AtLeast(1), _Described("name", "who")]
    lines: Annotated[int, AtLeast(0)] = 0
    ratio: float | None = None
    flag: bool = False
    kind: Literal["a", "b"] = "a"
    colour: Colour = Colour.RED
    tags: tuple[str, ...] = ()
    counts: dict[str, int] | None = None
    inner: Inner | None = None
    started_at: OrNone[int] = None


def test_every_declared_type_and_marker_is_described() -> None:
    assert record_schema(Sample) == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "description": "who"},
            "lines": {"type": "integer", "minimum": 0, "default": 0},
            "ratio": {"type": "number"},
            "flag": {"type": "boolean", "default": False},
            "kind": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "colour": {"enum": ["red", "blue"], "default": "red"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "inner": {
                "type": "object",
                "properties": {"size": {"type": "integer"}},
                "required": ["size"],
            },
            "startedAt": {"type": "integer"},
        },
        "required": ["name"],
    }
