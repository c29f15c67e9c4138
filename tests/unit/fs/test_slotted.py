"""A slotted class shows its fields in its repr, as the NamedTuple it replaced did."""

from __future__ import annotations

from memtab.fs.slotted import Slotted
from memtab.gui.actions import Conflict
from memtab.store.actors import ActorName


class _Point(Slotted):
    __slots__ = ("x", "y")

    def __init__(self, x: int) -> None:
        self.x = x


def test_the_repr_names_each_field_and_one_not_set() -> None:
    assert repr(_Point(3)) == "_Point(x=3, y=<unset>)"


def test_a_records_repr_reads_as_its_fields_in_a_failure_message() -> None:
    assert repr(Conflict("Ctrl+D", "delete", "bookmark")) == (
        "Conflict(first='delete', key='Ctrl+D', second='bookmark')"
    )
    assert "name=" in repr(ActorName("Consolidator", "consol"))


def test_a_slotted_record_takes_no_dict() -> None:
    point = _Point(1)
    assert not hasattr(point, "__dict__")
