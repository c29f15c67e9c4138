"""A word's English stem: Snowball's English stemmer (Porter2), as the search engine's
own analyzer (tantivy's `Filter.stemmer("english")`) cuts it — "runs", "running" and
"run" are one stem. One stemmer for every part that compares words by meaning's
roughest cut (`memtab duplicates`, `memtab contradictions`, `memtab recall`), taken from
the engine every install has rather than a second stemmer library: the same stem as
snowballstemmer's for each of 211,711 words of the fixtures, docs, sources and
site-packages (26 Nov), in Rust.
"""

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
    """The stem of `word`, a lower-cased word with no space in it (worked out once per
    process)."""
    found = _stems.get(word)
    if found is None:
        with _lock:
            cut = _analyzer.analyze(word)
        found = _stems[word] = cut[0] if len(cut) == 1 else word
    return found
