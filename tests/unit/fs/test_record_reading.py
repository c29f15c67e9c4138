"""Reading a record (`fs/records/reading.py`): each class reads by its own plan, a value its
plain type accepts is taken without its field's full reader, and everything else reads
exactly as the field's full reader says."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Annotated, Any

import pytest

from memtab.fs.records import (
    AtLeast,
    Count,
    Healed,
    KeepUnread,
    Key,
    Lenient,
    OmitNone,
    OrNone,
    Positional,
    Record,
    RecordError,
    TrueOnly,
    ValidEntries,
    ValidItems,
    field,
    note,
    reading,
)
from memtab.fs.records.codec import Field
from unit.fs.test_records import _subclasses
from unit.test_linear_patterns import app_modules


class Entry(Record):
    pinned: TrueOnly = False
    count: Count = 0
    name: str
    note: Annotated[OrNone[str], OmitNone] = None


class Counted(Entry, keep_unknown=True):
    tags: tuple[str, ...] = ()
    source: Annotated[str, Key("from"), Lenient("?")] = "?"


class Tree(Record):
    name: str
    children: tuple[Tree, ...] = field(default_factory=tuple)


def _counting_readers(cls: type[Record]) -> list[str]:
    """Make each field's full reader note its field's name (before the class's first read,
    which makes its reader with them)."""
    called: list[str] = []

    def counted(declared: Field) -> Any:
        read = declared.read

        def read_counted(value: Any) -> Any:
            called.append(declared.name)
            return read(value)

        return read_counted

    for declared in cls.fields():
        declared.read = counted(declared)
    return called


def test_a_value_its_plain_type_accepts_skips_the_fields_reader() -> None:
    class Plain(Record):
        pinned: TrueOnly = False
        count: Count = 0
        name: str
        size: int | None = None
        anything: Any = None

    called = _counting_readers(Plain)
    raw = {"pinned": True, "count": 3, "name": "n", "size": None, "anything": [1]}
    record = Plain.read(raw)
    assert called == []
    assert record == Plain(pinned=True, count=3, name="n", anything=[1])
    called.clear()
    assert Plain.read({"pinned": 1, "count": -2.5, "name": "n", "size": True}) is None
    assert called == ["size"]  # the healed ones heal inline: 1 → False, -2.5 → 0


def test_what_the_inline_tests_pass_to_the_full_reader_reads_as_it_says() -> None:
    raw = {"pinned": "yes", "count": 2.9, "name": "n", "note": 3, "from": 4, "tags": ["a"]}
    record = Counted.read(raw)
    assert record == Counted(count=2, name="n", tags=("a",), source="?")
    assert Counted.read({"name": "n", "note": "x", "source": "s"}) == Counted(
        name="n", note="x", source="s"
    )  # a field is read under its Python name too
    problems = Counted.read_problems({"count": 1, "tags": ["a", 2]})
    assert [problem.where for problem in problems] == [("name",), ("tags", 1)]


def test_each_class_reads_and_writes_its_own_fields_after_its_parent_was_built() -> None:
    assert Entry.read({"name": "n", "tags": ["a"]}) == Entry(name="n")
    assert Entry(name="n").to_json() == {"pinned": False, "count": 0, "name": "n"}

    class Later(Entry):
        size: int = 0

    later = Later.read({"name": "n", "size": 2, "note": "x"})
    assert later == Later(name="n", size=2, note="x")
    assert later.to_json() == {"pinned": False, "count": 0, "name": "n", "note": "x", "size": 2}
    assert Entry.read({"name": "n", "size": 2}) == Entry(name="n")


def test_unknown_fields_and_omitted_nones_are_written_as_declared() -> None:
    record = Counted.read_or_raise({"zz": 1, "name": "n", "from": "f", "count": 1})
    assert record.to_json() == {
        "pinned": False, "count": 1, "name": "n", "tags": [], "from": "f", "zz": 1
    }  # fmt: skip


def test_a_record_that_holds_its_own_kind_reads_at_every_depth() -> None:
    raw = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    tree = Tree.read_or_raise(raw)
    assert tree.children[0].children[0] == Tree(name="c")
    assert tree.to_json() == {
        "name": "a",
        "children": [{"name": "b", "children": [{"name": "c", "children": []}]}],
    }
    assert Tree.read({"name": "a", "children": [{"children": []}]}) is None


def test_an_optional_value_it_cannot_read_is_written_back_as_it_was() -> None:
    class Line(Record, keep_unknown=True):
        name: str
        moved: Annotated[OrNone[str], OmitNone, KeepUnread] = None

    raw = {"name": "n", "moved": 5, "zz": 1}
    line = Line.read_or_raise(raw)
    assert line.moved is None and line.unknown == {"zz": 1, "moved": 5}
    assert line.to_json() == raw
    assert Line.read_or_raise({"name": "n", "moved": "m"}).unknown == {}


def test_a_value_at_least_its_bound_skips_the_fields_reader() -> None:
    class Bounded(Record):
        size: Annotated[int, AtLeast(1)]
        name: Annotated[str, AtLeast(2)] = "ab"

    called = _counting_readers(Bounded)
    assert Bounded.read({"size": 3, "name": "abc"}) is not None and called == []
    assert Bounded.read({"size": 0}) is None and called == ["size"]
    assert Bounded.read({"size": 1, "name": "a"}) is None and called == ["size", "name"]


class Kept(Record, keep_unknown=True):
    name: Annotated[str, AtLeast(1)]
    moved: Annotated[OrNone[int], OmitNone, KeepUnread] = None
    parts: list[str] = field(default_factory=list)


class Mended(Record):
    count: Count = 0
    label: str = "-"

    @classmethod
    def before_read(cls, raw: Any) -> Any:
        return {"label": raw} if isinstance(raw, str) else raw

    def after_read(self) -> Mended:
        if self.label == "bad":
            raise ValueError("a bad label")
        return self


class Said(Record, given_only=True):
    name: str = ""
    size: int | None = None


class Pair(Positional):
    path: str
    entry: Entry


FIELD_VALUES = (None, True, 0, 1, -2.5, "", "x", "bad", [], ["a", 2], {}, {"name": "n"})


def _raws(cls: type[Record]) -> list[Any]:
    """Objects that read, objects that do not (each field given every value, or left out,
    or named in Python), unknown fields, and values that are no object."""
    keys = [declared.key for declared in cls.fields()] + ["name", "zz"]
    raws: list[Any] = [None, 3, "s", [], ["p", {"name": "n"}], ["p", {}], {}]
    for key in keys:
        raws += [{"name": "n", "path": "p", "entry": {"name": "e"}, key: v} for v in FIELD_VALUES]
        raws.append({k: "v" for k in keys if k != key})
    return raws


def _outcome(read: Any, raw: Any, collect: bool) -> tuple[Any, ...]:
    problems: list[Any] | None = [] if collect else None
    try:
        record = read(raw, problems)
    except RecordError as problem:
        return ("refused", str(problem), [str(p) for p in problems or ()])
    # by repr, not ==: 1, 1.0 and True are equal, and a field must read as the same type
    return ("read", repr(record), repr(record.unknown), repr(record.to_json()), problems)


def _by_full_readers(cls: type[Record]) -> Any:
    """A reader of `cls` that tests no value itself: every present value read by its
    field's full reader (what the plan's quick tests may only spare, never change)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reading, "quick_test", lambda bare, markers: (None, frozenset(), None))
        return reading.reader_of_record(cls, Record)


