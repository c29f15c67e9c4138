"""A record as a JSON Schema, from its fields: what the memory tool and the MCP tools accept, so the
schema cannot drift from the reader. `T | None` is T (some model servers refuse `anyOf`)."""

from __future__ import annotations

import enum
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from memtab.fs.records import AtLeast, Record
from memtab.fs.records.codec import Field

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def record_schema(record: type[Record]) -> dict[str, Any]:
    """`record`'s object as a JSON Schema: `properties` in declared order, `required`."""
    defaults = record._defaults
    properties: dict[str, Any] = {}
    for declared in record.fields():
        schema = field_schema(declared)
        default = defaults.get(declared.name)
        if isinstance(default, str | int | float | bool):
            schema["default"] = default.value if isinstance(default, enum.Enum) else default
        properties[declared.key] = schema
    required = [f.key for f in record.fields() if f.name not in defaults]
    return {"type": "object", "properties": properties, "required": required}


def field_schema(declared: Field) -> dict[str, Any]:
    """One field's JSON Schema (its type and its markers; no default)."""
    return _described(declared.type, declared.markers)


def type_schema(declared: Any) -> dict[str, Any]:
    """The JSON Schema of a value of type `declared` (see the module doc)."""
    origin = get_origin(declared)
    if origin is Annotated:
        inner, *markers = get_args(declared)
        return _described(inner, tuple(markers))
    if declared in _SCALARS:
        return {"type": _SCALARS[declared]}
    if origin is Literal:
        choices = list(get_args(declared))
        kinds = {_SCALARS.get(type(choice)) for choice in choices}
        return {"type": kinds.pop(), "enum": choices} if len(kinds) == 1 else {"enum": choices}
    if origin in (Union, types.UnionType):
        members = [member for member in get_args(declared) if member is not type(None)]
        if len(members) == 1:
            return type_schema(members[0])
        return {"anyOf": [type_schema(member) for member in members]}
    if origin in (tuple, list) or declared in (tuple, list):
        args = [arg for arg in get_args(declared) if arg is not Ellipsis]
        return {"type": "array", "items": type_schema(args[0])} if args else {"type": "array"}
    if origin is dict or declared is dict:
        key_and_value = get_args(declared)
        schema: dict[str, Any] = {"type": "object"}
        if key_and_value:
            schema["additionalProperties"] = type_schema(key_and_value[1])
        return schema
    if isinstance(declared, type) and issubclass(declared, Record):
        return record_schema(declared)
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        return {"enum": [member.value for member in declared]}
    return {}  # Any: anything


def _described(inner: Any, markers: tuple[Any, ...]) -> dict[str, Any]:
    schema = type_schema(inner)
    for marker in markers:
        if isinstance(marker, AtLeast):
            bound = {"integer": "minimum", "number": "minimum", "string": "minLength"}
            schema[bound.get(schema.get("type", ""), "minItems")] = marker.least
        description = getattr(marker, "description", None)
        if isinstance(description, str):
            schema["description"] = description
    return schema
