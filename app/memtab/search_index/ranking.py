"""How ranked search weighs words: Okapi BM25 (docs/formats.md §22.3), the words of a
text, and the line a result shows.

The MCP server's `search` answers "which memories are about this?", so it ranks rather
than filtering by substring as the window's search does (`components.search`). A file's
words are its text's, casefolded (`\\w` runs, so `kubectl`, `pnpm` and `v2` are words),
with its path and description counted `LABEL_WEIGHT` times: a file named for the query
outranks one that mentions it once. The index (`search_index.index`) scores by these.
"""

from __future__ import annotations

import math
import re

# Okapi BM25's usual constants: term-frequency saturation and length normalisation.
K1 = 1.2
B = 0.75
LABEL_WEIGHT = 3
SNIPPET_CHARS = 160
_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The words of `text`, casefolded (letters and digits; `_` and punctuation split)."""
    return _WORD.findall(text.casefold())


def idf(count: int, holding: int) -> float:
    """A word's Okapi BM25 weight among `count` files of which `holding` hold it (never
    negative: a word in most files still counts a little)."""
    return math.log(1 + (count - holding + 0.5) / (holding + 0.5))


def best_line(text: str, query: str) -> tuple[int, str] | None:
    """The 1-based line of `text` holding the most of `query`'s words (the first such),
    and a snippet of it at most SNIPPET_CHARS long around the first; None if none does."""
    wanted = set(tokens(query))
    best: tuple[int, int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        found = len(wanted.intersection(tokens(line)))
        if found and (best is None or found > best[0]):
            best = (found, number, line)
            if found == len(wanted):
                break
    if best is None:
        return None
    _, number, line = best
    return number, _snippet(line.strip(), wanted)


def _snippet(line: str, wanted: set[str]) -> str:
    if len(line) <= SNIPPET_CHARS:
        return line
    folded = line.casefold()
    starts = [folded.find(word) for word in wanted if word in folded]
    start = max(0, min(starts, default=0) - 40)
    piece = line[start : start + SNIPPET_CHARS - 2]
    return ("…" if start else "") + piece + "…"
