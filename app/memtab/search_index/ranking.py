"""What ranked search counts (docs/formats.md §22.3): a text's casefolded words, CJK runs as bigrams
(as Lucene's CJKBigramFilter), the label weighted `LABEL_WEIGHT` times, and the line a result
shows."""

from __future__ import annotations

import re

LABEL_WEIGHT = 3
SNIPPET_CHARS = 160
# Han, kana and Hangul letters.
_CJK_LETTERS = (
    "\u1100-\u11ff\u3005-\u3007\u3021-\u3029\u3031-\u3035\u303b\u303c\u3041-\u3096"
    "\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7fb\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff"
)
_CJK = re.compile(f"[{_CJK_LETTERS}]")
# A CJK run, or a word of other letters and digits.
_PIECE = re.compile(f"[{_CJK_LETTERS}]+|[^\\W_{_CJK_LETTERS}]+")


def has_cjk(text: str) -> bool:
    """Whether `text` holds a Han, kana or Hangul letter (ASCII known at once)."""
    return not text.isascii() and _CJK.search(text) is not None


def is_cjk(word: str) -> bool:
    """Whether `word` (one of `tokens`) is a CJK bigram or lone character."""
    return _CJK.match(word) is not None


def bigrams(run: str) -> list[str]:
    """A CJK run's overlapping bigrams, in order (a lone character: itself)."""
    return [run[at : at + 2] for at in range(len(run) - 1)] or [run]


def tokens(text: str) -> list[str]:
    """The words of `text`, casefolded, each CJK run as its bigrams."""
    pieces = _PIECE.findall(text.casefold())
    return [word for piece in pieces for word in (bigrams(piece) if is_cjk(piece) else [piece])]


def cjk_runs(folded: str) -> str:
    """A text's CJK runs as the index keeps their positions: bigrams in a row, runs parted by
    `0`."""
    runs = (" ".join(bigrams(piece)) for piece in _PIECE.findall(folded) if is_cjk(piece))
    return " 0 ".join(runs)


def query_terms(query: str) -> list[str]:
    """What a query asks, each once: its words, and each CJK run's bigrams as a phrase."""
    pieces = _PIECE.findall(query.casefold())
    terms = (" ".join(bigrams(piece)) if is_cjk(piece) else piece for piece in pieces)
    return list(dict.fromkeys(terms))


def surface(term: str) -> str:
    """The text a term of `query_terms` stands for (a phrase's bigrams joined back)."""
    parts = term.split(" ")
    return parts[0] + "".join(part[1:] for part in parts[1:])


def best_line(text: str, query: str) -> tuple[int, str] | None:
    """The 1-based line of `text` holding most of `query`'s words, with a snippet around the first;
    None if none does."""
    wanted = set(query_terms(query))
    surfaces = [surface(term) for term in wanted]
    best: tuple[int, int, str] | None = None
    lines = text.splitlines()
    # Only lines whose casefolded text holds a term's letters are split into words.
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
    """How many terms stand as words in a casefolded line without CJK."""
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