@pytest.mark.parametrize("cls", [Entry, Counted, Tree, Kept, Mended, Said, Pair])
def test_a_value_a_quick_test_takes_reads_as_its_full_reader_reads_it(cls: type[Record]) -> None:
    """A class's reader and one that sends every value to its field's full reader read
    every object alike: the same record (unknown fields, what it writes), or the same
    problems."""
    full = _by_full_readers(cls)
    for raw in _raws(cls):
        for collect in (False, True):
            expected = _outcome(full, copy.deepcopy(raw), collect)
            assert _outcome(cls._read_object, copy.deepcopy(raw), collect) == expected, raw


MORE_VALUES = (*FIELD_VALUES, False, 2.0, 10**20, "user", "2026-11-25T12:00:00Z", [1], {"a": 1})


def _raws_of_any(cls: type[Record]) -> Iterator[Any]:
    """Objects around one that reads as far as each field goes (each field the first value
    its reader takes, if any): each field given every value, or left out; unknown fields."""
    base: dict[str, Any] = {}
    for declared in cls.fields():
        for value in MORE_VALUES:
            with contextlib.suppress(RecordError):
                declared.read(value)
                base[declared.key] = value
                break
    yield from (None, "s", [], {}, base, {**base, "zz": [1]})
    for declared in cls.fields():
        yield {key: value for key, value in base.items() if key != declared.key}
        for value in MORE_VALUES:
            yield {**base, declared.key: value}


