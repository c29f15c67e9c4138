"""The generated readers and writers (`fs/records/compiler.py`): each class gets its own, a
value its plain type accepts is taken without its field's full reader, and everything
else reads exactly as the field's reader says."""

from __future__ import annotations

from typing import Annotated, Any

import pytest

from memtab.fs.records import (
    AtLeast,
    Count,
    KeepUnread,
    Key,
    Lenient,
    OmitNone,
    OrNone,
    Record,
    TrueOnly,
    field,
)
from memtab.fs.records.codec import Field
from memtab.fs.records.compiler import source_of_reader, source_of_writer


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
    """Make each field's full reader note its field's name (before the first read)."""
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


@pytest.mark.parametrize("cls", [Entry, Counted, Tree])
def test_the_generated_source_is_python_a_reader_can_read(cls: type[Record]) -> None:
    reader, _ = source_of_reader(cls, Record, cls.fields(), cls._defaults)
    writer, _ = source_of_writer(cls, cls.written_fields(), cls._defaults)
    compile(reader, "reader", "exec")
    compile(writer, "writer", "exec")
    assert reader.startswith(f"def read_{cls.__name__}(raw, problems=None):")
    assert writer.startswith(f"def write_{cls.__name__}(self):")


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
