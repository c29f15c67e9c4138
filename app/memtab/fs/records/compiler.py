"""A record class's reader and writer, each generated as one plain function (the writer at
its first use, the reader once the class is read often, `read_by_fields` reading until
then; the constructor of a class built unchecked once it is built often).

`memtab.fs.records` declares, `memtab.fs.records.codec` says how each type is read; this
module turns a class's fields into the functions that run at every read, write and build,
so a record costs what a hand-written reader (a dataclass) costs (docs/performance.md
"Records" has the measurements). The source is generated (`exec`) because the alternative
— a loop over the fields calling each field's chain of closures — spends most of its time
in calls: here each field is a few inline lines, its plain type checked in place
(`type(v) is str`), and a field's full reader (the markers' closures, the error's place and
message) runs only for a value the inline test does not accept. What a value reads as is
therefore decided by the full reader alone; the inline test only skips it where it would
give the value back as it is (`records.codec.accepted_as_is`). The writer tests a value the
same way before it calls `written`. `source_of_reader` / `source_of_writer` /
`source_of_init` give the text, for a reader of this module who wants to see what runs.

A generated reader, for `class Entry(Record): pinned: TrueOnly = False; name: str`:

    def read_Entry(raw, problems=None):
        if type(raw) is not dict:
            if isinstance(raw, cls): return raw
            if not isinstance(raw, dict): raise RecordError('not an object', raw)
        get = raw.get
        v0 = get('pinned', ABSENT)
        if v0 is ABSENT:
            v0 = d0
        else:
            try:
                w = v0
                try: v0 = h0(v0)
                except (ValueError, TypeError): v0 = r0(w)
                else:
                    if not (v0 is True or v0 is False): v0 = r0(w)
            except RecordError as problem:
                refuse(problem, 'pinned', problems)
        ...
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from memtab.fs.records.codec import (
    ABSENT,
    MISSING,
    PLAIN_JSON,
    Field,
    Reader,
    RecordError,
    accepted_as_is,
    healed_then,
    written,
    written_as_is,
    written_as_parsed,
)
from memtab.fs.records.output import Inlined

ReadFunction = Callable[..., Any]
"""`(raw, problems=None) -> record`: a class's generated reader (raises `RecordError`)."""
WriteFunction = Callable[[Any], dict[str, Any]]
"""`(record) -> JSON object`: a class's generated writer."""


class Default:
    """A field's default as the reader makes it: a value, or a factory called per record."""

    __slots__ = ("factory", "value")

    def __init__(self, value: Any, factory: Callable[[], Any] | None) -> None:
        self.value, self.factory = value, factory


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
        return read(value)
    except RecordError as problem:
        refuse(problem, key, problems)
        return ABSENT


