"""Reading a record, the one way: each field by the plan its class makes at its first read, a value
its plain type accepts taken as it is, any other through its full reader (`codec`)."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from memtab.fs.records.codec import (
    ABSENT,
    MISSING,
    NOTING,
    Field,
    Marker,
    Reader,
    RecordError,
    accepted_types,
    placed,
)
from memtab.fs.records.markers import AtLeast


class Default:
    """A field's default as the reader makes it: a value, or a factory called per record."""

    __slots__ = ("factory", "value")

    def __init__(self, value: Any, factory: Callable[[], Any] | None) -> None:
        self.value, self.factory = value, factory


REQUIRED: Any = object()
"""The plan's default of a field without one: absent, it is a problem (`missing`)."""

_NOTHING: frozenset[type] = frozenset()

FieldPlan = tuple[
    str,  # its key in the file
    str | None,  # its Python name, where the file may use it instead of the key
    Any,  # its default (REQUIRED; ABSENT: left out, for a class that fills itself)
    Callable[[], Any] | None,  # what makes its default, per record
    Callable[[Any], Any] | None,  # what mends the raw value before the test (`Healed`)
    frozenset[type],  # the types whose values the full reader gives back as they are
    int | None,  # and the least such a number (a text's length) may be (`AtLeast`)
    Reader,  # the full reader
    Callable[[Any, Any], None],  # what sets its slot
]


class ReadPlan:
    """How a record class is read: each field's `FieldPlan`, and what the class adds."""

    __slots__ = (
        "after_read",
        "before_read",
        "fields",
        "fills",
        "known",
        "names",
        "unread",
        "untested",
    )

    def __init__(self, cls: Any, base: type) -> None:
        fields, defaults = cls.fields(), cls._defaults
        # the class keeps something of what was given (which: `given_only`)
        self.fills: bool = cls._given_only or overrides(cls, "_fill", base)
        self.fields = tuple(_field_plan(cls, f, defaults, self.fills) for f in fields)
        # a read that notes sends every value to its full reader, which places its notes
        self.untested = tuple((*f[:4], None, _NOTHING, None, *f[7:]) for f in self.fields)
        self.names = tuple(declared.name for declared in fields)
        self.before_read = cls.before_read if overrides(cls, "before_read", base) else None
        self.after_read = overrides(cls, "after_read", base)
        self.known = (
            frozenset(name for f in fields for name in (f.key, f.name))
            if cls._keeps_unknown
            else None
        )
        self.unread = tuple((f.key, f.name) for f in fields if _keeps_unread(f))


def _field_plan(cls: Any, declared: Field, defaults: dict[str, Any], fills: bool) -> FieldPlan:
    default, factory = defaults.get(declared.name, ABSENT), None
    if isinstance(default, Default):
        default, factory = default.value, default.factory
    if default is ABSENT and factory is None:
        default = REQUIRED
    elif fills:  # absent: not given
        default, factory = ABSENT, None
    heal, kinds, least = quick_test(declared.type, declared.markers)
    alt = declared.name if declared.key != declared.name else None
    put = slot_setter(cls, declared.name)
    return (declared.key, alt, default, factory, heal, kinds, least, declared.read, put)


def quick_test(
    bare: Any, markers: tuple[Any, ...]
) -> tuple[Callable[[Any], Any] | None, frozenset[type], int | None]:
    """A field's quick test: its mending function, the types a value must have, its least value."""
    reading = [m for m in markers if isinstance(m, Marker)]
    heal = reading[0].heals() if reading else None
    rest = reading[1:] if heal is not None else reading
    bounds = [m.least for m in rest if isinstance(m, AtLeast)]
    others = [m for m in rest if not m.keeps_accepted and not isinstance(m, AtLeast)]
    kinds = accepted_types(bare)
    if kinds is None or others or len(bounds) > 1:
        return heal, _NOTHING, None
    if bounds and not kinds <= {str, int, float}:
        return heal, _NOTHING, None
    return heal, kinds, bounds[0] if bounds else None