@pytest.mark.slow  # slow: ~130 classes, ~100 objects each, read twice two ways (~5 s)
def test_every_record_of_memtab_reads_as_its_full_readers_read() -> None:
    """As above for each of Memtab's record classes that are read (~130)."""
    list(app_modules())
    classes = [c for c in _subclasses(Record) if c.__module__.startswith("memtab.")]
    read = [cls for cls in classes if not cls._write_only]
    assert len(read) > 100
    for cls in read:
        full = _by_full_readers(cls)
        for raw in _raws_of_any(cls):
            for collect in (False, True):
                expected = _outcome(full, copy.deepcopy(raw), collect)
                got = _outcome(cls._read_object, copy.deepcopy(raw), collect)
                assert got == expected, (cls, raw)


# --- what a read forgave (`read_noting`) ------------------------------------------------


def _said_twice(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        note("not a text", value)
        return str(value)
    return value  # type: ignore[no-any-return]  # the type reads it, or refuses it


class Call(Record):
    name: Annotated[str, Healed(_said_twice)] = ""
    took: OrNone[int] = None


class Run(Record):
    calls: ValidItems[tuple[Call, ...]] = ()
    by_name: ValidEntries[dict[str, Call]] = field(default_factory=dict)
    first: Annotated[Call | None, Lenient(None)] = None
    size: OrNone[int] = None


def _where(found: list[RecordError]) -> list[tuple[tuple[str | int, ...], str, Any]]:
    return [(problem.where, problem.reason, problem.value) for problem in found]


def test_a_read_that_notes_says_what_each_lenient_field_forgave_and_where() -> None:
    raw = {
        "calls": [{"took": "5"}, 3, {"name": 7, "took": 2}, {"name": [], "took": "x"}],
        "byName": {"a": {"took": True}, "b": "no"},
        "first": "c",
        "size": 1.5,
    }
    run, found = Run.read_noting(raw)
    assert (
        run
        == Run.read(raw)
        == Run(
            calls=(Call(), Call(name="7", took=2)),
            by_name={"a": Call()},
            first=None,
            size=None,
        )
    )
    assert _where(found) == [
        (("calls", 0, "took"), "not an integer", "5"),
        (("calls", 1), "not an object", 3),
        (("calls", 2, "name"), "not a text", 7),  # mended, and said so
        (("calls", 3, "name"), "not a string", []),  # dropped: what it forgave inside is not
        (("byName", "a", "took"), "not an integer", True),
        (("byName", "b"), "not an object", "no"),
        (("first",), "not an object", "c"),
        (("size",), "not an integer", 1.5),
    ]


def test_a_read_that_notes_finds_nothing_where_nothing_was_forgiven() -> None:
    raw = {"calls": [{"name": "a", "took": 1}], "first": {"name": "b"}}
    assert Run.read_noting(raw) == (Run.read(raw), [])
    assert Run.read_noting({"calls": [{"took": 1}], "size": "big", "zz": 1})[1] != []
    assert Run.read_noting([1]) == (None, [])  # no record: nothing forgiven
    assert Run.read({"size": "x"}) == Run()  # a read that does not note notes nothing
