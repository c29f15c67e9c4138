"""A value checked against a tool's JSON schema, exactly: what a call written as text must pass."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema"})
_CHECKED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "enum",
        "const",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "items",
        "maxItems",
    }
)
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def schema_problem(value: Any, schema: Mapping[str, Any], where: str = "arguments") -> str | None:
    """Why `value` does not satisfy `schema` (one line naming where), or None when it does."""
    unknown = set(schema) - _CHECKED - _ANNOTATIONS
    if unknown:
        return f"the tool's schema uses {', '.join(sorted(unknown))}, which Memtab cannot check"
    problem = _type_problem(value, schema.get("type"), where)
    if problem is not None:
        return problem
    if "const" in schema and not _same(value, schema["const"]):
        return f"{where} must be {schema['const']!r}"
    if "enum" in schema and not any(_same(value, choice) for choice in schema["enum"]):
        choices = ", ".join(repr(choice) for choice in schema["enum"])
        return f"{where} must be one of {choices}"
    if isinstance(value, str):
        return _length_problem(value, schema, where)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _range_problem(value, schema, where)
    if isinstance(value, dict):
        return _object_problem(value, schema, where)
    if isinstance(value, list) and len(value) > schema.get("maxItems", len(value)):
        return f"{where} must hold at most {schema['maxItems']} items"
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            problem = schema_problem(item, schema["items"], f"{where}[{index}]")
            if problem is not None:
                return problem
    return None


def _type_problem(value: Any, declared: Any, where: str) -> str | None:
    if declared is None:
        return None
    names = [declared] if isinstance(declared, str) else list(declared)
    for name in names:
        kinds = _TYPES.get(name)
        if kinds is None:
            return f"the tool's schema names an unknown type {name!r}"
        if isinstance(value, bool) and name not in ("boolean",):
            continue
        if isinstance(value, kinds):
            return None
    return f"{where} must be {' or '.join(_article(name) for name in names)}"


def _object_problem(value: dict[str, Any], schema: Mapping[str, Any], where: str) -> str | None:
    properties = schema.get("properties") or {}
    missing = [name for name in schema.get("required") or () if name not in value]
    if missing:
        return f"{where} lack {', '.join(repr(name) for name in missing)}"
    extra = [name for name in value if name not in properties]
    if extra:
        names = ", ".join(repr(name) for name in extra)
        return f"{where} hold {names}, which the tool does not take"
    for name, item in value.items():
        problem = schema_problem(item, properties[name], f"{where}.{name}")
        if problem is not None:
            return problem
    return None


def _length_problem(value: str, schema: Mapping[str, Any], where: str) -> str | None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        return f"{where} must hold at least {schema['minLength']} characters"
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        return f"{where} must hold at most {schema['maxLength']} characters"
    return None


def _range_problem(value: float, schema: Mapping[str, Any], where: str) -> str | None:
    if "minimum" in schema and value < schema["minimum"]:
        return f"{where} must be at least {schema['minimum']}"
    if "maximum" in schema and value > schema["maximum"]:
        return f"{where} must be at most {schema['maximum']}"
    return None


def _same(value: Any, expected: Any) -> bool:
    """JSON equality: `true` is not `1`."""
    return (type(value) is type(expected) and value == expected) or (
        isinstance(value, int | float)
        and isinstance(expected, int | float)
        and not isinstance(value, bool)
        and not isinstance(expected, bool)
        and value == expected
    )


def _article(name: str) -> str:
    return {"integer": "an integer", "array": "an array", "object": "an object"}.get(
        name, f"a {name}" if name != "null" else "null"
    )
