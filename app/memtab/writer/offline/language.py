"""Which language a line of a transcript is in, and which languages the offline writer claims
(docs/formats.md §10.2)."""

from __future__ import annotations

import re

# Languages with real tuned-on sessions (tests/quality/split.txt): the writer writes what
# its prose rules find only in these.
CLAIMED_LANGUAGES = frozenset({"en", "ja", "pt"})

# A path is read from where its run of name characters begins (from each part of a long
# `a.a.a…`, the run was read again: quadratic).
_CODE = re.compile(r"`[^`]*`|https?://\S+|(?<![\w.-])[.-]*+\b[\w.-]*/[\w./{}-]+")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Small words (and letters) each Latin-script language has of its own; a word two of them
# share ("que", "de", "la", "no", "en") tells nothing and is left out.
_OWN_WORDS = {
    "en": _words(
        "the is are was were to of and in for with that this it on by not you be do don't "
        "never always use from at as or if when only must should"
    ),
    "pt": _words(
        "não é são estão você isso essa esse isto esta este uma um com em os do da dos "
        "das pelo pela ao tem têm deve devem sempre precisa precisam também então foi ser "
        "estar fazer ele ela seu sua eu agora aqui ainda mas já "
        # as it is often typed, without accents
        "nao voce vc entao tambem sao estao pra"
    ),
    "es": _words(
        "el los las del es un con en y usted esto eso más también tiene debe deben hay pero "
        "sí muy ahora aquí todavía hacer siempre"
    ),
    "fr": _words(
        "le les des du et est une pour avec dans pas ne qui ce cette il elle vous toujours "
        "jamais au aux sur sont c'est n'est j'ai"
    ),
    "de": _words(
        "der die das und ist nicht mit für auf ein eine zu den dem des immer nie auch wir ich "
        "bitte sind wird kein keine"
    ),
}
_OWN_LETTERS = {
    "pt": re.compile(r"[ãõ]|ção\b|ções\b"),
    "es": re.compile(r"[ñ¿¡]|ción\b|ciones\b"),
    "fr": re.compile(r"[èœù]|\b[ldjnc]'"),
    "de": re.compile(r"[äöüß]"),
}


def language_of(text: str) -> str:
    """The language a line of prose is in: "en", "ja", "zh", "ko", "pt", "es", "fr" or
    "de" (English when nothing says otherwise)."""
    prose = _CODE.sub(" ", text)
    if _KANA.search(prose):
        return "ja"
    if _HANGUL.search(prose):
        return "ko"
    if _HAN.search(prose):
        return "zh"
    prose = prose.casefold()
    words = _WORD.findall(prose)
    scores = {language: _score(language, words, prose) for language in _OWN_WORDS}
    best = max(scores, key=lambda language: (scores[language], language == "en"))
    return best if scores[best] > scores["en"] else "en"


def _score(language: str, words: list[str], prose: str) -> int:
    """How many signs of `language` a line of (casefolded) prose shows: its own small
    words, and its own letters counted twice."""
    letters = _OWN_LETTERS.get(language)
    own = sum(word in _OWN_WORDS[language] for word in words)
    return own + (2 * len(letters.findall(prose)) if letters else 0)


def is_claimed(text: str) -> bool:
    """Whether the writer's prose rules are checked in the language of `text`."""
    return language_of(text) in CLAIMED_LANGUAGES


_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")


def ended(text: str) -> str:
    """A note's sentence with its full stop: as it is when it has one, else "。" when it is
    written in Japanese, Chinese or Korean ("…コミット時には実行しない。"), "." otherwise."""
    if text.endswith((".", "!", "?", "。", "！", "？")):
        return text
    return text + ("。" if _CJK.search(text) else ".")
