"""A file in sync conflict says so in its editor tab's bar (no Qt): what the bar says and
offers, when a tab shows it or takes it away, and what each choice does."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from memtab.components.editor.session import Situation
from memtab.components.merge import COMPARE, KEEP_BOTH, KEEP_MINE, KEEP_THEIRS
from memtab.components.sync.conflicts_view import Decision

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), never needed for a bar's words
    from memtab.sync.service import SyncConflict

PREFIX = "sync:"
"""The bar's action ids are the choices' ids after this (the editor's own never are)."""
CHOICES = (COMPARE, KEEP_MINE, KEEP_THEIRS, KEEP_BOTH)
DEFAULT_ACTION = PREFIX + COMPARE.id
"""Enter picks Compare."""
DECISIONS: dict[str, Decision] = {
    KEEP_MINE.id: "mine",
    KEEP_THEIRS.id: "theirs",
}


def bar_text(conflict: SyncConflict) -> str:
    """What the bar says of a conflict: the news first (two lines show at 683 px)."""
    return (
        "Sync conflict: another machine changed the same lines. You see this machine's "
        f"text until you decide ({conflict.reason})."
    )


def bar_actions() -> list[tuple[str, str]]:
    """The bar's buttons: (action id, words with their Alt+letter: the window's keys,
    `components.editor.session.bar_choice`)."""
    return [(PREFIX + choice.id, choice.label) for choice in CHOICES]


def not_resolved_text(message: str) -> str:
    """What the bar says first when a decision was refused."""
    return f"Not resolved: {message.split(': ', 1)[-1]}. "


class BarStep(enum.Enum):
    """What a tab's bar does as sync's conflicts change."""

    NOTHING = "nothing"
    SHOW = "show"
    CLEAR = "clear"


def bar_step(in_conflict: bool, situation: Situation, *, reading: bool, dismissed: bool) -> BarStep:
    """Show the bar where the file is in conflict (its tab asks nothing else, is not
    reading, and its bar was not dismissed); take it away where the conflict went."""
    if not in_conflict:
        return BarStep.CLEAR if situation is Situation.SYNC_CONFLICT else BarStep.NOTHING
    if situation is Situation.NONE and not reading and not dismissed:
        return BarStep.SHOW
    return BarStep.NOTHING


class Choice(enum.Enum):
    """What a choice of the bar does."""

    COMPARE = "compare"  # Resolve conflicts… on this file
    COMPARE_BOTH = "compare both"  # …with Keep both's result shown
    DECIDE = "decide"  # sync's engine decides (mine or theirs)


def choice_of(choice_id: str) -> Choice:
    """What the bar's choice `choice_id` does."""
    if choice_id == COMPARE.id:
        return Choice.COMPARE
    if choice_id == KEEP_BOTH.id:  # Keep both is seen before it is kept
        return Choice.COMPARE_BOTH
    return Choice.DECIDE
