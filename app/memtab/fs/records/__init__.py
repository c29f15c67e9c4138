"""Records: every JSON object Memtab reads or writes is one declared `Record` class, its fields
read strictly, leniencies declared as markers on them (import them from here); docs/ARCHITECTURE.md
"Records" says how and why."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Self, dataclass_transform, get_args

from memtab.fs.records.codec import (
    ABSENT,
    Field,
    Reader,
    RecordError,
    camel_name,
    note,
    noting,
    reader_of,
)
from memtab.fs.records.compiler import (
    Inlined,
    NotWritten,
    WriteFunction,
    WrittenAs,
    compiled,
    computed,
    is_computed,
    not_read,
    source_of_init,
    source_of_writer,
)
from memtab.fs.records.markers import (
    AtLeast,
    Checked,
    Count,
    FiniteNumber,
    Healed,
    KeepUnread,
    Key,
    Lenient,
    OmitEmpty,
    OmitNone,
    OrNone,
    PlainJson,
    PositiveTime,
    RequiredTime,
    TrimmedText,
    TrueOnly,
    ValidEntries,
    ValidItems,
)
from memtab.fs.records.reading import Default, overrides, reader_of_record

__all__ = [
    "AtLeast",
    "Checked",
    "Count",
    "FiniteNumber",
    "Healed",
    "Inlined",
    "KeepUnread",
    "Key",
    "Lenient",
    "NotWritten",
    "OmitEmpty",
    "OmitNone",
    "OrNone",
    "PlainJson",
    "Positional",
    "PositiveTime",
    "Record",
    "RecordError",
    "RequiredTime",
    "TrimmedText",
    "TrueOnly",
    "ValidEntries",
    "ValidItems",
    "WrittenAs",
    "camel_name",
    "computed",
    "field",
    "note",
]


def field(*, default: Any = ABSENT, default_factory: Callable[[], Any] | None = None) -> Any:
    """A field's default made by `default_factory` for each record (`dict`, `list`)."""
    return Default(default, default_factory)


class _RecordClass(type):
    """Makes a record class slotted, its defaults kept aside."""

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _RecordClass:
        inherited = {n for base in bases for n in getattr(base, "_field_names", ())}
        own = [
            n
            for n, annotation in namespace.get("__annotations__", {}).items()
            if not name_is_private(n) and not _is_class_var(annotation)
        ]
        defaults = {n: namespace.pop(n) for n in own if n in namespace}
        derived = {n: d for n, d in defaults.items() if is_computed(d)}
        for n, value in derived.items():
            namespace[n] = property(value.compute)
            del defaults[n]
        stored = [n for n in own if n not in derived]
        remembers = kwargs.get("given_only") and not any(
            getattr(base, "_given_only", False) for base in bases
        )
        namespace["__slots__"] = (
            *(n for n in stored if n not in inherited),
            *namespace.get("__slots__", ()),
            *(("_given",) if remembers else ()),  # which fields it was given (`given_only`)
        )
        namespace["_own_fields"] = (tuple(stored), defaults, tuple(own))
        return super().__new__(mcs, name, bases, namespace, **kwargs)


def name_is_private(name: str) -> bool:
    return name.startswith("_")  # the base's own slots, not fields


