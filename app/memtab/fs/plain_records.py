"""Plain records: a record the window keeps in memory, as a stdlib dataclass pydantic reads.

A `PlainRecord` is a record (docs/ARCHITECTURE.md, "Records") declared as a frozen,
slotted stdlib dataclass: building one, keeping thousands, comparing and sorting them
never imports pydantic (about 0.1 s and 20 MB, which a settled window does not pay). The
class IS the model of its file or `--json` output all the same: pydantic validates and
dumps stdlib dataclasses, taking their configuration from `__pydantic_config__` — the
same camelCase names, populated by name too, as a `Record` — so `to_json()` and
`read(raw)` go through the one record codec (`memtab.fs.records`, imported by the call)
and give exactly what a `Record` with the same fields gives.

Declare one as `@dataclass(frozen=True, slots=True, kw_only=True)` over `PlainRecord`,
and cite its docs/formats.md section in its docstring. Use it for records the window
builds or holds on its settled path (the check's findings); a record only read or
written by a worker or the CLI stays a `Record`, whose lenient field types need pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

if TYPE_CHECKING:
    from memtab.fs.pydantic_once import TypeAdapter


def camel_name(name: str) -> str:
    """A field's name in the file: `files_checked` → `filesChecked` (`Record`s and plain
    records alike; pydantic's `to_camel` for every name Memtab declares, a test checks)."""
    head, *words = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in words)


RECORD_CONFIG: dict[str, Any] = {"alias_generator": camel_name, "populate_by_name": True}
"""pydantic's configuration of every record: camelCase in the file, snake_case in Python,
either read (`ConfigDict`'s keys, spelled as a dict so that this module needs no pydantic)."""


class PlainRecord:
    """The base of a plain record (see the module docstring)."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = RECORD_CONFIG

    def to_json(self) -> dict[str, Any]:
        """The JSON object: camelCase names, in the order the fields are declared."""
        written = _adapter(type(self)).dump_python(self, mode="json", by_alias=True)
        return cast(dict[str, Any], written)

    @classmethod
    def read(cls, raw: Any) -> Self | None:
        """The record `raw` (a parsed JSON value) holds, or None when it holds none."""
        from memtab.fs.pydantic_once import ValidationError

        try:
            return cast(Self, _adapter(cls).validate_python(raw))
        except ValidationError:
            return None


_adapters: dict[type[PlainRecord], TypeAdapter[Any]] = {}


def _adapter(cls: type[PlainRecord]) -> TypeAdapter[Any]:
    """pydantic's reader and writer of `cls`, built by its first record read or written."""
    adapter = _adapters.get(cls)
    if adapter is None:
        from memtab.fs.pydantic_once import TypeAdapter

        adapter = _adapters.setdefault(cls, TypeAdapter(cls))
    return adapter
