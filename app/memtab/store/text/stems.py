"""A word's English stem (Snowball's Porter2) as the search engine's analyzer cuts it: one stemmer
for every part that compares words."""

from __future__ import annotations

import threading

import tantivy

_analyzer = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)
_stems: dict[str, str] = {}
_lock = threading.Lock()  # the analyzer is one Rust object, borrowed by each call


def english_stem(word: str) -> str:
    """The stem of a lower-cased word (worked out once per process)."""
    found = _stems.get(word)
    if found is None:
        with _lock:
            cut = _analyzer.analyze(word)
        found = _stems[word] = cut[0] if len(cut) == 1 else word
    return found
