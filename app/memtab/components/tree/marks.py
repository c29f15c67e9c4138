"""The marks features put on the tree's file rows: a few words on the row ("2 to check",
"sync conflict") and the sentence its tooltip says (no Qt: `gui/tree/model` shows them).
Each feature replaces its own marks as a whole; a row shows every feature's."""

import enum
from collections.abc import Mapping
from typing import NamedTuple, Protocol


class MarkTone(enum.Enum):
    """What a row's mark is about, for its colour."""

    CHECK = "check"  # the check found something to look at
    CONFLICT = "conflict"  # something the user must decide before it is settled
    UNSAVED = "unsaved"  # the editor holds changes to it not yet saved


class RowMark(NamedTuple):
    """A mark on a file row: its words and its tooltip's sentence."""

    text: str
    tone: MarkTone
    detail: str


class RowMarks:
    """Every feature's marks, by feature then row key."""

    def __init__(self) -> None:
        self._by_feature: dict[str, dict[str, RowMark]] = {}

    def on(self, key: str) -> tuple[RowMark, ...]:
        """The marks on a row, in the order the features first marked."""
        return tuple(
            mark for marks in self._by_feature.values() if (mark := marks.get(key)) is not None
        )

    def replace(self, feature: str, marks: Mapping[str, RowMark]) -> set[str]:
        """Make `marks` the feature's marks; the keys of the rows whose marks changed."""
        old = self._by_feature.get(feature, {})
        self._by_feature[feature] = dict(marks)
        return {key for key in old.keys() | marks.keys() if old.get(key) != marks.get(key)}


class MarkedRows(Protocol):
    """What marks the rows (the tree's model), as a feature that marks sees it."""

    # Show exactly these marks of `feature` (by row key), in place of its last ones.
    def set_marks(self, feature: str, marks: Mapping[str, RowMark]) -> None: ...
