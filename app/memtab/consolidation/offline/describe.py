"""Descriptions the offline consolidator may add: built from what a file is about."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from memtab.consolidation.offline.units import split_units
from memtab.markdown import heading
from memtab.store.text.frontmatter import (
    clean_description,
    description_from_text,
    description_prefix,
    frontmatter_block,
    heading_text,
)

MIN_INDEX_TOPICS = 3
MIN_TITLE_TOPICS = 2  # a title says more with this many topics under it
MAX_TOPIC_CHARS = 32
MAX_DESCRIPTION_CHARS = 160

_DATE_LIKE = re.compile(r"\d[\d\-:/.TtZz+ ]*[\dZz]|\d")
# Ids (uuids, hashes) name an instance, not a subject: `Thread 019e3f4a-2fbe-…`.
# A dashed one has a digit within the 64 characters it starts with (looked for to the end of
# every dashed run, from each of its parts, a long run was read again and again).
_IDENTIFIER = re.compile(
    r"\b(?=[0-9a-f-]{0,64}\d)[0-9a-f]{4,}(?:-[0-9a-f]{2,})+\b|\b(?=[0-9a-f]*\d)[0-9a-f]{7,}\b"
)
_LATIN_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that say what kind of note a heading is, not what it is about ("Session Title",
# "Notes", "Résumé de session", "会话摘要"). A heading made only of these (and dates,
# numbers, punctuation) describes nothing.
_GENERIC_WORDS = _words(
    """
    title untitled session sessions summary summaries note notes memory memories index
    overview readme todo todos draft scratch misc miscellaneous general tips template
    document doc docs page new log logs journal ledger handoff context details info
    information section topic topics content contents user profile preferences preference
    decisions open items item questions status task tasks raw thread threads and of the a an
    for to in on my our your
    titre sans séance résumé resume mémoire sommaire aperçu brouillon modèle général divers
    contexte détails sujet de du des la le les et pour à en ma mes notre
    titel unbenannt sitzung zusammenfassung notizen gedächtnis übersicht entwurf vorlage
    allgemein sonstiges protokoll kontext und der die das für von zu mein unsere
    título titulo sin sesión sesion resumen notas memoria índice indice borrador plantilla
    varios registro detalles del el los las y para mi mis
    sem sessão sessao resumo memória rascunho modelo geral diversos detalhes do da dos das e
    meu minhas
    """
)
_GENERIC_CJK = sorted(  # longest first: 无标题 before 标题
    _words(
        "无标题 标题 会话 摘要 总结 笔记 备注 记忆 索引 概述 草稿 模板 日志 上下文 "
        "無題 タイトル セッション 要約 概要 メモ ノート 記憶 下書き テンプレート ログ "
        "제목 없음 세션 요약 메모 노트 기억 색인 목차 개요 초안 템플릿 로그"
    ),
    key=len,
    reverse=True,
)

_INDEX_WORD = {
    "en": "Index",
    "fr": "Sommaire",
    "de": "Übersicht",
    "es": "Índice",
    "pt": "Índice",
    "zh": "索引",
    "ja": "索引",
    "ko": "색인",
}
_STOPWORDS = {
    "en": _words("the is and to of for with in not on it this that are be use"),
    "fr": _words("le la les des est et pour avec une dans pas que qui sur du au"),
    "de": _words("der die das und ist nicht mit für ein eine auf den zu von im"),
    "es": _words("el la los las es para con una en no que del por se"),
    "pt": _words("os as é para com uma em não que do da por se"),
}


@dataclass(frozen=True)
class Description:
    """A description for a file and, in words, what it was built from."""

    text: str
    basis: str  # "its title" or "its 5 topics"


def is_generic_heading(text: str) -> bool:
    """Whether a heading only says what kind of note this is (see `_GENERIC_WORDS`)."""
    rest = text.lower()
    for term in _GENERIC_CJK:
        rest = rest.replace(term, " ")
    rest = _DATE_LIKE.sub(" ", _IDENTIFIER.sub(" ", rest))
    words = _LATIN_WORD.findall(rest)
    # Generic when nothing but generic words, digits and punctuation is left (CJK text
    # other than the generic terms survives as a word here).
    return all(word.strip("'’") in _GENERIC_WORDS for word in words)


def detect_language(text: str) -> str:
    """The language of a file's prose, as far as the index word needs it: ko, ja, zh, or
    the Latin-script language whose common words it uses most (en by default)."""
    hangul = kana = han = latin = 0
    for char in text:
        if "\uac00" <= char <= "\ud7a3":
            hangul += 1
        elif "\u3040" <= char <= "\u30ff":
            kana += 1
        elif "\u4e00" <= char <= "\u9fff":
            han += 1
        elif char.isalpha() and unicodedata.name(char, "").startswith("LATIN"):
            latin += 1
    letters = max(hangul + kana + han + latin, 1)
    if hangul / letters >= 0.1:
        return "ko"
    if kana / letters >= 0.05:
        return "ja"
    if han / letters >= 0.1:
        return "zh"
    words = [word.lower() for word in _LATIN_WORD.findall(text)]
    scores = {lang: sum(word in common for word in words) for lang, common in _STOPWORDS.items()}
    best = max(scores, key=lambda lang: (scores[lang], lang == "en"))
    return best if scores[best] else "en"


def _common_prefix_label(topics: Sequence[str]) -> str:
    """A shared `Label: ` every topic starts with (`Task Group: `), else ""."""
    first = topics[0]
    cut = max(first.find(": "), first.find("："))
    if cut <= 0:
        return ""
    prefix = first[: cut + 1]
    return prefix if all(topic.startswith(prefix) for topic in topics) else ""


def _index_text(language: str, topics: Sequence[str]) -> str:
    prefix = _common_prefix_label(topics)
    names = [topic[len(prefix) :].strip() for topic in topics]
    head = f"{_INDEX_WORD[language]}: "
    shown: list[str] = []
    for name in names:
        if len(head) + len(", ".join([*shown, name])) > MAX_DESCRIPTION_CHARS and shown:
            break
        shown.append(name)
    text = head + ", ".join(shown)
    return text + ", …" if len(shown) < len(names) else text


def build_description(lines: Sequence[str]) -> Description | None:
    """The description a file's headings support (see the module docstring), or None."""
    headings: list[tuple[int, str]] = []
    prose: list[str] = []
    for unit in split_units(lines):
        if unit.kind == "heading":
            found = heading(lines[unit.start])
            if found is not None and (text := heading_text(found.text)):
                headings.append((found.level, text))
        elif unit.kind in ("text", "label"):
            prose.append(" ".join(lines[unit.start : unit.end]))
    if not headings:
        return None
    top = min(level for level, _ in headings)
    tops = [text for level, text in headings if level == top]
    if len(tops) == 1:
        title = tops[0]
        below = [level for level, _ in headings if level > top]
        tops = [text for level, text in headings if below and level == min(below)]
        if not is_generic_heading(title):
            return _titled_topics(title, tops)
    topics = list(dict.fromkeys(text for text in tops if not is_generic_heading(text)))
    if len(topics) < MIN_INDEX_TOPICS:
        return None
    language = detect_language("\n".join([*prose, *topics]))
    return Description(_index_text(language, topics), f"its {len(topics)} topics")


