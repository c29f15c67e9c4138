"""What a memory says in words: its content lines, their sentences, and their stems.

A memory's *content* is what it says, as the one line classifier (`memtab.markdown`)
tells it: its lines but the frontmatter (the file's own metadata), headings (titles),
blank lines, rules and fences. A content line's *statements* are its sentences (a
paragraph line may hold several). Words are compared as *stems*: lower-cased runs of
letters, digits and `_`, without the common English words that say nothing of a note's
subject (`STOP_WORDS`) nor the ones that only say how a rule is put (`PHRASING`), cut
to their stem by Snowball's English stemmer (`store.text.stems`): "runs", "running" and
"run" are one stem, so a note written again in other words shares its stems with the
first.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import NamedTuple

from memtab.markdown import LineKind, classify, text_lines
from memtab.store.text.near_duplicates import lowered_words
from memtab.store.text.stems import english_stem

STOP_WORDS = frozenset(
    {
        "a", "about", "after", "again", "all", "also", "always", "an", "and", "any", "are",
        "as", "at", "be", "because", "been", "before", "being", "but", "by", "can", "could",
        "did", "do", "does", "doing", "done", "each", "else", "every", "for", "from", "had",
        "has", "have", "here", "how", "however", "i", "if", "in", "into", "is", "it", "its",
        "just", "keep", "let", "like", "may", "me", "might", "more", "most", "must", "my",
        "need", "needs", "never", "no", "nor", "not", "now", "of", "off", "often", "on",
        "once", "one", "only", "or", "other", "our", "out", "over", "own", "per", "please",
        "same", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
        "there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
        "up", "us", "use", "used", "uses", "using", "very", "was", "we", "were", "what",
        "when", "where", "which", "while", "who", "why", "will", "with", "would", "yes", "yet",
        "you", "your",
        # what is left of a contraction ("don't": don, t) says how, not what
        "aren", "couldn", "didn", "doesn", "don", "hasn", "haven", "isn", "ll", "re",
        "shouldn", "ve", "wasn", "weren", "won", "wouldn",
    }
)  # fmt: skip
"""Words said of every subject (`always` and `never` included: they say how, not what)."""
PHRASING = frozenset(
    {
        "avoid", "back", "best", "better", "bring", "codebase", "convention", "conventions",
        "ensure", "ensures", "etc", "good", "house", "important", "instead", "note", "okay",
        "prefer", "preferred", "prefers", "rather", "remember", "repo", "repository", "rule",
        "rules", "switch", "switched", "tip", "way", "whenever",
        # a wish or a reminder is how a rule is put ("Dana wants X", "make sure to X",
        # "rule of thumb: X", "ideally X"); "stays"/"remains" say what "keep" says
        "want", "wants", "wanted", "ideally", "sure", "reminder", "thumb", "kindly",
        "stay", "stays", "stayed", "remain", "remains", "remained",
        # a light verb ("get committed", "gets a docstring") and a rule's "for all" ("ask
        # before deleting anything", "everyone reviews") say how, not what
        "get", "gets", "getting", "got", "gotten", "anything", "everything", "anyone",
        "everyone",
    }
)  # fmt: skip
"""Words that say how a rule is put, not what it is about (`Prefer pnpm over npm in this
repo` says what `Use pnpm, not npm` says): left out with the stop words."""
LEFT_OUT = STOP_WORDS | PHRASING
_CONTENT = frozenset({LineKind.TEXT, LineKind.LIST_ITEM, LineKind.CODE})
# A sentence ends at `.`, `!` or `?` followed by a space and what starts one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(\[])")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")


class ContentLine(NamedTuple):
    """A content line: its number (from 1), its text without a list marker, whether it is
    code (in a fenced block) and whether a list item."""

    number: int
    text: str
    code: bool
    item: bool = False


def content_lines(text: str) -> list[ContentLine]:
    """The content lines of a memory's text (see the module doc)."""
    lines = text_lines(text)
    found = []
    for index, (line, kind) in enumerate(zip(lines, classify(lines), strict=True)):
        if kind.kind in _CONTENT and line.strip():
            code = kind.kind is LineKind.CODE
            shown = line.strip() if code else _MARKER.sub("", line).strip()
            found.append(ContentLine(index + 1, shown, code, kind.kind is LineKind.LIST_ITEM))
    return found


