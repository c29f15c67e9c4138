"""Resolve conflicts… without Qt: which conflict a listing selects, what a conflict allows
once its texts are read (a binary one: mine or theirs), and Keep both seen before it is
kept — a second press keeps it, an edit of the text shows it anew, one decision at a time."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.sync.conflicts import (
    ConflictsPresenter,
    Press,
    allowed,
    resolve_failed_text,
)


@dataclass(frozen=True)
class Conflict:
    key: str
    title: str = "notes.md"
    detail: str = ""
    mergeable: bool = True
    editable: bool = True


NOTES, META = Conflict("/memories/workspace/notes.md"), Conflict("meta", editable=False)


def test_a_listing_selects_the_conflict_asked_for_then_the_one_selected() -> None:
    presenter: ConflictsPresenter[Conflict] = ConflictsPresenter()
    assert presenter.listed([NOTES, META], None) == []  # none: the first
    assert presenter.listed([NOTES, META], "meta") == ["meta"]
    presenter.want(NOTES.key, show_both=False)
    assert presenter.listed([NOTES, META], "meta") == [NOTES.key, "meta"]
    assert presenter.listed([NOTES, META], "meta") == ["meta"]  # asked once
    assert presenter.item("meta") == META and presenter.item("gone") is None


def test_a_binary_conflict_is_kept_whole_and_a_sidecar_is_not_edited() -> None:
    text = allowed(NOTES, binary=False)
    assert text.buttons == {"mine": True, "theirs": True, "both": True, "merged": True}
    assert text.editable
    binary = allowed(NOTES, binary=True)
    assert binary.buttons == {"mine": True, "theirs": True, "both": False, "merged": False}
    sidecar = allowed(META, binary=False)
    assert sidecar.buttons["both"] and not sidecar.buttons["merged"] and not sidecar.editable


def test_keep_both_shows_its_result_first_and_keeps_it_on_the_second_press() -> None:
    presenter: ConflictsPresenter[Conflict] = ConflictsPresenter()
    assert presenter.press("both", NOTES) is Press.SHOW_BOTH
    presenter.both_shown = True
    assert presenter.press("both", NOTES) is Press.RESOLVE
    assert presenter.merged_edited() and not presenter.merged_edited()
    assert presenter.press("both", NOTES) is Press.SHOW_BOTH  # edited: shown again
    assert presenter.press("both", META) is Press.RESOLVE  # not editable: kept at once
    assert presenter.press("mine", None) is Press.NOTHING


def test_one_decision_at_a_time_and_its_end_is_its_own() -> None:
    presenter: ConflictsPresenter[Conflict] = ConflictsPresenter()
    presenter.deciding = 7
    assert presenter.press("mine", NOTES) is Press.NOTHING
    assert not presenter.ended(8) and presenter.deciding == 7
    assert presenter.ended(7) and presenter.deciding is None
    assert resolve_failed_text("SyncError: the file changed since") == "the file changed since"


def test_an_editor_bars_keep_both_shows_its_result_once_the_texts_are_read() -> None:
    presenter: ConflictsPresenter[Conflict] = ConflictsPresenter()
    presenter.want(NOTES.key, show_both=True)
    presenter.listed([NOTES], None)
    assert not presenter.show_both_now(META, True)
    assert presenter.show_both_now(NOTES, True)
    assert not presenter.show_both_now(NOTES, True)  # once