def reader_of_record(cls: Any, base: type) -> Callable[[Any, list[RecordError] | None], Any]:
    """The reader of record class `cls`: `(raw, problems=None)` → the record (RecordError: the first
    problem); `base`'s hooks called only where `cls` overrides them."""
    plan = ReadPlan(cls, base)
    fields, untested, before_read = plan.fields, plan.untested, plan.before_read
    plain = not (plan.fills or plan.known is not None or plan.after_read)
    new, set_slot = object.__new__, object.__setattr__

    def read(raw: Any, problems: list[RecordError] | None = None) -> Any:
        if before_read is not None:
            raw = before_read(raw)
        if type(raw) is not dict:
            if isinstance(raw, cls):
                return raw
            if not isinstance(raw, dict):
                raise RecordError("not an object", raw)
        get = raw.get
        record = new(cls)
        for key, alt, default, factory, heal, kinds, least, read_fully, put in (
            untested if NOTING[0] else fields
        ):
            v = get(key, ABSENT)
            if v is ABSENT:
                if alt is not None:
                    v = get(alt, ABSENT)
                if v is ABSENT:
                    if factory is not None:
                        v = factory()
                    elif default is REQUIRED:
                        missing(key, problems)
                    else:
                        v = default  # ABSENT in a class that fills itself: not given
                    put(record, v)
                    continue
            if heal is not None:
                try:
                    w = heal(v)
                except (ValueError, TypeError):
                    w = ABSENT  # the full reader says why
                if type(w) in kinds and (least is None or _at_least(w, least)):
                    v = w
                else:
                    v = slow(read_fully, v, key, problems)
            elif type(v) not in kinds or (least is not None and not _at_least(v, least)):
                v = slow(read_fully, v, key, problems)
            put(record, v)
        if problems:
            raise problems[0]
        if plain:
            set_slot(record, "_unknown", None)
            return record
        return _finished(plan, record, raw)

    return read


def _finished(plan: ReadPlan, record: Any, raw: Any) -> Any:
    set_slot = object.__setattr__
    if plan.fills:  # a class that fills itself: what was there (ABSENT: not), and the required
        read = ((name, getattr(record, name)) for name in plan.names)
        record._fill({name: value for name, value in read if value is not ABSENT})
    else:
        set_slot(record, "_unknown", None)
    if plan.known is not None:
        unknown = {k: x for k, x in raw.items() if k not in plan.known}
        for key, name in plan.unread:  # a value it could not read stays as it was (`KeepUnread`)
            if getattr(record, name) is None and key in raw:
                unknown[key] = raw[key]
        if unknown:
            set_slot(record, "_unknown", unknown)
    if not plan.after_read:
        return record
    try:
        return record.after_read()
    except RecordError:
        raise
    except ValueError as error:
        raise RecordError(str(error), raw) from None


def _at_least(value: Any, least: int) -> bool:
    return (len(value) if type(value) is str else value) >= least


def refuse(problem: RecordError, key: str, problems: list[RecordError] | None) -> None:
    """A field's problem: raised at `key`, or collected (`Record.read_problems`)."""
    if problems is None:
        raise problem.at(key) from None
    problems.append(problem.at(key))


def missing(key: str, problems: list[RecordError] | None) -> None:
    refuse(RecordError(MISSING, None), key, problems)


def slow(read: Reader, value: Any, key: str, problems: list[RecordError] | None) -> Any:
    """A field's value read by its full reader (ABSENT: refused, its problem collected)."""
    try:
        return placed(read, value, key) if NOTING[0] else read(value)
    except RecordError as problem:
        refuse(problem, key, problems)
        return ABSENT


def _keeps_unread(declared: Field) -> bool:
    return any(getattr(m, "keeps_unread", False) for m in declared.markers)


def slot_setter(cls: Any, name: str) -> Callable[[Any, Any], None]:
    """What sets slot `name` of a `cls` (its descriptor's `__set__`)."""
    slot = getattr(cls, name)
    if isinstance(slot, types.MemberDescriptorType):
        setter: Callable[[Any, Any], None] = slot.__set__
        return setter
    return lambda record, value: object.__setattr__(record, name, value)


def overrides(cls: Any, name: str, base: type) -> bool:
    """Whether a class between `cls` and `base` defines `name` (not as `base`'s or generated)."""
    found = next(owner.__dict__[name] for owner in cls.__mro__ if name in owner.__dict__)
    return found is not base.__dict__[name] and not getattr(found, "generated", False)
