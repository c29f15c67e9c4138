"""A conflict's texts for the three-way view, prepared off the GUI thread, and the words of
its choices: *mine* is the side this window holds, *theirs* the other; the text not kept
stays in history (§14.2), the sync repository's (§18.4) or behind "Restore my draft"."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from memtab.store.text.line_merge import merge_lines, merge_union


@dataclass(frozen=True)
class ConflictChoice:
    """One way to decide a conflict, in words."""

    id: str  # Stable: what the choice is called in code, sync's and the copies' engines.
    label: str  # The button's text with its mnemonic ("Keep &mine").
    tip: str  # What it does, in a sentence (the button's tooltip).
    done: str  # What was done, after it ("kept mine").

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
    clean: bool  # Whether `draft` is the merge of both sides' changes (False: it is `mine`).
    binary: bool = False  # A side is not UTF-8 text: only keeping one side whole is offered.
    labels: tuple[str, str, str] = ("Common version", "Mine", "Theirs")
    mine_words: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    """Within `mine_changed`, the characters (start, end) of the words that changed."""
    theirs_words: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    places: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    """For base, mine and theirs, each line's place in one common order (the common
    version's line numbers, else theirs'): lines at one place are shown side by side."""
    both: str | None = None  # What Keep both keeps (None: a side is not text).


def decode(data: bytes | None) -> str | None:
    """UTF-8 text, or ValueError when it is not text."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None


@dataclass(frozen=True)
class _Compared:
    """One side against its reference: the lines that differ, the words that do, and
    each line's place in the reference."""

    changed: frozenset[int]
    words: LineSpans
    places: tuple[int, ...]


def _compare(reference: str | None, text: str | None) -> _Compared:
    if text is None:
        return _Compared(frozenset(), {}, ())
    lines = text.splitlines()
    if reference is None:
        return _Compared(frozenset(range(len(lines))), {}, tuple(range(len(lines))))
    reference_lines = reference.splitlines()
    matcher = difflib.SequenceMatcher(None, reference_lines, lines, autojunk=False)
    opcodes = matcher.get_opcodes()
    changed: set[int] = set()
    places: list[int] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "equal":
            changed.update(range(j1, j2))
        # A replaced run faces the lines it replaced, one for one while they last.
        places += [min(i1 + k, max(i1, i2 - 1)) for k in range(j2 - j1)]
    words = changed_words(reference_lines, lines, opcodes)
    return _Compared(frozenset(changed), words, tuple(places))


def three_way_texts(
    base: bytes | None,
    mine: bytes | None,
    theirs: bytes | None,
    *,
    labels: tuple[str, str, str] = ("Common version", "Mine", "Theirs"),
) -> ThreeWayTexts:
    """The view's texts for a conflict. Without a common version
    each side is compared with the other."""
    try:
        texts = decode(base), decode(mine), decode(theirs)
    except ValueError:
        return ThreeWayTexts(None, None, None, frozenset(), frozenset(), "", False, True, labels)
    base_text, mine_text, theirs_text = texts
    places: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    if base_text is None:
        mine_side = _compare(theirs_text, mine_text)
        theirs_side = _compare(mine_text, theirs_text)
        # Without a common version, theirs is the common order.
        places = ((), mine_side.places, tuple(range(len(theirs_side.places))))
    else:
        mine_side = _compare(base_text, mine_text)
        theirs_side = _compare(base_text, theirs_text)
        base_places = tuple(range(len(base_text.splitlines())))
        places = (base_places, mine_side.places, theirs_side.places)
    draft, clean = mine_text or "", False
    if base_text is not None and mine_text is not None and theirs_text is not None:
        merged = merge_lines(base_text, mine_text, theirs_text, insertions="both")
        if merged.text is not None:
            draft, clean = merged.text, True
    return ThreeWayTexts(
        base_text,
        mine_text,
        theirs_text,
        mine_side.changed,
        theirs_side.changed,
        draft,
        clean,
        False,
        labels,
        mine_side.words,
        theirs_side.words,
        places,
        _both(mine_text, theirs_text),
    )


def _both(mine: str | None, theirs: str | None) -> str | None:
    """What Keep both keeps, as sync's and the copies' engines do: a side that has no
    file gives way to the other."""
    if mine is None or theirs is None:
        return mine if theirs is None else theirs
    return merge_union(mine, theirs)


# Which words of a side's changed lines changed: a long line's words compared with the line
# it replaced; lines only added, or longer than `MAX_WORDS` (difflib is quadratic at worst),
# get no spans.
Span = tuple[int, int]  # Characters `start`..`end` (end excluded) of a line.
LineSpans = dict[int, tuple[Span, ...]]  # Spans by 0-based line number.

MAX_WORDS = 2000
_WORD = re.compile(r"\w+|[^\w\s]")


def changed_words(
    reference: Sequence[str],
    lines: Sequence[str],
    opcodes: Sequence[tuple[str, int, int, int, int]],
) -> LineSpans:
    """The spans of `lines` whose words `reference` does not have, by the line diff
    `opcodes` (difflib's, `reference` → `lines`)."""
    spans: LineSpans = {}
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "replace":
            continue
        # A replaced run's lines face the lines they replaced, one for one while they
        # last; the rest are new (or gone) whole.
        for k in range(min(i2 - i1, j2 - j1)):
            found = _line_words(reference[i1 + k], lines[j1 + k])
            if found:
                spans[j1 + k] = found
    return spans


def _line_words(old: str, new: str) -> tuple[Span, ...]:
    old_words = _WORD.findall(old)
    placed = list(_WORD.finditer(new))
    if len(old_words) > MAX_WORDS or len(placed) > MAX_WORDS:
        return ()
    new_words = [match.group() for match in placed]
    # The words before and after the change are the same: only the middle is compared
    # (one word changed in a long line compares one word).
    head = 0
    while head < min(len(old_words), len(new_words)) and old_words[head] == new_words[head]:
        head += 1
    tail = 0
    room = min(len(old_words), len(new_words)) - head
    while tail < room and old_words[-1 - tail] == new_words[-1 - tail]:
        tail += 1
    old_middle = old_words[head : len(old_words) - tail]
    new_middle = new_words[head : len(new_words) - tail]
    matcher = difflib.SequenceMatcher(None, old_middle, new_middle, autojunk=False)
    found: list[Span] = []
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            for match in placed[head + j1 : head + j2]:
                _add(found, new, match.start(), match.end())
    return tuple(found)


def _add(found: list[Span], line: str, start: int, end: int) -> None:
    """Add a span, joined to the last one when only spaces part them (one mark a phrase)."""
    if found and not line[found[-1][1] : start].strip():
        found[-1] = (found[-1][0], end)
    else:
        found.append((start, end))
