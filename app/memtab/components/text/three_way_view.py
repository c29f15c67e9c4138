"""What the three-way view says and which lines face each other, no Qt
(`gui.toolkit.text.three_way` shows it): the note under the text to keep, a side's button's
text, and the line facing another pane's top line (`ThreeWayTexts.places`)."""

from __future__ import annotations

import bisect

from memtab.components import merge as choices
from memtab.components.merge import ThreeWayTexts

NO_FILE = "(no file on this side: it was deleted or never made)"


def merge_note(texts: ThreeWayTexts) -> str:
    """What the note under the text to keep says of `texts` as it starts."""
    mine = texts.labels[1].lower()
    keep = choices.KEEP_TEXT.button.lower()
    if texts.binary:
        return "A side is not text: keep one of them whole."
    if texts.clean:
        return "Both sides' changes merged: check the text, edit it if needed."
    if texts.base is None:
        return (
            f"No common version to merge from: this starts as {mine}; edit it and {keep}, "
            "or keep a side with its button."
        )
    return (
        f"Both changed the same lines: this starts as {mine}; edit it and {keep}, or keep "
        "a side with its button."
    )


BOTH_NOTE = (
    f"This is what {choices.KEEP_BOTH.button} keeps: every line of each side, the lines "
    "both have once. Check it before you keep it; edit it, and "
    f"{choices.KEEP_TEXT.button} keeps your text instead."
)
"""The note while the text to keep shows what Keep both keeps."""


def facing_line(places: tuple[int, ...], top: int, other: tuple[int, ...]) -> int | None:
    """The line of the pane whose lines are at `other` places that faces line `top` of the
    pane at `places` (None: either pane has no lines)."""
    if not places or not other:
        return None
    place = places[min(top, len(places) - 1)]
    return min(bisect.bisect_left(other, place), len(other) - 1)
