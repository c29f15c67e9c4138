"""The generated writers and constructors (`fs/records/compiler.py`): each class gets its
own, a value its declared type accepts is written as it is, and a class built unchecked
builds as its generic constructor does."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest

from memtab.fs.records import (
    COMPILED_AT,
    AtLeast,
    OmitNone,
    Record,
    computed,
    field,
)
from memtab.fs.records.compiler import source_of_writer


class Colour(enum.Enum):
    RED = "red"


class Step(Record, write_only=True):
    name: str
    kind: Literal["run", "wait"] = "run"
    size: Annotated[int | None, OmitNone] = None


class Walk(Record, write_only=True):
    label: str
    steps: list[Step] = field(default_factory=list)
    pairs: tuple[Step, ...] = ()
    first: str = computed(lambda walk: walk.steps[0].name if walk.steps else "")


def test_an_unchecked_value_its_declared_type_does_not_accept_is_still_made_json() -> None:
    steps: Any = (Step(name="a", size=2), {"name": Colour.RED})  # not a list, not all Steps
    labelled: Any = Colour.RED
    walk = Walk(label=labelled, steps=steps, pairs=(Step(name="b"),))
    assert walk.to_json() == {
        "label": "red",
        "steps": [{"name": "a", "kind": "run", "size": 2}, {"name": "red"}],
        "pairs": [{"name": "b", "kind": "run"}],
        "first": "a",
    }
    writer, _ = source_of_writer(Walk, Record, Walk.written_fields(), Walk._defaults)
    assert "if type(v0) is str else written(v0)" in writer  # the call only for the others
    assert "c3(self)" in writer  # a computed value's function, not through its property


class Built(Record, checked_when_built=False):
    name: str
    tags: list[str] = field(default_factory=list)
    size: int = 0


def test_a_record_built_unchecked_gets_a_generated_constructor_that_builds_the_same() -> None:
    def built() -> list[Any]:
        one = Built(name="a")
        one.tags.append("t")  # each record its own default list
        with pytest.raises(TypeError, match=r"Built\(\) needs `name`"):
            Built()  # type: ignore[call-arg]
        with pytest.raises(TypeError, match=r"Built\(\) has no field `other`"):
            Built(name="a", other=1)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match=r"__init__\(\) takes 1 positional argument"):
            Built("a")  # type: ignore[misc]
        return [one, Built(name="b", size=2), Built(name="c").tags]

    generic, first = Built.__init__, built()
    for _ in range(COMPILED_AT):
        Built(name="x")
    assert Built.__init__ is not generic  # generated at its COMPILED_AT-th build
    assert built() == first == [Built(name="a", tags=["t"]), Built(name="b", size=2), []]

    class Sub(Built):
        more: str = "m"

    assert Sub(name="s").to_json() == {"name": "s", "tags": [], "size": 0, "more": "m"}


class Settled(Record):
    size: Annotated[int, AtLeast(1)] = 1


def test_a_checked_record_built_by_default_many_times_still_checks_what_it_is_given() -> None:
    # A window builds its default settings again and again; the next build given a value
    # must still refuse a bad one.
    for _ in range(COMPILED_AT + 1):
        Settled()
    with pytest.raises(ValueError, match="size"):
        Settled(size=0)


class Capped(Record):
    name: Annotated[str, AtLeast(1)]
    parts: tuple[str, ...] = ()
    more: list[str] = field(default_factory=list)


def test_a_checked_record_built_unchecked_holds_what_it_is_given_and_writes_the_same() -> None:
    # A checked record of values known good (a sync's thousand ops) built without reading
    # each again: the same record, its defaults made, its fields required.
    given = Capped.unchecked(name="a", parts=("x",))
    assert given == Capped(name="a", parts=["x"]) and given.to_json() == {  # type: ignore[arg-type]
        "name": "a",
        "parts": ["x"],
        "more": [],
    }
    given.more.append("m")
    assert Capped.unchecked(name="b").more == []  # each record its own default list
    assert Capped.unchecked(name="").name == ""  # not read: what it was given
    with pytest.raises(TypeError, match=r"Capped\(\) needs `name`"):
        Capped.unchecked()
    with pytest.raises(TypeError, match=r"Capped\(\) has no field `other`"):
        Capped.unchecked(name="a", other=1)
    with pytest.raises(AttributeError, match="immutable"):
        given.name = "c"  # type: ignore[misc]


def test_a_record_is_built_from_its_fields_only() -> None:
    with pytest.raises(TypeError, match="built from its fields"):

        class Own(Record):
            name: str

            def __init__(self, name: str) -> None: ...


@pytest.mark.parametrize("cls", [Step, Walk, Built, Capped])
def test_the_generated_source_is_python_a_reader_can_read(cls: type[Record]) -> None:
    writer, _ = source_of_writer(cls, Record, cls.written_fields(), cls._defaults)
    compile(writer, "writer", "exec")
    assert writer.startswith(f"def write_{cls.__name__}(self):")
