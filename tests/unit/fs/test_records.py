"""The record codec (`fs/records/__init__.py`): how a declared record reads and writes its file."""

from __future__ import annotations

import copy
import importlib
import pickle
from typing import Annotated, Any, Literal

import pytest

from memtab.fs.records import (
    COMPILED_AT,
    AtLeast,
    Checked,
    Count,
    FiniteNumber,
    Healed,
    Inlined,
    Key,
    Lenient,
    NotWritten,
    OmitEmpty,
    OmitNone,
    OrNone,
    PlainJson,
    Positional,
    PositiveTime,
    Record,
    RecordError,
    TrimmedText,
    TrueOnly,
    ValidEntries,
    ValidItems,
    WrittenAs,
    camel_name,
    computed,
    field,
)

RECORD_MODULES = (
    "memtab.blame.records",
    "memtab.check.records",
    "memtab.consolidation.records",
    "memtab.loads.records",
    "memtab.store.history.records",
    "memtab.store.history.xum_journal",
    "memtab.store.proposals.records",
    "memtab.store.xum_backup",
    "memtab.sync.records",
    "memtab.traces.schema",
    "memtab.writer.records",
)


def _subclasses(base: type) -> list[type[Record]]:
    found, pending = [], list(base.__subclasses__())
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


# What pydantic's `to_camel` made of these names when it wrote the files (checked against it
# for all 211 field names when pydantic left): the keys stay what they were.
CAMEL_NAMES = {
    "id": "id",
    "sha256": "sha256",
    "after_sha256": "afterSha256",
    "old_str": "oldStr",
    "new_path": "newPath",
    "size_bytes": "sizeBytes",
    "last_run_at": "lastRunAt",
    "files_checked": "filesChecked",
    "x_y": "xY",
}


def test_every_field_keeps_the_name_pydantic_gave_it() -> None:
    """The files' names stayed what they were when pydantic wrote them, and every record's
    fields can be read (their types resolve)."""
    for module in RECORD_MODULES:
        importlib.import_module(module)
    records = [cls for cls in _subclasses(Record) if cls.__module__.startswith("memtab.")]
    assert len(records) > 40 and all(cls.fields() is not None for cls in records)
    assert {name: camel_name(name) for name in CAMEL_NAMES} == CAMEL_NAMES


class Sample(Record, keep_unknown=True):
    old_str: str
    line_count: Annotated[OrNone[int], OmitNone] = None
    items: ValidItems[tuple[int, ...]] = ()
    entries: ValidEntries[dict[str, bool]] = field(default_factory=dict)
    source: Annotated[OrNone[str], Key("from")] = None
    kind: Literal["a", "b"] = "a"


def test_a_record_reads_and_writes_its_object() -> None:
    raw = {"oldStr": "x", "lineCount": 3, "items": [1], "entries": {}, "from": "y", "kind": "b"}
    record = Sample.read(raw)
    assert record == Sample(old_str="x", line_count=3, items=(1,), source="y", kind="b", entries={})
    assert record is not None and record.to_json() == raw
    assert Sample.read({"old_str": "x"}) == Sample(old_str="x")  # read by Python name too
    assert Sample(old_str="x").to_json() == {
        "oldStr": "x", "items": [], "entries": {}, "from": None, "kind": "a"
    }  # fmt: skip


def test_a_record_without_a_required_field_or_of_a_wrong_type_is_none() -> None:
    assert Sample.read({"lineCount": 1}) is None
    assert Sample.read({"oldStr": 1}) is None
    assert Sample.read({"oldStr": "x", "kind": "c"}) is None
    assert Sample.read(["oldStr"]) is None
    with pytest.raises(RecordError) as raised:
        Sample.read_or_raise({"oldStr": True})
    assert raised.value.where == ("oldStr",) and raised.value.value is True


