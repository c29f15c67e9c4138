"""The blame gutter following the editor, without Qt: when the open file is blamed, what the
gutter says meanwhile, which answer it takes, when typing realigns the lines and where a
card's link leads — `gui/blame/feature.py` keeps the action, the timer, the job client,
the gutters and the card.

- Nothing is read while the gutter is hidden. Shown, the open file is blamed on each open,
  save and scan shown; a file blamed first says "Reading history…", no file "No history".
- An answer is taken only while the gutter shows and for the file still open (a file
  opened since has its own on the way).
- Typing realigns the lines once the file has a blame.
- A card's link: a run opens Runs… on its op; a trace dump opens in the Traces tab while
  it is on disk (else the status bar says it was pruned).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from memtab.file_protocol.file_ref import MemoryFileRef

NO_HISTORY = "No history"
READING = "Reading history…"
NO_BLAME = "No blame"

B = TypeVar("B")


@dataclass(frozen=True)
class Refresh:
    """What a refresh does: the gutter's word now (None: it keeps what it shows) and
    whether the open file is blamed."""

    status: str | None
    blame: bool


def cannot_blame(message: str) -> str:
    """The status bar when a blame failed."""
    return f"Cannot blame this file: {message}"


def trace_gone(name: str) -> str:
    """The status bar when a card's trace dump was pruned."""
    return f"The trace dump {name} is gone (pruned)"


class BlameFollow(Generic[B]):
    """The blame of the open file (see the module docstring); `B` is a file's blame."""

    def __init__(self) -> None:
        self.shown = False
        self.blame: B | None = None
        self.blamed: MemoryFileRef | None = None

    def refresh(self, open_ref: MemoryFileRef | None, *, closing: bool = False) -> Refresh:
        """Blame the file `open_ref` (None: none is open) again, unless hidden or closing."""
        if not self.shown or closing:
            return Refresh(None, blame=False)
        if open_ref is None:
            self.closed()
            return Refresh(NO_HISTORY, blame=False)
        if open_ref != self.blamed:
            self.blame, self.blamed = None, open_ref
            return Refresh(READING, blame=True)
        return Refresh(None, blame=True)

    def closed(self) -> None:
        """The open file was closed."""
        self.blame, self.blamed = None, None

    def answered(self, ref: MemoryFileRef, blame: B, open_ref: MemoryFileRef | None) -> bool:
        """A blame of `ref` came, `open_ref` open now: whether the gutter shows it."""
        if not self.shown or open_ref is None or open_ref != ref:
            return False
        self.blame, self.blamed = blame, ref
        return True

    def realigns(self) -> bool:
        """The text changed: whether its lines are matched again (after a pause)."""
        return self.shown and self.blame is not None

    def to_realign(self, *, closing: bool = False) -> tuple[MemoryFileRef, B] | None:
        """The file and blame the lines are matched against now (None: nothing to do)."""
        if self.blame is None or self.blamed is None or closing:
            return None
        return self.blamed, self.blame
