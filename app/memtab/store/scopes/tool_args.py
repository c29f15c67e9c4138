"""The memory tool's arguments: a record per command, with the aliases models send, strict values,
unknown keys ignored and `null` absent (docs/formats.md §5.1); the same records make the schema, one
flat object since some servers refuse `oneOf` at the top."""

from __future__ import annotations

import copy
import enum
import functools
import types
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

from memtab.fs.records import AtLeast, Key, OmitNone, Record
from memtab.fs.records.codec import MISSING, RecordError
from memtab.store.errors import ToolArgumentError

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def record_schema(record: type[Record]) -> dict[str, Any]:
    """`record`'s object as a JSON Schema: `properties` in declared order, `required`."""
    defaults = record._defaults
    properties: dict[str, Any] = {}
    for declared in record.fields():
        schema = _described(declared.type, declared.markers)
        default = defaults.get(declared.name)
        if isinstance(default, str | int | float | bool):
            schema["default"] = default.value if isinstance(default, enum.Enum) else default
        properties[declared.key] = schema
    required = [f.key for f in record.fields() if f.name not in defaults]
    return {"type": "object", "properties": properties, "required": required}


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
        values = {"additionalProperties": type_schema(key_and_value[1])} if key_and_value else {}
        return {"type": "object", **values}
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


_PATH_ALIASES = ("file_path", "filePath")
# Hints for a missing argument whose name does not say it.
_MISSING_HINTS = {"insert_line": " (0 inserts at the top)"}


class Arg(Key):
    """An argument: its name (as in mux's schema), the `aliases` models send, its `description`."""

    __slots__ = ("aliases", "description")

    def __init__(self, name: str, description: str, *aliases: str) -> None:
        super().__init__(name)
        self.description, self.aliases = description, aliases


VirtualPathArg = Annotated[
    str, Arg("path", "Virtual path, e.g. /memories/global/a.md", *_PATH_ALIASES)
]


class CommandArgs(Record):
    """What every command's arguments share (docs/formats.md §5.1)."""

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        if not isinstance(raw, dict):
            return raw
        present = {key: value for key, value in raw.items() if value is not None}
        for declared in cls.fields():
            arg = next((m for m in declared.markers if isinstance(m, Arg)), None)
            if arg is None or arg.name in present:
                continue
            alias = next((name for name in arg.aliases if name in present), None)
            if alias is not None:
                present[arg.name] = present.pop(alias)
        return present

    @property
    def target(self) -> str:
        """The path the call acts on (a rename's source)."""
        raise NotImplementedError

    @property
    def arguments(self) -> dict[str, Any]:
        """The arguments as read, without `command` (absent ones left out)."""
        return {key: value for key, value in self.to_json().items() if key != "command"}

    @property
    def destination(self) -> str | None:
        """Where a rename moves it (None for every other command)."""
        return None


class _OnePathArgs(CommandArgs):
    path: VirtualPathArg

    @property
    def target(self) -> str:
        return self.path


class ViewArgs(_OnePathArgs):
    """`view`: a file with line numbers (from `offset`, `limit` lines), or a directory."""

    command: Literal["view"]
    offset: Annotated[
        Annotated[int, AtLeast(1)] | None, Arg("offset", "view: first line (1-based)"), OmitNone
    ] = None
    limit: Annotated[
        Annotated[int, AtLeast(1)] | None, Arg("limit", "view: number of lines"), OmitNone
    ] = None


class CreateArgs(_OnePathArgs):
    """`create`: a new file (an empty one without `file_text`)."""

    command: Literal["create"]
    file_text: Annotated[str, Arg("file_text", "create: the whole file content", "content")] = ""


class StrReplaceArgs(_OnePathArgs):
    """`str_replace`: `old_str` must match exactly once; `new_str` replaces it."""

    command: Literal["str_replace"]
    old_str: Annotated[
        str, AtLeast(1), Arg("old_str", "str_replace: exact text to replace", "old_string")
    ]
    new_str: Annotated[str, Arg("new_str", "str_replace: replacement text", "new_string")] = ""