def test_lenient_fields_heal_and_keep_the_rest() -> None:
    raw = {"oldStr": "x", "lineCount": "3", "items": [1, "2", True, 4], "entries": {"a": 1}}
    assert Sample.read(raw) == Sample(old_str="x", items=(1, 4), entries={})
    assert Sample.read({"oldStr": "x", "items": "no", "entries": []}) == Sample(old_str="x")


def test_unknown_fields_come_back_after_the_known_ones() -> None:
    record = Sample.read({"zz": [1], "oldStr": "x"})
    assert record is not None and list(record.to_json())[-1] == "zz"
    assert record.unknown == {"zz": [1]}
    assert record.replaced(kind="b").to_json()["zz"] == [1]


class Healing(Record):
    count: Count = 0
    number: FiniteNumber = None
    at: PositiveTime = None
    flag: TrueOnly = False
    text: TrimmedText = None
    least: Annotated[int, AtLeast(1), Lenient(1)] = 1
    doubled: Annotated[int, Checked(lambda n: n * 2)] = 0
    version: Annotated[int, Healed(lambda _: 1)] = 1


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"count": 2.7, "number": 3.0, "at": 5.5, "flag": True, "text": " t "},
         Healing(count=2, number=3, at=5, flag=True, text="t")),
        ({"count": -1, "number": float("inf"), "at": 0, "flag": 1, "text": "  "}, Healing()),
        ({"count": "2", "number": "1", "at": True, "flag": "true", "text": 3}, Healing()),
        ({"least": 0, "version": 7}, Healing(least=1)),
    ],
)  # fmt: skip
def test_the_healing_values(raw: dict[str, Any], expected: Healing) -> None:
    assert Healing.read(raw) == expected


def test_a_record_is_built_as_it_is_read() -> None:
    assert Healing(count=-3, doubled=4).to_json() == Healing.read_or_raise({"doubled": 4}).to_json()
    assert Healing(doubled=4).doubled == Healing.read_or_raise({"doubled": 4}).doubled == 8
    with pytest.raises(RecordError):
        Sample(old_str=1)  # type: ignore[arg-type]


def test_a_record_is_an_immutable_value() -> None:
    record = Sample(old_str="x", items=(1, 2))
    with pytest.raises(AttributeError):
        record.old_str = "y"  # type: ignore[misc]
    assert hash(Healing(count=1)) == hash(Healing(count=1))
    assert pickle.loads(pickle.dumps(record)) == record == copy.deepcopy(record)
    assert repr(Healing()).startswith("Healing(count=0, number=None")
    with pytest.raises(TypeError, match="needs `old_str`"):
        Sample()  # type: ignore[call-arg]


class Nested(Record):
    samples: tuple[Sample, ...]
    first: Sample | None = None


def test_read_problems_names_each_refused_field_where_it_is() -> None:
    problems = Nested.read_problems({"samples": [{"oldStr": "x"}, {"oldStr": 2}], "first": 3})
    assert [problem.where for problem in problems] == [("samples", 1, "oldStr"), ("first",)]
    assert Nested.read_problems({"samples": []}) == []


class Tag(Record):
    name: str


class Written(Record, write_only=True):
    """An output: a computed field, one written as another value, one left out."""

    status: str
    ok: bool = computed(lambda written: written.status == "done")
    tag: Annotated[Tag | None, WrittenAs(lambda tag: tag.name)] = None
    where: Annotated[object, NotWritten] = None
    files: tuple[str, ...] = ()
    count: int = computed(lambda written: len(written.files))


def test_computed_fields_are_written_at_their_place_and_read_as_attributes() -> None:
    report = Written(status="done", tag=Tag(name="t"), files=("a", "b"), where=object())
    assert report.ok is True and report.count == 2
    assert report.to_json() == {
        "status": "done", "ok": True, "tag": "t", "files": ["a", "b"], "count": 2
    }  # fmt: skip
    assert list(report.to_json()) == ["status", "ok", "tag", "files", "count"]
    assert Written(status="x").to_json()["tag"] is None  # None is not written through
    assert report == report.replaced(files=("a", "b"))