@functools.lru_cache(maxsize=16384)
def statements(line: str) -> tuple[str, ...]:
    """The sentences of a content line (worked out once per line text)."""
    return tuple(part.strip() for part in _SENTENCE_END.split(line) if part.strip())


NUMBERS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
    "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
    "ninety": "90", "hundred": "100", "twice": "2",
}  # fmt: skip
"""Numbers written as words, as digits ("five percent" says "5%"; "one" is a pronoun as
often as a number, and stays a stop word)."""
SHORT = {
    "min": "minut", "mins": "minut", "sec": "second", "secs": "second", "hr": "hour",
    "hrs": "hour", "db": "databas", "dbs": "databas", "prod": "product", "dep": "depend",
    "deps": "depend", "config": "configur", "configs": "configur", "k8s": "kubernet",
    "msg": "messag", "dir": "directori", "dirs": "directori",
}  # fmt: skip
"""Short forms, as the stem of what they are short for ("prod" is production)."""
IRREGULAR = {
    form: english_stem(verb)
    for verb, forms in (
        ("write", "wrote written"), ("run", "ran"), ("build", "built"),
        ("break", "broke broken"), ("choose", "chose chosen"), ("give", "gave given"),
        ("take", "took taken"), ("make", "made"), ("send", "sent"), ("hold", "held"),
        ("begin", "began begun"), ("catch", "caught"), ("drive", "drove driven"),
        ("get", "got gotten"), ("grow", "grew grown"), ("know", "knew known"),
        ("lose", "lost"), ("mean", "meant"), ("pay", "paid"), ("say", "said"),
        ("see", "seen"), ("sell", "sold"), ("show", "shown"), ("speak", "spoke spoken"),
        ("teach", "taught"), ("tell", "told"), ("think", "thought"),
        ("throw", "threw thrown"), ("understand", "understood"), ("forget", "forgot forgotten"),
        ("freeze", "froze frozen"), ("hide", "hid hidden"), ("buy", "bought"),
        ("bring", "brought"), ("rewrite", "rewrote rewritten"), ("rebuild", "rebuilt"),
    )
    for form in forms.split()
}  # fmt: skip
"""Irregular verbs' past forms, as the stem of the verb ("written" is write: "the failing
test written first" says "write the failing test first")."""
# What is said in symbols or a set phrase, in words: "5%" is "5 percent", "half an hour"
# "30 minutes", "one working day" "1 working day" (a count, where "one" is no pronoun),
# "check with me" "ask"; each with the cues a text holding it holds (most hold none).
_PHRASES = (
    (re.compile(r"(?<=\d)\s*%"), " percent", ("%",)),
    (re.compile(r"\bhalf an hour\b", re.IGNORECASE), "30 minutes", ("alf",)),
    (re.compile(r"\ba quarter of an hour\b", re.IGNORECASE), "15 minutes", ("uarter",)),
    (
        re.compile(r"\b(?:check|confirm)(?:s|ed|ing)?\s+with\s+(?=(?:me|us|the\s+user)\b)", re.I),
        "ask ",
        ("with me", "with us", "with the user"),
    ),
    (
        re.compile(
            r"\b(?:one|a\s+single)\s+(?=(?:working\s+|business\s+|calendar\s+|full\s+)?"
            r"(?:second|minute|hour|day|week|month|year|line|character|retry|attempt|"
            r"approval|reviewer|replica|node|worker|thread|instance|request)s?\b)",
            re.IGNORECASE,
        ),
        "1 ",
        (" one ", "One ", "single", "Single"),
    ),
)
_COMPOUNDS = {
    form: first
    for first, forms in (
        ("set", "set sets setting"), ("back", "back backs backed backing"),
        ("roll", "roll rolls rolled rolling"), ("clean", "clean cleans cleaned cleaning"),
        ("shut", "shut shuts shutting"), ("start", "start"), ("type", "type"), ("lock", "lock"),
        ("time", "time times timed timing"), ("dry", "dry"), ("hot", "hot"),
        ("fall", "fall falls falling"),
    )
    for form in forms.split()
}  # fmt: skip
_COMPOUND_ENDS = {
    first: [[end] for end in ends.split()]
    for first, ends in (
        ("set", "up"), ("back", "off"), ("roll", "back out"), ("clean", "up"),
        ("shut", "down"), ("start", "up"), ("type", "check checks checked checking"),
        ("lock", "file files"), ("time", "out outs"), ("dry", "run runs"), ("hot", "fix fixes"),
        ("fall", "back"),
    )
}  # fmt: skip
"""A compound written as two words or hyphenated, as one ("back off" is "backoff",
"type-check" "typecheck", "time out" "timeout"): the first word's forms, and the second
words each makes one with."""
_HYPHENED = re.compile(r"\b([A-Za-z]{1,3})-([A-Za-z]+|\d+)\b|\b([A-Za-z]+)-(\d+)\b")
"""A prefix or a number written with a hyphen ("re-sign", "pre-commit", "SHA-1"): also one
word ("resign", "precommit", "sha1"); longer parts stay two words ("kebab-case")."""
_DOTTED_NUMBER = re.compile(r"(?<=\d)\.(?=\d)")
_THE_US = re.compile(r"\bUS\b")
""""US" in capitals is the country, never the pronoun `us` (a stop word): "the US cluster"."""
"""A version's dots ("1.30" is one number, not 1 and 30)."""
_DOCUMENTS = re.compile(r"\.(?:md|markdown|txt|rst)\b", re.IGNORECASE)
# A name starts where a run of name characters does (from inside one, quadratic).
_DOCUMENT_FILE = re.compile(r"(?<![\w-])([\w-]+)\.(?:md|markdown|txt|rst)\b", re.IGNORECASE)
"""A document's file name says the document ("`CHANGELOG.md`" is the changelog)."""
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~])(?:~/|/)(?:[\w.@+-]+/)+([\w.@+-]*)")
"""An absolute path: said by its name, its folders are where a machine keeps it."""


