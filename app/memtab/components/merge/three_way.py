"""A conflict's three texts, ready for the three-way view (`gui.merge.three_way`).

Two sides changed one file — two machines (sync), a file-sync tool's copy beside its
original, or the editor's draft and the file on disk — and a person decides. The view
shows the common version (when one is known), each side with the lines it changed
tinted, and the text to keep, which the person edits. `three_way_texts` prepares all of
it off the GUI thread: decoding, the lines each side changed, the first merged draft.

The draft is the clean three-way merge when the sides' changes touch different lines
(`store.line_merge.merge_lines`, sync's own rule); otherwise it is "mine" as it stands
(the live file never holds conflict markers), for the person to change or replace with
one of the buttons.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from memtab.store.line_merge import merge_lines

Side = tuple[str | None, frozenset[int]]


@dataclass(frozen=True)
class ThreeWayTexts:
    """What the three-way view shows. A text is None when that side has no file (or
    there is no common version); `*_changed` are 0-based line numbers in that text."""

    base: str | None
    mine: str | None
    theirs: str | None
    mine_changed: frozenset[int]
    theirs_changed: frozenset[int]
    draft: str
    clean: bool
    """Whether `draft` is the merge of both sides' changes (False: it is `mine`)."""
    binary: bool = False
    """A side is not UTF-8 text: only keeping one side whole is offered."""
    labels: tuple[str, str, str] = ("Common version", "Mine", "Theirs")


def decode(data: bytes | None) -> str | None:
    """UTF-8 text, or ValueError when it is not text."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None


def changed_lines(reference: str | None, text: str | None) -> frozenset[int]:
    """The lines of `text` (0-based) that `reference` does not have at that place."""
    if text is None:
        return frozenset()
    lines = text.splitlines()
    if reference is None:
        return frozenset(range(len(lines)))
    matcher = difflib.SequenceMatcher(None, reference.splitlines(), lines, autojunk=False)
    changed: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed.update(range(j1, j2))
    return frozenset(changed)


def three_way_texts(
    base: bytes | None,
    mine: bytes | None,
    theirs: bytes | None,
    *,
    labels: tuple[str, str, str] = ("Common version", "Mine", "Theirs"),
) -> ThreeWayTexts:
    """The view's texts for a conflict (see the module doc). Without a common version
    each side is compared with the other."""
    try:
        texts = decode(base), decode(mine), decode(theirs)
    except ValueError:
        return ThreeWayTexts(None, None, None, frozenset(), frozenset(), "", False, True, labels)
    base_text, mine_text, theirs_text = texts
    if base_text is None:
        mine_changed = changed_lines(theirs_text, mine_text)
        theirs_changed = changed_lines(mine_text, theirs_text)
    else:
        mine_changed = changed_lines(base_text, mine_text)
        theirs_changed = changed_lines(base_text, theirs_text)
    draft, clean = mine_text or "", False
    if base_text is not None and mine_text is not None and theirs_text is not None:
        merged = merge_lines(base_text, mine_text, theirs_text, insertions="both")
        if merged.text is not None:
            draft, clean = merged.text, True
    return ThreeWayTexts(
        base_text, mine_text, theirs_text, mine_changed, theirs_changed, draft, clean, False, labels
    )