def test_a_computed_field_is_no_argument_and_no_slot() -> None:
    with pytest.raises(TypeError, match="no field `ok`"):
        Written(status="done", ok=False)  # type: ignore[call-arg]
    assert "ok" not in Written.__slots__ and "status" in Written.__slots__
    assert repr(Written(status="x")) == "Written(status='x', tag=None, where=None, files=())"


def test_a_write_only_record_holds_any_type_and_is_never_read() -> None:
    files: Any = ["not", "checked"]
    assert Written(status="x", files=files).files is files
    with pytest.raises(TypeError, match="written only"):
        Written.read({"status": "x"})


class Readable(Record):
    status: str
    upper: str = computed(lambda readable: readable.status.upper())


def test_a_readable_record_ignores_its_computed_fields_when_read() -> None:
    assert Readable.read({"status": "a", "upper": "Z"}) == Readable(status="a")
    assert Readable(status="a").to_json() == {"status": "a", "upper": "A"}


class Kept(Record, keep_unknown=True):
    name: str
    size: int = 0


class KeptAndMore(Record, write_only=True):
    """A row and what a command adds to it."""

    before: str
    row: Annotated[Kept | None, Inlined]
    size: int  # the row's `size` too: the later one wins, at the row's place
    after: bool


def test_an_inlined_record_is_written_as_the_outputs_own_fields_at_its_place() -> None:
    row = Kept.read({"name": "n", "size": 1, "extra": [1]})
    assert row is not None
    written = KeptAndMore(before="b", row=row, size=2, after=True).to_json()
    assert list(written.items()) == [
        ("before", "b"), ("name", "n"), ("size", 2), ("extra", [1]), ("after", True)
    ]  # fmt: skip
    assert written == {"before": "b", **row.to_json(), "size": 2, "after": True}
    nothing = KeptAndMore(before="b", row=None, size=2, after=False).to_json()
    assert nothing == {"before": "b", "size": 2, "after": False}


class Pair(Positional):
    path: str
    config: Kept


@pytest.mark.parametrize(
    "raw", [{"path": "/p", "config": {}}, ["/p"], ["/p", {}, 3], [1, {}], ["/p", "x"], "/p", None]
)
def test_a_positional_record_is_a_list_of_its_values_and_nothing_else(raw: object) -> None:
    assert Pair.read(raw) is None


def test_a_positional_record_reads_and_writes_its_list() -> None:
    pair = Pair.read(["/p", {"name": "n", "more": {"a": 1}}])
    assert pair is not None and pair.path == "/p" and pair.config.unknown == {"more": {"a": 1}}
    assert pair.to_json() == ["/p", {"name": "n", "size": 0, "more": {"a": 1}}]
    assert Pair(path="/q", config=Kept(name="k")).to_json() == ["/q", {"name": "k", "size": 0}]
    assert Pair.read(pair) is pair
    with pytest.raises(RecordError, match="not a list of 2"):
        Pair.read_or_raise({"path": "/p"})


class Cache(Record):
    files: Annotated[dict[str, Any], PlainJson]
    rows: Annotated[list[Any], PlainJson] = field(default_factory=list)
    roots: ValidEntries[dict[str, Annotated[dict[str, Any], PlainJson]]] = field(
        default_factory=dict
    )


def test_plain_json_is_kept_as_parsed_and_written_without_a_walk() -> None:
    files, rows, root = {"a": [1, "x", {"b": None}]}, [[1], 2], {"k": [3]}
    cache = Cache.read({"files": files, "rows": rows, "roots": {"r": root, "bad": [1]}})
    assert cache is not None and cache.files is files and cache.rows is rows
    assert cache.roots == {"r": root} and cache.roots["r"] is root  # a bad root dropped
    written = cache.to_json()
    assert written["files"] is files and written["rows"] is rows
    assert written["roots"]["r"] is root