def stems_of(text: str) -> Iterator[str]:
    """The stems of a text's words, in order, without the stop words and one-letter words
    (a digit stays: "3 retries"), numbers, short forms and verbs' past forms said one way
    (`NUMBERS`, `SHORT`, `IRREGULAR`, `_PHRASES`)."""
    text = said_in_digits(text)
    if "/" in text:
        text = _ABSOLUTE_PATH.sub(_path_name, text)
    if "." in text:
        text = _DOTTED_NUMBER.sub("_", text)
        if _DOCUMENTS.search(text) is not None:
            text = _DOCUMENT_FILE.sub(r"\1", text)
    if "-" in text:
        text += " " + " ".join("".join(parts) for parts in _HYPHENED.findall(text))
    words = said_words(text)
    for index, word in enumerate(words):
        first = _COMPOUNDS.get(word)
        if first is not None and words[index + 1 : index + 2] in _COMPOUND_ENDS[first]:
            words[index + 1] = first + words[index + 1]
            continue
        if word in LEFT_OUT or (len(word) == 1 and not word.isdigit()):
            continue
        yield _stem(word)


def said_words(text: str) -> list[str]:
    """The lowercased words of a text, "US" in capitals read as the country (`_THE_US`)."""
    return lowered_words(_THE_US.sub("usa", text) if "US" in text else text)


def said_in_digits(text: str) -> str:
    """A text with what it says in symbols or set phrases said in words and digits
    (`_PHRASES`: "5%" is "5 percent", "one working day" "1 working day")."""
    for phrase, said, cues in _PHRASES:
        for cue in cues:
            if cue in text:
                text = phrase.sub(said, text)
                break
    return text


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A lower-cased word's stem: numbers, short forms and verbs' past forms said one way
    (`NUMBERS`, `SHORT`, `IRREGULAR`), British spelling as American (`_american`), and a
    rule verb's noun as the verb (`DERIVED`)."""
    said = NUMBERS.get(word) or SHORT.get(word) or IRREGULAR.get(word)
    if said is not None:
        return said
    stem = english_stem(_american(word))
    stem = DERIVED.get(stem, stem)
    return SYNONYMS.get(stem, stem)


_BRITISH_OUR = re.compile(
    r"^(col|behavi|fav|hon|lab|neighb|flav|hum|harb|arm|od|endeav|rum|vap)our"
)
_BRITISH_ISE = re.compile(r"^([a-z]{3,}[iy])s(e|es|ed|ing|ation|ations|er|ers)$")
_BRITISH_ENCE = re.compile(r"^(lic|def|off|pret)ence(s?)$")


