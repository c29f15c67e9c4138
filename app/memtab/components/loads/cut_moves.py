"""Go to Claude Code's cut and Move lines past Claude Code's cut, without Qt
(docs/formats.md §17.6): what each refuses and why, where the cursor goes, and what the
editor takes once a move is made — `gui/loads/cut_actions.py` keeps the actions, the file
operation and the text widget.

- Both are for Claude Code's `MEMORY.md` (an auto memory's or a subagent's) only; a file
  it reads whole has no cut to go to and nothing to move.
- A move is of the text as the editor holds it. Once made, the editor takes what the index
  holds now — unless another file is open, or the text was typed in meanwhile — and
  follows the disk (it is saved: nothing is left to save).
"""

from __future__ import annotations

from dataclasses import dataclass

from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.claude.index import index_cut, is_cut_index, lines_past_cut

GO_TO_ONLY = "Go to the cut is for Claude Code's MEMORY.md"
MOVE_ONLY = "Move lines past the cut is for Claude Code's MEMORY.md"
NO_CUT = "Claude Code reads all of MEMORY.md: it has no cut"
NOTHING_TO_MOVE = "Claude Code reads all of MEMORY.md: nothing to move"


def is_cut_file(ref: MemoryFileRef | None) -> bool:
    """Whether `ref` (None: no file open) is a file Claude Code reads only to its cut."""
    return ref is not None and is_cut_index(ref.agent, ref.name)


def cut_line(text: str) -> int | str:
    """Where Go to the cut puts the cursor in `text`: the first line Claude Code does not
    read (1-based), or why it goes nowhere."""
    cut = index_cut(text).cut_at_line
    return NO_CUT if cut is None else cut


def move_refused(ref: MemoryFileRef | None, *, has_source: bool, text: str) -> str | None:
    """Why the lines past the cut of `text` (the file `ref`, its agent's source listed or
    not) cannot be moved (None: they can)."""
    if not has_source or not is_cut_file(ref):
        return MOVE_ONLY
    if not lines_past_cut(text):
        return NOTHING_TO_MOVE
    return None


@dataclass(frozen=True)
class MoveLanded:
    """What the editor does once a move is made."""

    take_text: bool
    """The editor's text becomes the index's as it is now (one undoable edit)."""
    follow: bool
    """The editor follows the disk for the file (saved)."""


class PendingMove:
    """The move under way, of the text of one file."""

    def __init__(self) -> None:
        self._moving: tuple[str, str] | None = None  # (the index's ref key, its text then)

    def started(self, key: str, text: str) -> None:
        """The lines past the cut of `text`, the file `key`'s, are being moved."""
        self._moving = (key, text)

    def landed(self, open_key: str | None, text_now: str) -> MoveLanded:
        """The move was made: the file `open_key` is open (None: none) holding `text_now`."""
        moving, self._moving = self._moving, None
        if moving is None or open_key is None or open_key != moving[0]:
            return MoveLanded(take_text=False, follow=False)
        return MoveLanded(take_text=text_now == moving[1], follow=True)