@pytest.mark.parametrize("raw", [{"files": []}, {"files": "x"}, {"files": {}, "rows": {}}])
def test_plain_json_checks_its_outer_kind(raw: dict[str, Any]) -> None:
    assert Cache.read(raw) is None


def test_plain_json_is_for_an_object_or_a_list() -> None:
    class Text(Record):
        text: Annotated[str, PlainJson]

    with pytest.raises(TypeError, match="PlainJson is for an object, a list or Any"):
        Text.read({"text": "x"})


class Given(Record, given_only=True):
    name: str | None = None
    size: int = 0
    part: Given | None = None
    shown: str = computed(lambda given: f"{given.name}:{given.size}")


def test_a_given_only_record_writes_the_fields_it_was_given_and_no_others() -> None:
    read = Given.read({"size": 3, "part": {"name": None}})
    assert read is not None and read.name is None and read.part is not None
    assert read.to_json() == {
        "size": 3,
        "part": {"name": None, "shown": "None:0"},
        "shown": "None:3",
    }
    assert (read.given("size"), read.given("name"), read.part.given("name")) == (True, False, True)
    assert Given(name="n").to_json() == {"name": "n", "shown": "n:0"}
    assert Given().to_json() == {"shown": "None:0"}
    assert Kept(name="k").given("size")  # another record: every field is


class Said(Record):
    text: Annotated[str, OmitEmpty] = ""
    items: Annotated[tuple[int, ...], OmitEmpty] = ()
    flagged: Annotated[bool, OmitEmpty] = False
    count: Annotated[int | None, OmitNone] = None


def test_an_omit_empty_field_is_written_when_it_holds_something() -> None:
    assert Said().to_json() == {}
    assert Said(count=0).to_json() == {"count": 0}  # a number: OmitNone, 0 is a value
    full = Said(text="t", items=(0,), flagged=True)
    assert full.to_json() == {"text": "t", "items": [0], "flagged": True}
    assert Said.read({}) == Said() and Said.read(full.to_json()) == full


class Growing(Record, frozen=False, checked_when_built=False):
    name: str
    parts: list[str] = field(default_factory=list)


def test_a_record_not_frozen_is_set_as_it_is_built_and_told_apart_by_identity() -> None:
    grown = Growing(name="a")
    grown.name, grown.parts = "b", ["p"]
    assert grown.to_json() == {"name": "b", "parts": ["p"]}
    twin = Growing(name="b", parts=["p"])
    assert grown != twin and len({grown, twin}) == 2 and {grown: 1}[grown] == 1
    for _ in range(COMPILED_AT):  # its generated constructor sets its fields as it is
        assert Growing(name="n").to_json() == {"name": "n", "parts": []}
    with pytest.raises(AttributeError):
        Healing().count = 2  # type: ignore[misc]  # the others stay values


class Either(Record):
    input: Annotated[dict[str, Any] | str, PlainJson]


def test_plain_json_may_be_an_object_or_a_text() -> None:
    arguments = {"cmd": ["ls"]}
    read = Either.read({"input": arguments})
    assert read is not None and read.input is arguments and read.to_json()["input"] is arguments
    assert Either.read({"input": "ls"}) == Either(input="ls")
    assert Either.read({"input": ["ls"]}) is None


class Early(Record):
    later: Later | None = None


# Built from its defaults before `Later` exists: a record given no value reads none of its
# fields' types (a module of the window's start builds its defaults as it loads).
EARLY = Early()


class Later(Record):
    name: str


def test_a_record_built_from_its_defaults_evaluates_none_of_its_fields_types() -> None:
    assert Early() == EARLY and EARLY.to_json() == {"later": None}
    assert Early.read({"later": {"name": "x"}}) == Early(later=Later(name="x"))
    with pytest.raises(RecordError):
        Early(later="x")  # type: ignore[arg-type]  # a value given is still read
