"""The memory tool's arguments: one pydantic model per command, discriminated by `command`.

Each model declares what its command takes — names, types, ranges, defaults, and the
aliases models trained on other file tools send (`file_path`/`filePath` → `path`,
`content` → `file_text`, `old_string` → `old_str`, `new_string` → `new_str`, and `path` as
the rename source), the canonical name winning when both are sent. The same models
generate the input schema sent to models (`input_schema`), so the schema cannot drift from
what is accepted.

Rules shared by every command, as in mux's schema (`src/common/utils/tools/toolDefinitions.ts`):
unknown keys are ignored and `null` counts as absent. Values are strict: `"2"` or `true` is
not an integer, `7` is not a string. A refused call is one line naming each bad argument
(`argument_problems`), the wording the hand-written checks used before.

The schema is one flat object with a `command` enum: Anthropic and some OpenAI-compatible
servers refuse `oneOf`/`anyOf` at the top of a tool's schema, so the per-command models
are merged property by property (a property shared by several commands must be declared
the same way in each).

This module imports pydantic (about 0.1 s): `memtab.store.scopes.tool` loads it on the first call,
never on the way to the window's first paint.
"""

from __future__ import annotations

import copy
import functools
from typing import Annotated, Any, Final, Literal, get_args

from memtab.fs.pydantic_once import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)
from memtab.store.errors import ToolArgumentError

_PATH_ALIASES = ("path", "file_path", "filePath")
# A hint added when a required argument is missing, where the name alone does not say it.
_MISSING_HINTS = {"insert_line": " (0 inserts at the top)"}

VirtualPathArg = Annotated[
    str,
    Field(
        validation_alias=AliasChoices(*_PATH_ALIASES),
        description="Virtual path, e.g. /memories/global/a.md",
    ),
]


class CommandArgs(BaseModel):
    """What every command's arguments share: strict values, unknown keys ignored."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")

    @property
    def target(self) -> str:
        """The path the call acts on (a rename's source)."""
        raise NotImplementedError

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
    offset: Annotated[int | None, Field(ge=1, description="view: first line (1-based)")] = None
    limit: Annotated[int | None, Field(ge=1, description="view: number of lines")] = None


class CreateArgs(_OnePathArgs):
    """`create`: a new file (an empty one without `file_text`)."""

    command: Literal["create"]
    file_text: Annotated[
        str,
        Field(
            validation_alias=AliasChoices("file_text", "content"),
            description="create: the whole file content",
        ),
    ] = ""


class StrReplaceArgs(_OnePathArgs):
    """`str_replace`: `old_str` must match exactly once; `new_str` replaces it."""

    command: Literal["str_replace"]
    old_str: Annotated[
        str,
        Field(
            min_length=1,
            validation_alias=AliasChoices("old_str", "old_string"),
            description="str_replace: exact text to replace",
        ),
    ]
    new_str: Annotated[
        str,
        Field(
            validation_alias=AliasChoices("new_str", "new_string"),
            description="str_replace: replacement text",
        ),
    ] = ""


class InsertArgs(_OnePathArgs):
    """`insert`: `insert_text` after line `insert_line` (0 = the top)."""

    command: Literal["insert"]
    insert_line: Annotated[
        int, Field(ge=0, description="insert: line to insert after (0 = top of file)")
    ]
    insert_text: Annotated[str, Field(description="insert: the text to insert")]


class DeleteArgs(_OnePathArgs):
    """`delete`: a file or a directory (recursively)."""

    command: Literal["delete"]


class RenameArgs(CommandArgs):
    """`rename`: within one scope; `path` is taken as the source when `old_path` is absent."""

    command: Literal["rename"]
    old_path: Annotated[
        str,
        Field(
            validation_alias=AliasChoices("old_path", *_PATH_ALIASES),
            description="rename: source path",
        ),
    ]
    new_path: Annotated[str, Field(description="rename: destination path")]

    @property
    def target(self) -> str:
        return self.old_path

    @property
    def destination(self) -> str | None:
        return self.new_path


ToolArgs = ViewArgs | CreateArgs | StrReplaceArgs | InsertArgs | DeleteArgs | RenameArgs
_MODELS: Final[tuple[type[CommandArgs], ...]] = (
    ViewArgs,
    CreateArgs,
    StrReplaceArgs,
    InsertArgs,
    DeleteArgs,
    RenameArgs,
)
COMMANDS: Final = ("view", "create", "str_replace", "insert", "delete", "rename")
_BY_COMMAND: Final = {
    get_args(model.model_fields["command"].annotation)[0]: model for model in _MODELS
}
if tuple(_BY_COMMAND) != COMMANDS:
    raise AssertionError(f"one model per command, in order: {COMMANDS}")


@functools.cache
def _adapter() -> TypeAdapter[ToolArgs]:
    return TypeAdapter(Annotated[ToolArgs, Field(discriminator="command")])


def validate_arguments(raw: Any) -> ToolArgs:
    """The call's arguments as its command's model; ToolArgumentError (one line) otherwise."""
    if not isinstance(raw, dict):
        raise ToolArgumentError("The memory tool takes one JSON object")
    present = {key: value for key, value in raw.items() if value is not None}
    try:
        return _adapter().validate_python(present)
    except ValidationError as error:
        raise ToolArgumentError(_one_line(raw, error)) from None


def _one_line(raw: dict[str, Any], error: ValidationError) -> str:
    problems: list[str] = []
    for item in error.errors():
        if item["type"] in ("union_tag_invalid", "union_tag_not_found"):
            return f"Unknown command {raw.get('command')!r}; expected one of: {', '.join(COMMANDS)}"
        command, name = str(item["loc"][0]), str(item["loc"][1])
        problem = argument_problem(_BY_COMMAND[command], name, item["type"])
        if problem not in problems:
            problems.append(problem)
    return "; ".join(problems)


def argument_problem(model: type[CommandArgs], key: str, error_type: str) -> str:
    """What is wrong with argument `key` (as sent, possibly an alias), in one phrase."""
    name = _canonical_name(model, key)
    field = _flat_properties(model)[name]
    required = model.model_fields[name].is_required()
    if field["type"] == "integer":
        if error_type == "missing":
            return f"`{name}` is required{_MISSING_HINTS.get(name, '')}"
        return f"`{name}` must be an integer ≥ {field['minimum']}"
    if error_type == "string_too_short":
        return f"`{name}` must not be empty"
    return (
        f"`{name}` is required and must be a string" if required else f"`{name}` must be a string"
    )


def _canonical_name(model: type[CommandArgs], key: str) -> str:
    if key in model.model_fields:
        return key
    for name, info in model.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices) and key in alias.choices:
            return name
    return key