class InsertArgs(_OnePathArgs):
    """`insert`: `insert_text` after line `insert_line` (0 = the top)."""

    command: Literal["insert"]
    insert_line: Annotated[
        int, AtLeast(0), Arg("insert_line", "insert: line to insert after (0 = top of file)")
    ]
    insert_text: Annotated[str, Arg("insert_text", "insert: the text to insert")]


class DeleteArgs(_OnePathArgs):
    """`delete`: a file or a directory (recursively)."""

    command: Literal["delete"]


class RenameArgs(CommandArgs):
    """`rename`: within one scope; `path` is taken as the source when `old_path` is absent."""

    command: Literal["rename"]
    old_path: Annotated[str, Arg("old_path", "rename: source path", "path", *_PATH_ALIASES)]
    new_path: Annotated[str, Arg("new_path", "rename: destination path")]

    @property
    def target(self) -> str:
        return self.old_path

    @property
    def destination(self) -> str | None:
        return self.new_path


ToolArgs = ViewArgs | CreateArgs | StrReplaceArgs | InsertArgs | DeleteArgs | RenameArgs
_MODELS: Final[tuple[type[CommandArgs], ...]] = get_args(ToolArgs)
COMMANDS: Final = ("view", "create", "str_replace", "insert", "delete", "rename")
_BY_COMMAND: Final[dict[str, type[CommandArgs]]] = {
    get_args(next(f.type for f in model.fields() if f.name == "command"))[0]: model
    for model in _MODELS
}
if tuple(_BY_COMMAND) != COMMANDS:
    raise AssertionError(f"one record per command, in order: {COMMANDS}")


def validate_arguments(raw: Any) -> ToolArgs:
    """The call's arguments as its command's record; ToolArgumentError (one line) otherwise."""
    if not isinstance(raw, dict):
        raise ToolArgumentError("The memory tool takes one JSON object")
    command = raw.get("command")
    model = _BY_COMMAND.get(command) if isinstance(command, str) else None
    if model is None:
        raise ToolArgumentError(
            f"Unknown command {command!r}; expected one of: {', '.join(COMMANDS)}"
        )
    problems = list(
        dict.fromkeys(argument_problem(model, refused) for refused in model.read_problems(raw))
    )
    if problems:
        raise ToolArgumentError("; ".join(problems))
    return model.read_or_raise(raw)  # type: ignore[return-value]


def argument_problem(model: type[CommandArgs], refused: RecordError) -> str:
    """What is wrong with the argument `refused` names, in one phrase."""
    name = str(refused.where[0])
    prop = _properties(model)[name]
    missing = refused.reason == MISSING and len(refused.where) == 1
    if prop["type"] == "integer":
        if missing:
            return f"`{name}` is required{_MISSING_HINTS.get(name, '')}"
        return f"`{name}` must be an integer ≥ {prop['minimum']}"
    if isinstance(refused.value, str):  # a text too short
        return f"`{name}` must not be empty"
    required = " is required and" if name in record_schema(model)["required"] else ""
    return f"`{name}`{required} must be a string"


@functools.cache
def _properties(model: type[CommandArgs]) -> dict[str, dict[str, Any]]:
    return record_schema(model)["properties"]


def input_schema() -> dict[str, Any]:
    """The tool's JSON schema: one flat object, `command` an enum (see the module doc)."""
    return copy.deepcopy(_input_schema())


@functools.cache
def _input_schema() -> dict[str, Any]:
    command = {
        "type": "string",
        "enum": list(COMMANDS),
        "description": "The memory operation to perform.",
    }
    properties: dict[str, Any] = {"command": command}
    for model in _MODELS:
        for name, prop in _properties(model).items():
            if name == "command":
                continue
            known = properties.setdefault(name, prop)
            if known != prop:
                raise AssertionError(f"`{name}` is declared differently by {model.__name__}")
    return {"type": "object", "properties": properties, "required": ["command"]}


def command_schema(command: str) -> dict[str, Any]:
    """One command's arguments as a JSON schema of their own (an MCP tool each)."""
    schema = copy.deepcopy(record_schema(_BY_COMMAND[command]))
    del schema["properties"]["command"]
    schema["required"].remove("command")
    return schema
