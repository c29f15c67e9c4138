"""What ranked search counts: the words of a text (docs/formats.md §22.3), how much a
file's label weighs, and the line a result shows (BM25 ranks by them: `search_index.index`).

The MCP server's `search` answers "which memories are about this?", so it ranks rather
than filtering by substring as the window's search does (`components.search`). A file's
words are its text's, casefolded (letters and digits, so `kubectl`, `pnpm` and `v2` are words),
with its path and description counted `LABEL_WEIGHT` times: a file named for the query
outranks one that mentions it once.

Chinese and Japanese write no spaces and Korean attaches endings (검증 "verify": 재검증,
검증할), so a run of Han, kana and Hangul is no word: it gives its overlapping bigrams
(a lone character itself), as Lucene's CJKBigramFilter does. A query's run is one term,
its bigrams in order (`query_terms`): a phrase, all of them adjacent, so 검증 finds 재검증
and a three-character word is not found in bigrams scattered apart.
"""

from __future__ import annotations

import re

LABEL_WEIGHT = 3
SNIPPET_CHARS = 160
# Han, kana and Hangul letters (their punctuation, as ・ and 。, splits words as any does).
_CJK_LETTERS = (
    "\u1100-\u11ff\u3005-\u3007\u3021-\u3029\u3031-\u3035\u303b\u303c\u3041-\u3096"
    "\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7fb\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff"
)
_CJK = re.compile(f"[{_CJK_LETTERS}]")
# A run of CJK letters, or a word of any other letters and digits.
_PIECE = re.compile(f"[{_CJK_LETTERS}]+|[^\\W_{_CJK_LETTERS}]+")


def has_cjk(text: str) -> bool:
    """Whether `text` holds a Han, kana or Hangul letter (its words are then bigrams).
    An ASCII text is known at once: most are, and they cost no scan."""
    return not text.isascii() and _CJK.search(text) is not None


def is_cjk(word: str) -> bool:
    """Whether `word` (one of `tokens`) is a CJK bigram or lone character."""
    return _CJK.match(word) is not None


def bigrams(run: str) -> list[str]:
    """A CJK run's overlapping bigrams, in order (a lone character: itself)."""
    if len(run) < 2:
        return [run]
    return [run[at : at + 2] for at in range(len(run) - 1)]


def tokens(text: str) -> list[str]:
    """The words of `text`, casefolded (letters and digits; `_` and punctuation split),
    each CJK run as its bigrams."""
    words: list[str] = []
    for piece in _PIECE.findall(text.casefold()):
        if is_cjk(piece):
            words += bigrams(piece)
        else:
            words.append(piece)
    return words


def cjk_runs(folded: str) -> str:
    """The CJK runs of a casefolded text as the index keeps their positions (its `cjk`):
    each run's bigrams in a row, one run parted from the next by `0`, a word no run
    holds, so a run asked for is never found across two."""
    runs = (" ".join(bigrams(piece)) for piece in _PIECE.findall(folded) if is_cjk(piece))
    return " 0 ".join(runs)


def query_terms(query: str) -> list[str]:
    """What a query asks, each once in its order: its words, and for each CJK run its
    bigrams joined by spaces (a phrase: its bigrams in a row, `documents.words_query`)."""
    pieces = _PIECE.findall(query.casefold())
    terms = (" ".join(bigrams(piece)) if is_cjk(piece) else piece for piece in pieces)
    return list(dict.fromkeys(terms))


def surface(term: str) -> str:
    """The text a term of `query_terms` stands for (a phrase's bigrams joined back)."""
    parts = term.split(" ")
    return parts[0] + "".join(part[1:] for part in parts[1:])


def best_line(text: str, query: str) -> tuple[int, str] | None:
    """The 1-based line of `text` holding the most of `query`'s words (the first such),
    and a snippet of it at most SNIPPET_CHARS long around the first; None if none does."""
    wanted = set(query_terms(query))
    surfaces = [surface(term) for term in wanted]
    best: tuple[int, int, str] | None = None
    lines = text.splitlines()
    # A line holds a term only if its casefolded text holds the term's letters: only those
    # lines are split into words (casefolding adds or removes no line break).
    folded = text.casefold().splitlines() if not text.isascii() else None
    for number, line in enumerate(lines, 1):
        near = folded[number - 1] if folded is not None else line.lower()
        if not any(part in near for part in surfaces):
            continue
        found = _held(wanted, tokens(line)) if has_cjk(near) else _words_in(wanted, near)
        if found and (best is None or found > best[0]):
            best = (found, number, line)
            if found == len(wanted):
                break
    if best is None:
        return None
    _, number, line = best
    return number, _snippet(line.strip(), wanted)


def _words_in(wanted: set[str], folded: str) -> int:
    """`_held` of a casefolded line without CJK: how many of the terms stand in it as
    words (no letter or digit on either side; a CJK term is in no such line)."""
    found = 0
    for term in wanted:
        at = folded.find(term)
        while at >= 0:
            end = at + len(term)
            if (at == 0 or not folded[at - 1].isalnum()) and (
                end == len(folded) or not folded[end].isalnum()
            ):
                found += 1
                break
            at = folded.find(term, at + 1)
    return found


def _held(wanted: set[str], words: list[str]) -> int:
    """How many of the query's terms `words` hold (a phrase: its bigrams adjacent)."""
    found = 0
    present: set[str] | None = None
    joined: str | None = None
    for term in wanted:
        if " " in term:
            joined = f" {' '.join(words)} " if joined is None else joined
            found += f" {term} " in joined
        else:
            present = set(words) if present is None else present
            found += term in present
    return found


def _snippet(line: str, wanted: set[str]) -> str:
    if len(line) <= SNIPPET_CHARS:
        return line
    folded = line.casefold()
    starts = [folded.find(surface(word)) for word in wanted if surface(word) in folded]
    start = max(0, min(starts, default=0) - 40)
    piece = line[start : start + SNIPPET_CHARS - 2]
    return ("…" if start else "") + piece + "…"