def _is_class_var(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "Final", "typing.Final"))


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field, computed))
class Record(metaclass=_RecordClass):
    """A JSON object Memtab reads or writes; subclasses cite their docs/formats.md section."""

    __slots__ = ("_unknown",)
    _field_names: ClassVar[tuple[str, ...]] = ()
    _written_names: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _keeps_unknown: ClassVar[bool] = False
    _checks_when_built: ClassVar[bool] = True
    _write_only: ClassVar[bool] = False
    _given_only: ClassVar[bool] = False
    _fields: ClassVar[tuple[Field, ...] | None] = None
    _writes: ClassVar[tuple[Field, ...] | None] = None
    _own_fields: ClassVar[tuple[tuple[str, ...], dict[str, Any], tuple[str, ...]]]
    _writer: ClassVar[WriteFunction | None] = None
    _unchecked_init: ClassVar[Callable[..., None] | None] = None
    _unknown: dict[str, Any] | None

    def __init_subclass__(
        cls,
        *,
        keep_unknown: bool | None = None,
        checked_when_built: bool | None = None,
        write_only: bool | None = None,
        given_only: bool | None = None,
        frozen: bool | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        own, defaults, order = cls.__dict__["_own_fields"]
        cls._field_names = (*cls._field_names, *(n for n in own if n not in cls._field_names))
        cls._written_names = (
            *cls._written_names,
            *(n for n in order if n not in cls._written_names),
        )
        cls._defaults = {**cls._defaults, **defaults}
        cls._fields = cls._writes = cls._writer = cls._unchecked_init = None
        # its own reader, made at its first read
        cls._read_object = Record.__dict__["_read_object"]  # type: ignore[method-assign]
        if "__init__" in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a record is built from its fields, by keyword")
        cls.__init__ = Record.__dict__["__init__"]  # type: ignore[method-assign]  # its own, built later
        if "to_json" not in cls.__dict__ and not overrides(cls, "to_json", Record):
            cls.to_json = Record.to_json  # type: ignore[method-assign]
        if keep_unknown is not None:
            cls._keeps_unknown = keep_unknown
        if checked_when_built is not None:
            cls._checks_when_built = checked_when_built
        if write_only:
            cls._write_only, cls._checks_when_built = True, False
        if given_only:
            cls._given_only = True
        if frozen is False:  # set as it is built; a value that changes is no key: by identity
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign,assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
            cls.__eq__ = object.__eq__  # type: ignore[method-assign]
            cls.__hash__ = object.__hash__  # type: ignore[method-assign]

    def __init__(self, **values: Any) -> None:
        """A record of `values`, each read as from a file (RecordError: one refused), unless the
        class says `checked_when_built=False` (its constructor is generated at its `COMPILED_AT`th
        build)."""
        cls = type(self)
        if cls._checks_when_built:  # never compiled: its next build may be given a value
            if values:  # none given: its fields' types not needed yet
                for declared in self.fields():
                    if declared.name in values:
                        try:
                            values[declared.name] = declared.read(values[declared.name])
                        except RecordError as problem:
                            raise problem.at(declared.name) from None
        elif not cls._given_only:
            built = _BUILDS[cls] = _BUILDS.get(cls, 0) + 1
            if built >= COMPILED_AT:
                cls._build_init()(self, **values)
                return
        self._fill(values)

    @classmethod
    def unchecked(cls, **values: Any) -> Self:
        """A record of values already as read would give them, built unchecked by a constructor
        generated at its first call."""
        init = cls.__dict__.get("_unchecked_init")
        if init is None:
            assert not cls._given_only, "a given_only record remembers what it was given"
            source, names = source_of_init(cls, cls._field_names, cls._defaults)
            init = compiled(source, names, f"<record unchecked init {cls.__qualname__}>")
            cls._unchecked_init = init
        record = object.__new__(cls)
        init(record, **values)
        return record

    def _fill(self, values: dict[str, Any]) -> None:
        """Set every field: from `values` (taken out of it), else its default."""
        set_slot, defaults = object.__setattr__, self._defaults
        if self._given_only:
            set_slot(self, "_given", frozenset(values))
        for name in self._field_names:
            value = values.pop(name, ABSENT)
            if value is ABSENT:
                value = defaults.get(name, ABSENT)
                if type(value) is Default:
                    value = value.factory() if value.factory is not None else value.value
                if value is ABSENT:
                    raise TypeError(f"{type(self).__name__}() needs `{name}`")
            set_slot(self, name, value)
        if values:
            raise TypeError(f"{type(self).__name__}() has no field `{next(iter(values))}`")
        set_slot(self, "_unknown", None)

    @classmethod
    def read(cls, raw: Any) -> Self | None:
        """The record `raw` (a parsed JSON value) holds, or None when it holds none."""
        try:
            return cls._read_object(raw)
        except RecordError:
            return None

    @classmethod
    def read_or_raise(cls, raw: Any) -> Self:
        """The record `raw` holds; `RecordError` (where, what, why) when it holds none."""
        return cls._read_object(raw)

    @classmethod
    def read_noting(cls, raw: Any) -> tuple[Self | None, list[RecordError]]:
        """The record `raw` holds (None: none) and what its lenient fields forgave on the way, each
        with its `where`."""
        record, found = noting(lambda: cls.read(raw))
        return record, found if record is not None else []

    @classmethod
    def read_problems(cls, raw: Any) -> list[RecordError]:
        """Every field of `raw` this record refuses, in declared order (none: it reads)."""
        found: list[RecordError] = []
        try:
            cls._read_object(raw, found)
        except RecordError as problem:
            if not found:
                found.append(problem)
        return found

    def to_json(self) -> dict[str, Any]:
        """The JSON object: camelCase names, declared fields first, unknown ones kept."""
        cls = type(self)
        return (cls.__dict__.get("_writer") or cls._build_writer())(self)

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        """The raw value as this record reads it (override to mend it)."""
        return raw

    def after_read(self) -> Self:
        """The record as read (override to mend it, or raise ValueError to refuse it)."""
        return self

    @classmethod
    def _read_object(cls, raw: Any, problems: list[RecordError] | None = None) -> Self:
        """The record `raw` holds (RecordError: the first problem; all go to `problems`); makes the
        class's reader at first read."""
        if cls._write_only:
            raise TypeError(f"{cls.__name__} is written only, never read")
        read = reader_of_record(cls, Record)
        cls._read_object = staticmethod(read)  # type: ignore[method-assign,assignment]
        record: Self = read(raw, problems)
        return record

    @classmethod
    def _build_init(cls) -> Callable[..., None]:
        source, names = source_of_init(cls, cls._field_names, cls._defaults)
        init: Callable[..., None] = compiled(source, names, f"<record init {cls.__qualname__}>")
        init.__qualname__ = f"{cls.__qualname__}.__init__"  # what a wrong call's error names
        cls.__init__ = init  # type: ignore[method-assign]
        return init

    @classmethod
    def _build_writer(cls) -> WriteFunction:
        source, names = source_of_writer(cls, Record, cls.written_fields(), cls._defaults)
        write = compiled(source, names, f"<record writer {cls.__qualname__}>")
        write.generated = True
        cls._writer = write
        if not overrides(cls, "to_json", Record):
            cls.to_json = write  # type: ignore[method-assign]
        return write

    @classmethod
    def fields(cls) -> tuple[Field, ...]:
        """The declared fields, in order (their readers built by the first call)."""
        if cls.__dict__.get("_fields") is None:
            declared, readable = _annotations(cls), not cls._write_only
            cls._fields = tuple(
                _declared(name, declared[name], readable) for name in cls._field_names
            )
        return cls._fields  # type: ignore[return-value]

    @classmethod
    def written_fields(cls) -> tuple[Field, ...]:
        """What `to_json` writes, in order: the fields but `NotWritten`, computed ones in place."""
        if cls.__dict__.get("_writes") is None:
            stored = {declared.name: declared for declared in cls.fields()}
            declared = _annotations(cls)
            every = (
                stored[name] if name in stored else _declared(name, declared[name], False)
                for name in cls._written_names
            )
            cls._writes = tuple(f for f in every if NotWritten not in f.markers)
        return cls._writes  # type: ignore[return-value]

    def given(self, name: str) -> bool:
        """Whether field `name` was given (read or to the constructor): what a `given_only=True`
        record writes."""
        return not self._given_only or name in getattr(self, "_given")  # noqa: B009 - a slot

    def replaced(self, **changes: Any) -> Self:
        """A copy with `changes` (unknown fields kept)."""
        values = {name: getattr(self, name) for name in self._field_names}
        copy = type(self)(**{**values, **changes})
        object.__setattr__(copy, "_unknown", self._unknown)  # after `_fill` set it to None
        return copy

    @property
    def unknown(self) -> dict[str, Any]:
        """The fields read that this record does not declare (`keep_unknown` records)."""
        return dict(self._unknown or {})

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._field_names)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values() and self._unknown == other._unknown

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._field_names)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable (use `replaced`)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self._values(), self._unknown))

    def __rich_repr__(self) -> Iterator[tuple[str, Any]]:
        for name in self._field_names:
            yield name, getattr(self, name)


