"""The API keys Memtab holds, hidden whatever their shape: servers echo a key back in
error messages (`memtab.llm.http`), and a trace dump copies requests, replies and errors."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memtab.redact.rules import REDACTED

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