def _titled_topics(title: str, topics: Sequence[str]) -> Description | None:
    """A title with the topics under it, or None when it has too few to add anything."""
    named = [topic for topic in dict.fromkeys(topics) if not is_generic_heading(topic)]
    if len(named) < MIN_TITLE_TOPICS or any(len(topic) > MAX_TOPIC_CHARS for topic in named):
        return None  # too little to add, or sections that are sentences, not topics
    shown: list[str] = []
    for topic in named:
        if len(f"{title}: {', '.join([*shown, topic])}") > MAX_DESCRIPTION_CHARS and shown:
            break
        shown.append(topic)
    text = f"{title}: {', '.join(shown)}" + (", …" if len(shown) < len(named) else "")
    return Description(text, f"its title and {len(shown)} topics")


def _yaml_line(value: str) -> str:
    plain = f"description: {value}"
    if description_from_text(f"---\n{plain}\n---\n") == value:
        return plain
    quoted = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'description: "{quoted}"'


def with_description(lines: list[str], description: Description) -> list[str] | None:
    """`lines` with the description added to (or as) frontmatter, or None when the file
    already has a description key, starts with something frontmatter must not precede, or
    has frontmatter YAML cannot take the key in."""
    block = frontmatter_block(description_prefix("\n".join(lines)))
    text = clean_description(description.text)
    if block is None:
        first = next((line for line in lines if line.strip()), "")
        if heading(first) is None:
            return None  # not a plain note: a marker line (`v1`) or prose comes first
        updated = ["---", _yaml_line(text), "---", *lines]
    elif "description" in block:
        return None
    else:
        updated = [lines[0], _yaml_line(text), *lines[1:]]
    check = description_prefix("\n".join(updated))
    return updated if description_from_text(check) == text else None
