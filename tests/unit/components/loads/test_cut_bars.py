"""What the editor's bar says of Claude Code's cut of MEMORY.md (no Qt): the lines it does
not read counted, in the right plural, for the line limit and the size limit; what the bar
says as the text changes (docs/formats.md §17.6)."""

from __future__ import annotations

from memtab.components.loads.loads import (
    NOTE_CHOICES,
    SAVE_CHOICES,
    CutBar,
    bar_now,
    cut_note,
    past_cut_warning,
)


def mnemonic(label: str) -> str | None:
    """The letter Alt takes a button by (after its `&`)."""
    at = label.find("&")
    return label[at + 1].lower() if 0 <= at < len(label) - 1 else None


def index(lines: int, width: int = 10) -> str:
    return "".join(f"- {n:0{width}d}\n" for n in range(1, lines + 1))


def test_the_note_counts_the_lines_not_read_in_the_right_plural() -> None:
    assert cut_note(index(200)) is None
    assert cut_note(index(201)) == (
        "Claude Code does not read 1 line of MEMORY.md, from line 201 on: it loads only its "
        "first 200 lines into a session."
    )
    assert cut_note(index(249)).startswith("Claude Code does not read 49 lines")  # type: ignore[union-attr]


def test_past_the_size_limit_the_note_names_it() -> None:
    wide = index(150, width=300)  # ~45,000 characters in 150 lines
    note = cut_note(wide)
    assert note is not None and note.endswith("its first 25,000 characters into a session.")


def test_a_save_waits_only_for_more_lines_past_the_cut_than_on_disk() -> None:
    assert past_cut_warning(index(249), index(249)) is None
    assert past_cut_warning(index(249), index(240)) is None
    assert past_cut_warning(index(200), index(201)) == (
        "Not saved: Claude Code would not read 1 line of MEMORY.md, from line 201 on — 1 "
        "more than the file on disk."
    )


def test_the_bars_follow_the_text() -> None:
    note = CutBar(True, cut_note(index(249)) or "", NOTE_CHOICES)
    assert bar_now("note", 49, index(249), index(249)) == note
    assert bar_now("note", 49, index(249), index(200)) is None  # within the cut: it goes
    warning = past_cut_warning(index(249), index(252)) or ""
    assert bar_now("save", 49, index(249), index(252)) == CutBar(False, warning, SAVE_CHOICES)
    assert bar_now("save", 52, index(249), index(249)) == note  # no more than on disk
    assert bar_now("save", 52, index(249), index(190)) is None
    # No bar: the note comes when lines go past a cut they were all within, not again.
    assert bar_now("none", 0, index(200), index(203)) == CutBar(
        True, cut_note(index(203)) or "", NOTE_CHOICES
    )
    assert bar_now("none", 49, index(249), index(252)) is None  # dismissed
    assert bar_now("none", 0, index(200), index(200)) is None


def test_every_button_has_its_own_letter() -> None:
    for choices in (NOTE_CHOICES, SAVE_CHOICES):
        letters = [mnemonic(label) for _id, label in choices]
        assert None not in letters and len(set(letters)) == len(letters)
