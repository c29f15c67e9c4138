"""Resolve conflicts… without Qt: which conflict a new listing selects, which decisions a
conflict allows once its texts are read, and Keep both seen before it is kept (its result
shown in the text to keep; a second press keeps it, an edit of that text shows it anew)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from memtab.components import merge as choices

Decision = Literal["mine", "theirs", "both", "merged"]
DECISIONS: dict[Decision, choices.ConflictChoice] = {
    "mine": choices.KEEP_MINE,
    "theirs": choices.KEEP_THEIRS,
    "both": choices.KEEP_BOTH,
    "merged": choices.KEEP_TEXT,
}
"""Each decision's button (the editor's conflict bar's words), in the row's order."""
EMPTY_TEXT = "No conflicts: every file is as both sides agree."
RESOLVING = "Resolving…"
KEEP_BOTH_AGAIN = f"Press {choices.KEEP_BOTH.button} again to keep it."


class ConflictView(Protocol):
    """A conflict as listed (`components.sync.conflicts.ConflictItem`)."""

    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def mergeable(self) -> bool: ...
    @property
    def editable(self) -> bool: ...


ItemT = TypeVar("ItemT", bound=ConflictView)


class Press(enum.Enum):
    """What a decision's button does now."""

    NOTHING = "nothing"
    SHOW_BOTH = "show both"  # show Keep both's result in the text to keep; say so
    RESOLVE = "resolve"


@dataclass(frozen=True)
class Allowed:
    """The decisions a conflict allows once its texts are read, and whether the text to
    keep may be edited."""

    buttons: dict[Decision, bool]
    editable: bool


def allowed(item: ConflictView, *, binary: bool) -> Allowed:
    """Mine and theirs always; both where sync's rules merge it and it is text; the text
    below where it may be edited and is text."""
    return Allowed(
        {
            "mine": True,
            "theirs": True,
            "both": item.mergeable and not binary,
            "merged": item.editable and not binary,
        },
        item.editable and not binary,
    )


def resolve_failed_text(message: str) -> str:
    """A refused decision's reason, without the job's prefix."""
    return message.split(": ", 1)[-1]


class ConflictsPresenter(Generic[ItemT]):
    """The dialog's state: the conflicts listed, the one to select once listed (and
    whether to show Keep both's result for it), whether that result is shown, and the
    decision under way."""

    def __init__(self) -> None:
        self.items: list[ItemT] = []
        self.deciding: int | None = None
        self.both_shown = False
        self._wanted: str | None = None
        self._both_for: str | None = None

    def want(self, key: str, *, show_both: bool) -> None:
        """Select `key`'s conflict once listed (`show_both`: with Keep both's result)."""
        self._wanted = key
        self._both_for = key if show_both else None

    def listed(self, items: Sequence[ItemT], selected: str | None) -> list[str]:
        """Take a new listing; the keys to try selecting, in turn (none works: the first)."""
        self.items = list(items)
        wanted, self._wanted = self._wanted, None
        return [key for key in (wanted, selected) if key is not None]

    def item(self, key: object) -> ItemT | None:
        return next((found for found in self.items if found.key == key), None)

    def shown(self) -> None:
        """Another conflict is shown: Keep both's result is not."""
        self.both_shown = False

    def show_both_now(self, item: ConflictView, allowed_both: bool) -> bool:
        """Whether the texts just read are to show Keep both's result at once (an editor
        bar's Keep both asked for it)."""
        if self._both_for != item.key:
            return False
        self._both_for = None
        return allowed_both

    def press(self, decision: Decision, item: ConflictView | None) -> Press:
        """What pressing `decision` does now: nothing while one runs; Keep both of an
        editable text shows its result first."""
        if item is None or self.deciding is not None:
            return Press.NOTHING
        if decision == "both" and item.editable and not self.both_shown:
            return Press.SHOW_BOTH
        return Press.RESOLVE

    def merged_edited(self) -> bool:
        """The text to keep was edited: whether Keep both's result was shown (the next
        press shows it again, its message goes)."""
        was, self.both_shown = self.both_shown, False
        return was

    def ended(self, job_id: int) -> bool:
        """Whether the job that ended was the decision under way."""
        if job_id != self.deciding:
            return False
        self.deciding = None
        return True