def source_of_reader(
    cls: Any, base: type, fields: tuple[Field, ...], defaults: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The reader's source and the names it uses (see the module doc); the hooks of `base`
    (`before_read`, `after_read`, `_fill`) are called only where a subclass overrides them."""
    names: dict[str, Any] = {
        "cls": cls,
        "ABSENT": ABSENT,
        "RecordError": RecordError,
        "refuse": refuse,
        "missing": missing,
        "slow": slow,
        "new": object.__new__,
        "set_slot": object.__setattr__,
    }
    lines = [f"def read_{cls.__name__}(raw, problems=None):"]
    if overrides(cls, "before_read", base):
        names["before_read"] = cls.before_read
        lines.append("    raw = before_read(raw)")
    lines += [
        "    if type(raw) is not dict:",
        "        if isinstance(raw, cls): return raw",
        "        if not isinstance(raw, dict): raise RecordError('not an object', raw)",
        "    get = raw.get",
    ]
    # the class keeps something of what was given (its own `_fill`, or which: `given_only`)
    fills = overrides(cls, "_fill", base) or cls._given_only
    unread = [f.key for f in fields if _keeps_unread(f)]
    if unread:
        lines.append("    unread = {}")
    for n, declared in enumerate(fields):
        default = defaults.get(declared.name, ABSENT)
        lines += _field_lines(n, declared, ABSENT if fills else default, names, default)
        if declared.key in unread:  # a value it could not read stays as it was (`KeepUnread`)
            key = repr(declared.key)
            lines.append(f"    if v{n} is None and {key} in raw: unread[{key}] = raw[{key}]")
    lines.append("    if problems: raise problems[0]")
    lines.append("    record = new(cls)")
    if fills:
        given = ", ".join(
            f"{f.name!r}: v{n}" for n, f in enumerate(fields) if f.name not in defaults
        )
        lines.append(f"    values = {{{given}}}")
        lines += [
            f"    if v{n} is not ABSENT: values[{f.name!r}] = v{n}"
            for n, f in enumerate(fields)
            if f.name in defaults
        ]
        lines.append("    record._fill(values)")
    else:
        for n, declared in enumerate(fields):
            names[f"s{n}"] = _slot_setter(cls, declared.name)
            lines.append(f"    s{n}(record, v{n})")
        lines.append("    set_slot(record, '_unknown', None)")
    if cls._keeps_unknown:
        names["known"] = frozenset(name for f in fields for name in (f.key, f.name))
        lines.append("    unknown = {k: x for k, x in raw.items() if k not in known}")
        if unread:
            lines.append("    unknown.update(unread)")
        lines.append("    if unknown: set_slot(record, '_unknown', unknown)")
    if overrides(cls, "after_read", base):
        lines += [
            "    try:",
            "        return record.after_read()",
            "    except RecordError:",
            "        raise",
            "    except ValueError as error:",
            "        raise RecordError(str(error), raw) from None",
        ]
    else:
        lines.append("    return record")
    return "\n".join(lines) + "\n", names


def read_by_fields(
    cls: Any, base: type, raw: Any, problems: list[RecordError] | None = None
) -> Any:
    """What the reader `source_of_reader` writes returns for `raw`, each field read by its
    full reader in a loop: a class's first reads, until compiling its reader pays
    (`memtab.fs.records.READ_COMPILED_AT`)."""
    if overrides(cls, "before_read", base):
        raw = cls.before_read(raw)
    if type(raw) is not dict:
        if isinstance(raw, cls):
            return raw
        if not isinstance(raw, dict):
            raise RecordError("not an object", raw)
    fills = overrides(cls, "_fill", base) or cls._given_only
    fields, defaults = cls.fields(), cls._defaults
    values: dict[str, Any] = {}
    unread: dict[str, Any] = {}
    for declared in fields:
        key, default = declared.key, defaults.get(declared.name, ABSENT)
        value = raw.get(key, ABSENT)
        if value is ABSENT and key != declared.name:
            value = raw.get(declared.name, ABSENT)
        if value is not ABSENT:
            value = slow(declared.read, value, key, problems)
        elif _no_default(default):
            missing(key, problems)
        elif isinstance(default, Default) and not fills:
            value = default.factory() if default.factory is not None else default.value
        elif not fills:
            value = default
        if value is None and key in raw and _keeps_unread(declared):
            unread[key] = raw[key]
        values[declared.name] = value
    if problems:
        raise problems[0]
    record = object.__new__(cls)
    if fills:
        given = {n: v for n, v in values.items() if v is not ABSENT or n not in defaults}
        record._fill(given)
    else:
        for name, value in values.items():
            object.__setattr__(record, name, value)
        object.__setattr__(record, "_unknown", None)
    if cls._keeps_unknown:
        known = {name for f in fields for name in (f.key, f.name)}
        unknown = {k: x for k, x in raw.items() if k not in known} | unread
        if unknown:
            object.__setattr__(record, "_unknown", unknown)
    if not overrides(cls, "after_read", base):
        return record
    try:
        return record.after_read()
    except RecordError:
        raise
    except ValueError as error:
        raise RecordError(str(error), raw) from None


def _keeps_unread(declared: Field) -> bool:
    return any(getattr(m, "keeps_unread", False) for m in declared.markers)


def _field_lines(
    n: int, declared: Field, default: Any, names: dict[str, Any], declared_default: Any
) -> list[str]:
    """Field `n`'s lines: its value read into `v{n}`; when absent, its `default` (left
    ABSENT when the class's `_fill` makes it from the `declared_default`). As few lines
    as can be: compiling them is most of what a class's first read costs."""
    v, key = f"v{n}", declared.key
    lines = [f"    {v} = get({key!r}, ABSENT)"]
    if key != declared.name:
        lines.append(f"    if {v} is ABSENT: {v} = get({declared.name!r}, ABSENT)")
    if _no_default(declared_default):
        lines.append(f"    if {v} is ABSENT: missing({key!r}, problems)")
    elif isinstance(default, Default) and default.factory is not None:
        names[f"f{n}"] = default.factory
        lines.append(f"    if {v} is ABSENT: {v} = f{n}()")
    elif default is not ABSENT:
        names[f"d{n}"] = default.value if isinstance(default, Default) else default
        lines.append(f"    if {v} is ABSENT: {v} = d{n}")
    else:
        lines.append(f"    if {v} is ABSENT: pass")
    names[f"r{n}"] = declared.read
    full_read = f"slow(r{n}, {v}, {key!r}, problems)"
    heal, then = healed_then(declared.type, declared.markers)
    test = accepted_as_is(then, "w" if heal is not None else v) if then is not None else None
    if heal is not None and test is not None:
        names[f"h{n}"] = heal
        lines += [
            "    else:",
            f"        try: w = h{n}({v})",
            "        except (ValueError, TypeError): w = ABSENT",  # the full reader says why
            f"        {v} = w if {test} else {full_read}",
        ]
    elif test is None:
        lines.append(f"    else: {v} = {full_read}")
    elif test != "True":  # not `Any`
        lines.append(f"    elif not ({test}): {v} = {full_read}")
    return lines


def _slot_setter(cls: Any, name: str) -> Callable[[Any, Any], None]:
    """What sets the slot `name` of a `cls` (its descriptor's `__set__`: a record's own
    `__setattr__` refuses, and this is twice as fast as `object.__setattr__`)."""
    slot = getattr(cls, name)
    if isinstance(slot, types.MemberDescriptorType):
        return slot.__set__
    return lambda record, value: object.__setattr__(record, name, value)


def _no_default(default: Any) -> bool:
    unset = isinstance(default, Default) and default.factory is None and default.value is ABSENT
    return default is ABSENT or unset


def needs(cls: Any, name: str) -> None:
    raise TypeError(f"{cls.__name__}() needs `{name}`")


def no_field(cls: Any, given: dict[str, Any]) -> None:
    raise TypeError(f"{cls.__name__}() has no field `{next(iter(given))}`")


def source_of_init(
    cls: Any, field_names: tuple[str, ...], defaults: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The constructor of a record built unchecked (`checked_when_built=False`): each field
    a keyword-only parameter, its default made when it is not given, the slots set — what a
    dataclass's `__init__` does, and as fast. (Generated names start with `_`, which no
    field's does.)"""
    names: dict[str, Any] = {"_ABSENT": ABSENT, "_cls": cls, "_needs": needs, "_no": no_field}
    params, lines = [], []
    for n, name in enumerate(field_names):
        default = defaults.get(name, ABSENT)
        value = default.value if isinstance(default, Default) else default
        if isinstance(default, Default) and default.factory is not None:
            names[f"_f{n}"] = default.factory
            lines.append(f"    if {name} is _ABSENT: {name} = _f{n}()")
        elif value is ABSENT:
            lines.append(f"    if {name} is _ABSENT: _needs(_cls, {name!r})")
        else:
            names[f"_d{n}"] = value
            params.append(f"{name}=_d{n}")
            continue
        params.append(f"{name}=_ABSENT")
    lines.append("    if _rest: _no(_cls, _rest)")
    settable = cls.__setattr__ is object.__setattr__  # `frozen=False`: set as a dataclass does
    for n, name in enumerate((*field_names, "_unknown")):
        value = name if n < len(field_names) else "None"
        if settable:
            lines.append(f"    _self.{name} = {value}")
        else:
            names[f"_s{n}"] = _slot_setter(cls, name)
            lines.append(f"    _s{n}(_self, {value})")
    head = f"def init_{cls.__name__}(_self, *, {''.join(p + ', ' for p in params)}**_rest):"
    return "\n".join((head, *lines)) + "\n", names


def source_of_writer(
    cls: Any, base: type, fields: tuple[Field, ...], defaults: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The writer's source: `fields` (what the record writes) in order under their keys,
    the unknown fields after them. A field that always holds plain JSON is written as it
    is; another is made JSON by `written` (after the field's `write`), except a value its
    declared type's test accepts (`type(v) is str`, a list of the declared record class:
    a record built unchecked, a computed value). The leading fields written whatever
    their value are one dict display. `base` is the record base class (a field holding
    `base`s: `list[R]`)."""
    names: dict[str, Any] = {"written": written}

    def plain(declared: Field) -> bool:
        if declared.write is None and written_as_parsed(declared.type, declared.markers):
            return True  # JSON as parsed (`PlainJson`): no walk
        return (
            cls._checks_when_built  # else a value may be of any type
            and declared.name in cls._field_names  # not computed
            and declared.write is None
            and written_as_is(declared.type, declared.markers)
            and type(defaults.get(declared.name)) in PLAIN_JSON
        )

    lines = [f"def write_{cls.__name__}(self):"]
    inlined = [any(m is Inlined for m in f.markers) for f in fields]
    given_only = cls._given_only
    if given_only:  # each field written only when it was given
        lines.append("    given = self._given")
    head: list[str] = []  # the leading fields written whatever their value
    got = [_getter(cls, n, declared.name, names) for n, declared in enumerate(fields)]
    for n, declared in enumerate(fields):
        if given_only or inlined[n] or declared.omit_none or declared.omit_empty:
            break
        if plain(declared):
            head.append(f"{declared.key!r}: {got[n]}")
        else:
            lines.append(f"    v{n} = {got[n]}")
            head.append(f"{declared.key!r}: {_value(n, declared, f'v{n}', base, names)}")
    lines.append(f"    out = {{{', '.join(head)}}}")
    for n, declared in enumerate(fields[len(head) :], len(head)):
        if inlined[n]:  # its record's fields, at its place (`Inlined`)
            written_lines = [f"    v = {got[n]}", "    if v is not None: out.update(v.to_json())"]
        else:
            written_lines = _field_writer(n, declared, got[n], plain(declared), base, names)
        if given_only and declared.name in cls._field_names:  # not a computed one
            lines.append(f"    if {declared.name!r} in given:")
            written_lines = ["    " + line for line in written_lines]
        lines += written_lines
    if not cls._write_only:  # (never read: it holds no unknown field)
        lines += [
            "    unknown = self._unknown",
            "    if unknown:",
            "        for key, value in unknown.items(): out.setdefault(key, value)",
        ]
    lines.append("    return out")
    return "\n".join(lines) + "\n", names


def _field_writer(
    n: int, declared: Field, got: str, plain: bool, base: type, names: dict[str, Any]
) -> list[str]:
    """The writer's lines that put field `n` (its value `got`) in `out`, unless it is to be
    left out."""
    key = repr(declared.key)
    value = "v" if plain else _value(n, declared, "v", base, names)
    if declared.omit_empty:
        return [f"    v = {got}", f"    if v: out[{key}] = {value}"]
    if declared.omit_none:
        return [f"    v = {got}", f"    if v is not None: out[{key}] = {value}"]
    if plain:
        return [f"    out[{key}] = {got}"]
    return [f"    v = {got}", f"    out[{key}] = {value}"]


def _getter(cls: Any, n: int, name: str, names: dict[str, Any]) -> str:
    """An expression of field `n`'s value: its slot, or a computed value's function called
    (not through the property)."""
    found = next((owner.__dict__[name] for owner in cls.__mro__ if name in owner.__dict__), None)
    if isinstance(found, property) and found.fget is not None:
        names[f"c{n}"] = found.fget
        return f"c{n}(self)"
    return f"self.{name}"


def _value(n: int, declared: Field, var: str, base: type, names: dict[str, Any]) -> str:
    """An expression of field `n`'s JSON, its value being `var`."""
    if declared.write is not None:
        names[f"w{n}"] = declared.write
        return f"None if {var} is None else written(w{n}({var}))"
    bare = declared.type
    if (test := _plain_json_test(bare, var)) is not None:
        return f"{var} if {test} else written({var})"  # `written` only for what the test refuses
    item = _record_items(bare, base)
    if item is not None:
        names[f"k{n}"] = item
        each = f"[i.to_json() if type(i) is k{n} else written(i) for i in {var}]"
        return f"{each} if type({var}) is list or type({var}) is tuple else written({var})"
    return f"written({var})"


def _record_items(declared: Any, base: type) -> type | None:
    """The record class of the items of a `list[R]` or `tuple[R, ...]`, else None."""
    kind, args = get_origin(declared), get_args(declared)
    if (kind, len(args)) != (list, 1) and (kind, args[1:]) != (tuple, (Ellipsis,)):
        return None
    return args[0] if isinstance(args[0], type) and issubclass(args[0], base) else None


def _plain_json_test(declared: Any, var: str) -> str | None:
    """A Python test of `var` true only for a value of type `declared` that is plain JSON,
    which `written` gives back as it is (None: no such test)."""
    if get_origin(declared) is Literal:
        kinds = {type(choice) for choice in get_args(declared)}
        if not kinds <= PLAIN_JSON:
            return None
        tests = (
            f"{var} is None" if kind is type(None) else f"type({var}) is {kind.__name__}"
            for kind in sorted(kinds, key=str)
        )
        return " or ".join(tests)
    test = accepted_as_is(declared, var)
    return None if test == "True" else test


def compiled(source: str, names: dict[str, Any], filename: str) -> Any:
    """The one function `source` defines, run with `names` as its globals."""
    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), names, namespace)  # generated: see the module doc
    (function,) = namespace.values()
    return function


def overrides(cls: Any, name: str, base: type) -> bool:
    """Whether a class between `cls` and `base` defines `name` (other than as `base`'s, or
    as a function built here)."""
    found = next(owner.__dict__[name] for owner in cls.__mro__ if name in owner.__dict__)
    return found is not base.__dict__[name] and not getattr(found, "generated", False)
