"""Mnemonics without Qt: the letter a text marks (`mnemonic`), a free one given
(`with_mnemonic`), a menu's entries each given its own (`menu_mnemonics`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

MNEMONIC = re.compile(r"(?<!&)&(?!&)(.)")  # A mnemonic's `&` and its letter (`&&` is a drawn `&`).
_WORD_START = re.compile(r"\b\w")


def mnemonic(text: str) -> str | None:
    """The letter `&` marks in `text` (lower case), or None."""
    found = MNEMONIC.search(text)
    return found.group(1).lower() if found else None


def without_mnemonic(text: str) -> str:
    """`text` with its mnemonic's `&` taken out (a drawn `&&` kept)."""
    return MNEMONIC.sub(r"\1", text)


def with_mnemonic(text: str, taken: set[str]) -> str:
    """`text` with a `&` before a letter not in `taken` — a word's first letter if one is
    free, else any other — or unchanged when every letter is taken."""
    firsts = [match.start() for match in _WORD_START.finditer(text)]
    others = [index for index, char in enumerate(text) if char.isalnum()]
    for index in [*firsts, *others]:
        if text[index].lower() not in taken:
            return f"{text[:index]}&{text[index:]}"
    return text


def menu_mnemonics(texts: Sequence[str]) -> list[str]:
    """The entries of one menu, each with a letter no other has: a marked letter is kept unless an
    earlier entry marks it; others get a free one (`with_mnemonic`), or none when none is free."""
    taken: set[str] = set()
    kept: list[str | None] = []
    for text in texts:
        letter = mnemonic(text)
        if letter is not None and letter not in taken:
            taken.add(letter)
            kept.append(text)
        else:
            kept.append(None)
    marked: list[str] = []
    for text, known in zip(texts, kept, strict=True):
        if known is not None:
            marked.append(known)
            continue
        given = with_mnemonic(without_mnemonic(text), taken)
        if (letter := mnemonic(given)) is not None:
            taken.add(letter)
        marked.append(given)
    return marked
