"""Plain records (`fs/plain_records.py`) and `Record`s name their fields alike in a file."""

from __future__ import annotations

import dataclasses
import importlib

from memtab.fs.plain_records import PlainRecord, camel_name
from memtab.fs.pydantic_once import to_camel
from memtab.fs.records import Record

RECORD_MODULES = (
    "memtab.blame.records",
    "memtab.check.records",
    "memtab.consolidation.records",
    "memtab.store.history.records",
    "memtab.sync.records",
    "memtab.writer.records",
)


def _subclasses(base: type) -> list[type]:
    found, pending = [], list(base.__subclasses__())
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def test_every_field_is_named_as_pydantic_names_it() -> None:
    """Memtab's own camelCase is pydantic's `to_camel` for every field it declares (the
    names in the files stay what they were)."""
    for module in RECORD_MODULES:
        importlib.import_module(module)
    records = _subclasses(Record)
    plain = _subclasses(PlainRecord)
    names = {name for cls in records for name in cls.model_fields}
    names |= {field.name for cls in plain for field in dataclasses.fields(cls)}
    assert len(records) > 20 and len(plain) >= 4
    assert {name: camel_name(name) for name in names} == {name: to_camel(name) for name in names}


def test_a_record_and_a_plain_record_write_and_read_alike() -> None:
    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Plain(PlainRecord):
        old_str: str
        line_count: int | None = None

    class Model(Record):
        old_str: str
        line_count: int | None = None

    raw = {"oldStr": "x", "lineCount": 3}
    plain, model = Plain.read(raw), Model.read(raw)
    assert plain == Plain(old_str="x", line_count=3) and model is not None
    assert plain.to_json() == model.to_json() == raw
    assert Plain.read({"old_str": "x"}) == Plain(old_str="x")  # populated by name too
    assert Plain.read({"lineCount": 1}) is None is Model.read({"lineCount": 1})
