"""pydantic for every Memtab module that uses it, imported once, by one thread at a time.

pydantic loads most of itself lazily (`pydantic.__getattr__` imports `pydantic.main` for
`BaseModel`, `pydantic.fields` for `Field`…) and its modules import each other. Memtab
imports it late, on whichever thread first needs it: the Traces tab's scan worker
(a trace dump), the writer (its settings), a worker running the memory tool. When two
threads import different parts of pydantic at the same moment, they can take Python's
per-module import locks in opposite orders; the interpreter's deadlock detector then
hands one of them a partially initialized module ("cannot import name … from partially
initialized module 'pydantic…'").

Building a model imports more of it (validators, dataclass support, the plugin loader,
which reads every installed package's entry points through `importlib.metadata`), so a
model built on one thread while another builds one races the same way.

So the first import happens here, once, under one lock: `load_pydantic()` imports
pydantic and every part of it Memtab uses, then builds, validates and describes one
model shaped like Memtab's (`_warm_up`), before anyone uses any of it. Modules take
pydantic's names from here (`from memtab.fs.pydantic_once import BaseModel`), never from
pydantic directly (a test checks it), so importing one of them is what loads pydantic,
whichever thread does it first. Importing this module costs what pydantic costs (about
0.1 s): import it where a dump, a setting or a tool call is read, never on start-up.
"""

from __future__ import annotations

import enum
import importlib
import logging
import threading
from types import ModuleType
from typing import Annotated, Any, Literal

from annotated_types import Ge, Le
from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic.fields import FieldInfo

logger = logging.getLogger(__name__)

# Every module behind the names below: all of them are imported before any is used.
PYDANTIC_MODULES = (
    "pydantic",
    "pydantic.main",
    "pydantic.fields",
    "pydantic.config",
    "pydantic.aliases",
    "pydantic.alias_generators",
    "pydantic.functional_validators",
    "pydantic.type_adapter",
    "pydantic.json_schema",
    "pydantic.dataclasses",
    "pydantic._internal._validators",
    "pydantic._internal._serializers",
    "pydantic.plugin._loader",
    "pydantic_core",
    "annotated_types",
    "importlib.metadata",
)

_lock = threading.Lock()
_loaded = False


def load_pydantic() -> ModuleType:
    """pydantic, with every module Memtab uses from it fully imported; the first call
    imports them (other threads wait for it), later calls return at once."""
    global _loaded
    if not _loaded:
        with _lock:
            if not _loaded:
                for name in PYDANTIC_MODULES:
                    importlib.import_module(name)
                _warm_up()
                _loaded = True
                logger.debug("pydantic loaded")
    return importlib.import_module("pydantic")


def _warm_up() -> None:
    """Build, validate and describe one model with the kinds of fields, constraints,
    aliases and validators Memtab's models have: whatever pydantic imports lazily to build
    those is imported now, under the lock."""

    class Kind(enum.Enum):
        ONE = "one"

    class Probe(BaseModel):
        model_config = ConfigDict(extra="allow", alias_generator=to_camel, populate_by_name=True)
        text: str = ""
        count: Annotated[int, Ge(0), Le(10)] = 0
        ratio: float | None = None
        flag: bool = False
        choice: Literal["a", "b"] = "a"
        kind: Kind = Kind.ONE
        items: list[str] = Field(default_factory=list)
        extra: dict[str, Any] = Field(default_factory=dict)
        strict: StrictStr | None = None
        healed: Annotated[int, BeforeValidator(lambda value: 0)] = 0
        capped: Annotated[str, AfterValidator(lambda value: value[:8])] = ""
        lenient: Annotated[StrictInt | None, WrapValidator(lambda value, handler: None)] = None

        @field_validator("text")
        @classmethod
        def _stripped(cls, value: str) -> str:
            return value.strip()

    probe = Probe.model_validate({"text": " x ", "count": 1, "items": ["a"], "extraField": 1})
    probe.model_dump(mode="json", by_alias=True, exclude_none=True)
    Probe.model_json_schema()
    TypeAdapter(list[Probe]).validate_python([{"choice": "b"}])


# Importing this module is what loads pydantic (under the module's import lock).
load_pydantic()

__all__ = [
    "AfterValidator",
    "AliasChoices",
    "BaseModel",
    "BeforeValidator",
    "ConfigDict",
    "Field",
    "FieldInfo",
    "Ge",
    "Le",
    "StrictBool",
    "StrictInt",
    "StrictStr",
    "TypeAdapter",
    "ValidationError",
    "ValidationInfo",
    "ValidatorFunctionWrapHandler",
    "WrapValidator",
    "field_validator",
    "load_pydantic",
    "model_validator",
    "to_camel",
]
