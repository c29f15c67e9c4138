"""The words of a conflict's choices, one vocabulary wherever a person decides one: *mine* is
the side this window holds, *theirs* the other (`KEEP_MINE.label` "Keep &mine", `.button`,
`.done` "kept mine"). The text not kept stays in history (§14.2), the sync repository's
(§18.4) or behind "Restore my draft"."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConflictChoice:
    """One way to decide a conflict, in words."""

    id: str
    """Stable: what the choice is called in code, sync's and the copies' engines."""
    label: str
    """The button's text with its mnemonic ("Keep &mine")."""
    tip: str
    """What it does, in a sentence (the button's tooltip)."""
    done: str
    """What was done, after it ("kept mine")."""

    @property
    def button(self) -> str:
        """The label without its mnemonic, in words (a status line, a palette's name)."""
        return self.label.replace("&", "")


COMPARE = ConflictChoice(
    "compare",
    "&Compare",
    "Both versions side by side, each side's changes tinted, and the text to keep",
    "",
)
KEEP_MINE = ConflictChoice(
    "mine",
    "Keep &mine",
    "Keep your version; theirs stays in history",
    "kept mine",
)
KEEP_THEIRS = ConflictChoice(
    "theirs",
    "Keep &theirs",
    "Take their version; yours stays in history (in the editor: Restore my draft)",
    "kept theirs",
)
KEEP_BOTH = ConflictChoice(
    "both",
    "Keep &both",
    "Every change of each side, nothing dropped; the text to keep shows the result first",
    "kept both",
)
KEEP_TEXT = ConflictChoice(
    "merged",
    "Keep the text &below",
    "Keep the text to keep, as you edited it",
    "kept the text you edited",
)
CHOICES = (COMPARE, KEEP_MINE, KEEP_THEIRS, KEEP_BOTH, KEEP_TEXT)
