"""`record_of`: a `--json` record made from an object's attributes of its fields' names, the
fields `given` taken from the call instead."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memtab.cli.common import record_of
from memtab.fs.records import Record


class _Row(Record, write_only=True):
    id: str
    size: int
    note: str | None = None


def test_each_field_is_the_attribute_of_its_name() -> None:
    made = record_of(_Row, SimpleNamespace(id="a", size=3, note="n", unrelated=1))
    assert made.to_json() == {"id": "a", "size": 3, "note": "n"}


def test_a_given_field_wins_and_needs_no_attribute() -> None:
    made = record_of(_Row, SimpleNamespace(id="a", note=None), size=7)
    assert made == _Row(id="a", size=7, note=None)


def test_a_field_neither_there_nor_given_is_refused() -> None:
    # a field the object lacks is never silently left at its default
    with pytest.raises(AttributeError, match="note"):
        record_of(_Row, SimpleNamespace(id="a", size=1))