def _american(word: str) -> str:
    """A word in British spelling as it is spelt in American English ("colour", "optimise",
    "analyse", "licence"), each form one way: the two spellings stem alike."""
    if "our" in word:
        word = _BRITISH_OUR.sub(r"\1or", word)
    if "s" in word:
        word = _BRITISH_ISE.sub(r"\1z\2", word)
    if "ence" in word:
        word = _BRITISH_ENCE.sub(r"\1ense\2", word)
    return word


DERIVED = {
    english_stem(_american(noun)): english_stem(verb)
    for verb, nouns in (
        ("explain", "explanation explanations"), ("describe", "description descriptions"),
        ("decide", "decision decisions"), ("summarize", "summary summaries"),
        ("create", "creation"), ("introduce", "introduction"), ("submit", "submission"),
        ("fail", "failure failures"), ("expire", "expiry"), ("analyze", "analysis"),
        ("compare", "comparison"), ("choose", "choice choices"), ("sign", "signature"),
        ("grow", "growth"), ("lose", "loss"), ("fix", "fixes"),
    )
    for noun in nouns.split()
    if english_stem(_american(noun)) != english_stem(verb)
}  # fmt: skip
"""A rule verb's noun, as the stem of the verb ("an explanation of the plan" says "explain
the plan"; "a summary" "summarise")."""


SYNONYMS = {
    english_stem(word): english_stem(verb)
    for verb, words in (
        ("delete", "remove erase"), ("change", "modify alter"), ("run", "execute"),
        ("start", "launch begin"), ("show", "display"), ("fix", "repair"), ("say", "tell"),
        ("ask", "consult"),
    )
    for word in words.split()
}  # fmt: skip
"""Rule verbs said with another verb of the same meaning, as one stem ("remove the
file" says "delete the file", "modify" "change"): a closed set, each class one action."""


def _path_name(path: re.Match[str]) -> str:
    return path.group(1) or path.group(0).rstrip("/").rpartition("/")[2]


@functools.lru_cache(maxsize=16384)
def sentence_stems(sentence: str) -> frozenset[str]:
    """A sentence's stems, worked out once per sentence (templates and copies repeat
    theirs)."""
    return frozenset(stems_of(sentence))


_VOWELS = str.maketrans("", "", "aeiouy")


@functools.lru_cache(maxsize=65536)
def skeleton(stem: str) -> str:
    """A stem's consonants: what a compound's parts leave alike whether it is written as one
    word, two or hyphenated, the stemmer's cut vowel aside ("forcepush", "forc push")."""
    return stem.translate(_VOWELS)


def _plain_stem(stem: str) -> bool:
    """A word's stem (no marker, code span or possessive) of two consonants at least."""
    return stem.isalnum() and len(skeleton(stem)) > 1


@functools.lru_cache(maxsize=16384)
def compounds_once(stems: frozenset[str]) -> frozenset[str]:
    """Stems with a compound said twice (a hyphenated word: its parts and its joined form,
    "pre commit precommit") said once, as the joined form."""
    plain = [s for s in stems if _plain_stem(s)]
    whole = {skeleton(s): s for s in plain}
    parts = {
        part
        for a, b in itertools.permutations(plain, 2)
        if whole.get(skeleton(a) + skeleton(b)) not in (None, a, b)
        for part in (a, b)
    }
    return stems - parts


def compounds_alike(one: frozenset[str], other: frozenset[str]) -> tuple[frozenset[str], ...]:
    """Two sets of stems, each a compound the other says in one word said in one word too
    ("forcepush main" / "forc main push": forcepush, main both)."""
    one, other = compounds_once(one), compounds_once(other)
    return _joined_as(one, other), _joined_as(other, one)


def _joined_as(stems: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    wholes = {skeleton(s): s for s in other - stems if _plain_stem(s)}
    if not wholes:
        return stems
    plain = [s for s in stems - other if _plain_stem(s)]
    for a, b in itertools.permutations(plain, 2):
        whole = wholes.get(skeleton(a) + skeleton(b))
        if whole is not None and a in stems and b in stems:
            stems = (stems - {a, b}) | {whole}
    return stems