class Positional(Record):
    """A record a file holds as the list of its fields' values (mux's `[projectPath, config]`): read
    from a list of exactly that many items, written as the list."""

    __slots__ = ()

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        if isinstance(raw, cls):
            return raw
        keys = tuple(declared.key for declared in cls.fields())
        if not isinstance(raw, list | tuple) or len(raw) != len(keys):
            raise RecordError(f"not a list of {len(keys)}", raw)
        return dict(zip(keys, raw, strict=True))

    def to_json(self) -> list[Any]:  # type: ignore[override]  # its JSON is a list
        """The list of the fields' values as JSON, in declared order."""
        return list(Record.to_json(self).values())


def _rebuilt(cls: type[Record], values: tuple[Any, ...], unknown: Any) -> Record:
    record = object.__new__(cls)
    record._fill(dict(zip(cls._field_names, values, strict=True)))
    object.__setattr__(record, "_unknown", unknown)
    return record


def _annotations(cls: type[Record]) -> dict[str, Any]:
    """`cls`'s field types, each evaluated in the module of the class declaring it."""
    declared: dict[str, Any] = {}
    for owner in reversed(cls.__mro__[: cls.__mro__.index(Record)]):
        declared.update(inspect.get_annotations(owner, eval_str=True))
    return declared


COMPILED_AT = 100  # the build of an unchecked record class at which its constructor is generated
_BUILDS: dict[type[Record], int] = {}


def _record_reader(declared: Any) -> Reader | None:
    """The reader of a record class held by a field; None: no record."""
    if not (isinstance(declared, type) and issubclass(declared, Record)):
        return None
    kind: type[Record] = declared

    def read_record(raw: Any, problems: list[RecordError] | None = None) -> Record:
        return kind._read_object(raw, problems)

    return read_record


def _declared(name: str, declared: Any, readable: bool = True) -> Field:
    markers = tuple(getattr(declared, "__metadata__", ()))
    key = next((m.name for m in markers if isinstance(m, Key)), camel_name(name))
    bare = get_args(declared)[0] if markers else declared
    read = reader_of(declared, _record_reader) if readable else not_read(name)
    write = next((m.write for m in markers if isinstance(m, WrittenAs)), None)
    omit_none, omit_empty = (any(m is omit for m in markers) for omit in (OmitNone, OmitEmpty))
    return Field(name, key, bare, markers, read, omit_none, write, omit_empty)
