"""How the editor's message bar fits a message, without Qt."""

from __future__ import annotations

from memtab.components.editor.panel import BarFit, bar_fit, default_choice_of


def test_a_long_message_folds_until_more_shows_it() -> None:
    assert bar_fit(30, 40, expanded=False) == BarFit(False, "More", 40)  # it fits
    assert bar_fit(90, 40, expanded=False) == BarFit(True, "More", 40)
    assert bar_fit(90, 40, expanded=True) == BarFit(True, "Less", None)
    # Expanded, then made wide enough to fit: Less stays until folded again.
    assert bar_fit(30, 40, expanded=True) == BarFit(True, "Less", None)


def test_enter_picks_the_default_only_among_the_choices_offered() -> None:
    assert default_choice_of("compare", ["compare", "reload"]) == "compare"
    assert default_choice_of("compare", ["reload"]) is None
    assert default_choice_of(None, ["reload"]) is None
