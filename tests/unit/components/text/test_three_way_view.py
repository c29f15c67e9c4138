"""What the three-way view says, and which lines face each other, without Qt."""

from __future__ import annotations

from memtab.components import merge as choices
from memtab.components.merge import ThreeWayTexts
from memtab.components.text import (
    BOTH_NOTE,
    facing_line,
    merge_note,
)


def _texts(**changes: object) -> ThreeWayTexts:
    fields: dict[str, object] = {
        "base": "a\n",
        "mine": "b\n",
        "theirs": None,
        "mine_changed": frozenset({0}),
        "theirs_changed": frozenset(),
        "draft": "b\n",
        "clean": False,
        "labels": ("Common version", "This machine", "The other"),
    }
    fields.update(changes)
    return ThreeWayTexts(**fields)  # type: ignore[arg-type]


def test_the_note_says_what_the_text_to_keep_starts_as() -> None:
    assert merge_note(_texts(binary=True, clean=True)) == (
        "A side is not text: keep one of them whole."
    )
    assert merge_note(_texts(clean=True)).startswith("Both sides' changes merged")
    keep = choices.KEEP_TEXT.button.lower()
    assert merge_note(_texts(base=None)) == (
        f"No common version to merge from: this starts as this machine; edit it and {keep}, "
        "or keep a side with its button."
    )
    assert merge_note(_texts()).startswith("Both changed the same lines: this starts as this")
    assert choices.KEEP_BOTH.button in BOTH_NOTE


def test_the_line_facing_a_top_line() -> None:
    base = (0, 1, 2, 3, 4)
    mine = (0, 1, 1, 1, 2, 4)  # two lines added after line 1; line 3 removed
    assert facing_line(mine, 2, base) == 1
    assert facing_line(mine, 5, base) == 4
    assert facing_line(base, 3, mine) == 5  # its place is gone: the next line facing
    assert facing_line(base, 99, mine) == 5  # past the end: the last line
    assert facing_line((), 0, base) is None
    assert facing_line(base, 0, ()) is None
