"""Mnemonics without Qt: the letter a text marks, a free one given, and a menu's entries
each with a letter no other entry of it has."""

from __future__ import annotations

from memtab.components.window.mnemonics import (
    menu_mnemonics,
    mnemonic,
    with_mnemonic,
    without_mnemonic,
)


def test_the_letter_a_text_marks_and_a_drawn_ampersand() -> None:
    assert mnemonic("Tr&ust") == "u"
    assert mnemonic("Save && close") is None
    assert without_mnemonic("Save && &close") == "Save && close"


def test_a_free_letter_is_a_words_first_if_one_is_free_else_any() -> None:
    assert with_mnemonic("Recently deleted", {"r"}) == "Recently &deleted"
    assert with_mnemonic("Redo", {"r"}) == "R&edo"
    assert with_mnemonic("Go", {"g", "o"}) == "Go"


def test_two_entries_marking_one_letter_keep_it_for_the_first_and_the_second_another() -> None:
    # View's T was Traces' and Trust's: the letter moved between them and ran neither.
    marked = menu_mnemonics(["&Traces", "&Files", "&Trust: duplicates"])
    assert marked[:2] == ["&Traces", "&Files"]
    assert mnemonic(marked[2]) not in {"t", "f"}
    assert without_mnemonic(marked[2]) == "Trust: duplicates"


def test_an_entry_without_a_letter_gets_one_no_entry_has_and_marked_ones_stay() -> None:
    marked = menu_mnemonics(["Split", "&Source", "Pre&view", "&Pin"])
    assert marked[1:] == ["&Source", "Pre&view", "&Pin"]
    assert marked[0] == "Sp&lit"  # S and P are marked by entries after it
    letters = [mnemonic(text) for text in marked]
    assert len(set(letters)) == len(letters)


def test_an_entry_left_without_a_letter_when_none_of_its_is_free() -> None:
    assert menu_mnemonics(["&Go", "&On", "Go"]) == ["&Go", "&On", "Go"]
