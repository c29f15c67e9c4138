"""A record class's writer and its unchecked constructor, each generated (`exec`) as one plain
function at its first write or `COMPILED_AT`th build, as fast as hand-written code;
`source_of_writer` / `source_of_init` give the text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from memtab.fs.records.codec import (
    ABSENT,
    PLAIN_JSON,
    Field,
    Marker,
    Reader,
    accepted_as_is,
    written,
    written_as_is,
    written_as_parsed,
)
from memtab.fs.records.reading import Default, slot_setter


class _Computed:
    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        self.compute = compute


def computed(compute: Callable[[Any], Any], *, init: Literal[False] = False) -> Any:
    """A value `compute(record)` derives, written at its declared place (not a constructor's)."""
    return _Computed(compute)


def is_computed(default: Any) -> bool:
    return type(default) is _Computed


class WrittenAs(Marker):
    """The field's value (when not None) written as `write(value)`."""

    __slots__ = ("write",)
    keeps_accepted = True  # reading is not its business

    def __init__(self, write: Callable[[Any], Any]) -> None:
        self.write = write


class _WritingMarker(Marker):
    """A marker that says only how a field is written, by being there."""

    __slots__ = ("name",)
    keeps_accepted = True  # reading is not its business

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NotWritten = _WritingMarker("NotWritten")
"""A field the record's JSON leaves out: `Annotated[tuple[str, ...], NotWritten]`."""

Inlined = _WritingMarker("Inlined")
"""A field whose record is written as the output's own fields, at its place."""


def not_read(name: str) -> Reader:
    """The reader of a write-only record's field: there is none."""

    def refuse(value: Any) -> Any:
        raise TypeError(f"`{name}` is written only, never read")

    return refuse


WriteFunction = Callable[[Any], dict[str, Any]]
"""`(record) -> JSON object`: a class's generated writer."""


def needs(cls: Any, name: str) -> None:
    raise TypeError(f"{cls.__name__}() needs `{name}`")


def no_field(cls: Any, given: dict[str, Any]) -> None:
    raise TypeError(f"{cls.__name__}() has no field `{next(iter(given))}`")


def source_of_init(
    cls: Any, field_names: tuple[str, ...], defaults: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The source of an unchecked record's constructor: keyword-only fields, defaults, slots set."""
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
            names[f"_s{n}"] = slot_setter(cls, name)
            lines.append(f"    _s{n}(_self, {value})")
    head = f"def init_{cls.__name__}(_self, *, {''.join(p + ', ' for p in params)}**_rest):"
    return "\n".join((head, *lines)) + "\n", names


def source_of_writer(
    cls: Any, base: type, fields: tuple[Field, ...], defaults: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The writer's source: the written fields in order, then the unknown fields; plain JSON taken
    as it is, other values through `written` unless their type's test accepts them."""
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
    """The lines that put field `n` (value `got`) in `out`, unless it is left out."""
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
    """An expression of field `n`'s value: its slot, or a computed value's function called."""
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
    """A test of `var` true only for plain JSON of type `declared` (None: none)."""
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