@functools.cache
def _flat_properties(model: type[CommandArgs]) -> dict[str, dict[str, Any]]:
    """The model's properties as plain JSON schemas: `int | None` as `integer`, no titles."""
    schema = model.model_json_schema(by_alias=False)
    properties: dict[str, dict[str, Any]] = {}
    for name, prop in schema["properties"].items():
        flat = dict(prop)
        variants = [v for v in flat.pop("anyOf", ()) if v.get("type") != "null"]
        if variants:
            (only,) = variants  # optional values have exactly one non-null type
            flat.update(only)
        flat.pop("title", None)
        if flat.get("default", ...) is None:
            del flat["default"]
        properties[name] = flat
    return properties


def input_schema() -> dict[str, Any]:
    """The tool's JSON schema: one flat object, `command` an enum (see the module doc)."""
    return copy.deepcopy(_input_schema())


@functools.cache
def _input_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {
        "command": {
            "type": "string",
            "enum": list(COMMANDS),
            "description": "The memory operation to perform.",
        }
    }
    for model in _MODELS:
        for name, prop in _flat_properties(model).items():
            if name == "command":
                continue
            known = properties.setdefault(name, prop)
            if known != prop:
                raise AssertionError(f"`{name}` is declared differently by {model.__name__}")
    return {"type": "object", "properties": properties, "required": ["command"]}


def command_schema(command: str) -> dict[str, Any]:
    """One command's arguments as a JSON schema of their own (the MCP server offers each
    command as a tool): its properties as `input_schema` declares them, and which are
    required."""
    model = _BY_COMMAND[command]
    properties = {
        name: copy.deepcopy(prop)
        for name, prop in _flat_properties(model).items()
        if name != "command"
    }
    required = [
        name
        for name, info in model.model_fields.items()
        if name != "command" and info.is_required()
    ]
    return {"type": "object", "properties": properties, "required": required}
