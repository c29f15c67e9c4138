"""The `"writer"` section of settings.json as a pydantic model: each setting's name, type,
range and default, declared once.

`memtab.writer.config` reads the section through `read_writer_section` (a bad value is
reported and left at its default, never fatal), `WriterSettings` checks its values against
the same model, and the Settings dialog takes its spin boxes' ranges from `number_range`.

This module imports pydantic (about 0.1 s): it is loaded by the first settings read, on
the writer's worker thread or in the Settings dialog, never on the way to the first paint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

from memtab.fs.pydantic_once import (
    BaseModel,
    ConfigDict,
    Field,
    Ge,
    Le,
    ValidationError,
    field_validator,
)
from memtab.writer.config_values import (
    DEFAULT_MAX_DUMPS,
    DEFAULT_MEMORY_PATH,
    DEFAULT_TIMEOUT_S,
    MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
    MOST_DUMPS_KEPT,
    OfflineNotes,
    WriterMode,
    memory_path_problem,
)


class WriterSection(BaseModel):
    """The `"writer"` object; keys it does not know are ignored here and kept in the file."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    mode: WriterMode = WriterMode.AUTO
    timeout_s: Annotated[
        float,
        Field(
            strict=True,
            ge=MIN_TIMEOUT_S,
            le=MAX_TIMEOUT_S,
            allow_inf_nan=False,
            description="seconds",
        ),
    ] = DEFAULT_TIMEOUT_S
    memory_path: Annotated[str, Field(strict=True)] = DEFAULT_MEMORY_PATH
    dump_successful_runs: Annotated[bool, Field(strict=True)] = False
    max_dumps: Annotated[int, Field(strict=True, ge=1, le=MOST_DUMPS_KEPT)] = DEFAULT_MAX_DUMPS
    offline_notes: OfflineNotes = OfflineNotes.SUGGEST
    notify: Annotated[bool, Field(strict=True)] = False

    @field_validator("mode", "offline_notes", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("max_dumps", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> Any:
        """A count written as 7.9 means 7 (hand-edited files, JSON writers that emit floats)."""
        if isinstance(value, float) and math.isfinite(value):
            return math.floor(value)
        return value

    @field_validator("memory_path")
    @classmethod
    def _workspace_file(cls, value: str) -> str:
        problem = memory_path_problem(value.strip())
        if problem:
            raise ValueError(problem)
        return value.strip()


@dataclass(frozen=True)
class SettingProblem:
    """One value of the section that cannot be used, and what would have been accepted."""

    key: str
    value: Any
    expected: str


def read_writer_section(raw: dict[str, Any]) -> tuple[WriterSection, list[SettingProblem]]:
    """The section with every unusable value left at its default, and what was wrong."""
    values = dict(raw)
    problems: list[SettingProblem] = []
    for _ in range(len(WriterSection.model_fields) + 1):
        try:
            return WriterSection.model_validate(values), problems
        except ValidationError as error:
            for item in error.errors():
                key = str(item["loc"][0])
                if key in values:
                    problems.append(SettingProblem(key, values.pop(key), _expected(key, item)))
    raise AssertionError("every field validates on its own")  # pragma: no cover


def problems_of(values: dict[str, Any]) -> list[str]:
    """Why these exact values are not valid settings (empty when they are)."""
    try:
        WriterSection.model_validate(values)
    except ValidationError as error:
        return [
            f"{item['loc'][0]}: {_expected(str(item['loc'][0]), item)}" for item in error.errors()
        ]
    return []


def number_range(key: str) -> tuple[float, float]:
    """The lowest and highest value a numeric setting takes (for spin boxes)."""
    metadata = WriterSection.model_fields[key].metadata
    low = next(m.ge for m in metadata if isinstance(m, Ge))
    high = next(m.le for m in metadata if isinstance(m, Le))
    return float(low), float(high)  # type: ignore[arg-type]


def _expected(key: str, item: Any) -> str:
    """What `key` takes, in words, for the warning that its value was replaced."""
    if item["type"] == "value_error":
        return str(item["ctx"]["error"])
    field = WriterSection.model_fields[key]
    annotation = field.annotation
    if isinstance(annotation, type) and issubclass(annotation, WriterMode | OfflineNotes):
        names = [member.value for member in annotation]
        return f"{', '.join(names[:-1])} or {names[-1]}"
    if annotation is bool:
        return "true or false"
    if annotation in (int, float):
        low, high = number_range(key)
        unit = f" {field.description}" if field.description else ""
        kind = "a whole number" if annotation is int else "a number"
        return f"{kind} from {low:g} to {high:g}{unit}"
    return "a string"
