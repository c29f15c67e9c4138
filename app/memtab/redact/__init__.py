"""Redaction (docs/formats.md §12): one package, one token, `[REDACTED_SECRET]`. `rules.py` (and
`tokens.py`) hold the rules and `redact_outgoing`/`redact_json`; here are `redact_view` (what a
model saw, so its edits keep the secrets) and `KeyScrubber` (the keys Memtab holds, whatever
their shape). The rules are our own, one per documented format (detect-secrets' plugins miss
vendors' prefixes and leave most of a token in place)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memtab.redact.rules import (
    PRIVATE_RULE,
    REDACTED,
    RULES,
    Rule,
    redact_json,
    redact_outgoing,
    redact_private,
    redact_secrets,
    secret_labels,
    secrets_named,
)

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


def lines_redacted(lines: Sequence[str]) -> list[str]:
    """Each of `lines` with what `redact_outgoing` hides in their whole text hidden: a secret
    over several lines (a private key's block) in each line it covers, though no one line of
    it is a secret alone."""
    hidden = [(start, end) for _, start, end in redact_view("\n".join(lines)).tokens]
    shown: list[str] = []
    offset = first_left = 0  # the hidden ranges are in order: each line looks at its own
    for line in lines:
        end = offset + len(line)
        while first_left < len(hidden) and hidden[first_left][1] <= offset:
            first_left += 1
        pieces: list[str] = []
        cursor = 0
        for start, stop in _ranges_from(hidden, first_left, end):
            first, last = max(start, offset) - offset, min(stop, end) - offset
            if first < last and last > cursor:
                pieces += [line[cursor : max(first, cursor)], REDACTED]
                cursor = last
        shown.append("".join(pieces) + line[cursor:])
        offset = end + 1
    return shown


def _ranges_from(
    ranges: Sequence[tuple[int, int]], index: int, end: int
) -> Iterator[tuple[int, int]]:
    """`ranges` from `index` on, those that start before `end`."""
    while index < len(ranges) and ranges[index][0] < end:
        yield ranges[index]
        index += 1


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


ALWAYS_HIDDEN_KEY_CHARS = 16


class KeyScrubber:
    """Replaces each of `keys` (blank ones ignored) by `REDACTED` in text and JSON.

    A key of 16 characters or more is hidden wherever it appears. A shorter one (Ollama and
    other local servers take any key, and users give them "x" or "ollama") is hidden only
    where it stands alone — not touching a letter or digit — so the words around it stay
    readable: the key "k" hides "key=k", never the k of "fake".
    """

    def __init__(self, keys: Iterable[str | None]) -> None:
        self._pattern = _keys_pattern({key for key in keys if key and key.strip()})

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        """`text` with every key hidden."""
        return self._pattern.sub(REDACTED, text) if self._pattern is not None else text

    def json(self, value: Any) -> Any:
        """A copy of a JSON-like value with every key hidden in its strings (member names
        too)."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.json(key): self.json(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.json(item) for item in value]
        return value


def _keys_pattern(keys: set[str]) -> re.Pattern[str] | None:
    """One alternation of every key, the longest first (a key inside another is not cut
    out of it first)."""
    if not keys:
        return None
    alternatives = [
        re.escape(key)
        if len(key) >= ALWAYS_HIDDEN_KEY_CHARS
        else rf"(?<![A-Za-z0-9]){re.escape(key)}(?![A-Za-z0-9])"
        for key in sorted(keys, key=len, reverse=True)
    ]
    return re.compile("|".join(alternatives))


__all__ = [
    "PRIVATE_RULE",
    "REDACTED",
    "RULES",
    "KeyScrubber",
    "RedactedView",
    "Rule",
    "lines_redacted",
    "redact_json",
    "redact_outgoing",
    "redact_private",
    "redact_secrets",
    "redact_view",
    "secret_labels",
    "secrets_named",
]
