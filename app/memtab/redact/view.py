"""A memory file as a model is shown it (`redact_outgoing`), and the model's edits of what
it saw made on the file, the secrets it never saw kept."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from memtab.redact.rules import PRIVATE_RULE, REDACTED, RULES

_Token = tuple[int, int, int]
"""A `REDACTED` of the view: where it starts in the view, and the original range it hides."""


@dataclass(frozen=True)
class RedactedView:
    """A text as a model is shown it (`redact_outgoing`), and the part of the original each
    `[REDACTED_SECRET]` of it hides, so that an edit the model makes of what it saw is made
    on the original, the secrets it never saw kept (`original_edit`)."""

    original: str
    text: str
    tokens: tuple[_Token, ...]

    @property
    def hides(self) -> bool:
        """Whether the view differs from the original."""
        return bool(self.tokens)

    def original_offset(self, offset: int, *, end: bool) -> int:
        """Where a place in the view is in the original; one inside a `REDACTED` is its
        hidden range's start (`end`: its end)."""
        return _to_original(self.tokens, offset, end=end)

    def original_edit(self, old: str, new: str) -> tuple[str, str] | None:
        """The edit "`old` → `new`" of the view as an edit of the original: `old` as the
        original text it shows, and each line of `new` that repeats a line of `old` holding
        a `REDACTED` as that line's original text (its secret kept). None when `old` is not
        in the view exactly once."""
        if not old or self.text.count(old) != 1:
            return None
        start = self.text.index(old)
        hidden: dict[str, list[str]] = {}
        place = start
        for line in old.split("\n"):
            if REDACTED in line:
                first = self.original_offset(place, end=False)
                last = self.original_offset(place + len(line), end=True)
                hidden.setdefault(line, []).append(self.original[first:last])
            place += len(line) + 1
        lines = [
            hidden[line].pop(0) if REDACTED in line and hidden.get(line) else line
            for line in new.split("\n")
        ]
        first = self.original_offset(start, end=False)
        last = self.original_offset(start + len(old), end=True)
        return self.original[first:last], "\n".join(lines)


def redact_view(text: str) -> RedactedView:
    """`text` as `redact_outgoing` gives it, with what each `REDACTED` hides."""
    lowered = text.lower()
    current = text
    tokens: list[_Token] = []
    for rule in (PRIVATE_RULE, *RULES):
        if not any(needle in lowered for needle in rule.needles):
            continue
        spans = rule.spans(current)
        if spans:
            current, tokens = _replaced(current, tokens, spans)
    return RedactedView(text, current, tuple(tokens))


def _to_original(tokens: Sequence[_Token], offset: int, *, end: bool) -> int:
    index = bisect.bisect_right(tokens, offset, key=lambda token: token[0]) - 1
    if index < 0:
        return offset
    start, hidden_start, hidden_end = tokens[index]
    if offset == start:
        return hidden_start
    if offset < start + len(REDACTED):
        return hidden_end if end else hidden_start
    return hidden_end + offset - start - len(REDACTED)


def _replaced(
    text: str, tokens: list[_Token], spans: Sequence[tuple[int, int]]
) -> tuple[str, list[_Token]]:
    """`text` with each span replaced by `REDACTED`, and the tokens after it (a token a span
    covers is part of the new one)."""
    pieces: list[str] = []
    kept: list[_Token] = []
    cursor = shift = 0
    remaining = list(tokens)
    for start, end in spans:
        hidden = (_to_original(tokens, start, end=False), _to_original(tokens, end, end=True))
        while remaining and remaining[0][0] < end:
            token = remaining.pop(0)
            if token[0] + len(REDACTED) <= start:
                kept.append((token[0] + shift, token[1], token[2]))
        pieces += [text[cursor:start], REDACTED]
        kept.append((start + shift, *hidden))
        shift += len(REDACTED) - (end - start)
        cursor = end
    kept += [(token[0] + shift, token[1], token[2]) for token in remaining]
    pieces.append(text[cursor:])
    return "".join(pieces), kept
