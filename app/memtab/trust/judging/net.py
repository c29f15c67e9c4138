"""The wider net the model judges (issues 83, 94; docs/formats.md §19.5, §19.6): pairs of
statements of two memories alike in any word few memories share, that no finding or candidate
holds together, ranked by what makes a pair likely — memories a session sees together first
(global beside a project's, one project's memories of two agents), then each statement's
nearest partners before any statement's further ones, then the most alike.

Code proposes, the model decides: nothing the offline readers think of a pair keeps it out
(their readings of meaning are what the model is asked). Worked out only when a model is
asked: the offline answers never change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memtab.check.documents import Document, seen_together
from memtab.markdown import text_lines
from memtab.sources.codex.summary import restates
from memtab.store.text.near_duplicates import idf_weights, near_duplicate_pairs
from memtab.trust.claims import Claim, contradict, sentence_claims
from memtab.trust.duplicates.meaning import POLARITIES
from memtab.trust.duplicates.statements import Statement, is_statement
from memtab.trust.judging.questions import GLOBAL, Pair, shown
from memtab.trust.memories import place_of
from memtab.trust.polarity import Rule, rule_of
from memtab.trust.reading.attached import ASKED_FENCES, structured
from memtab.trust.records import MemoryPlace
from memtab.trust.words import content_lines, sentence_stems, statements, stems_of

WIDER_SIMILARITY = 0.05
"""Statements this alike (IDF-weighted Jaccard of their stems: one rare word in common) are
a pair of the net; the net holds the most likely of them, what three runs' calls ask
(`asking.net_size`)."""


_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
"""Where a name in camel case starts a word (`replica|Count`)."""


@dataclass(frozen=True)
class Side:
    """One statement of a pair: its memory, line and sentence."""

    document: Document
    line: int
    text: str


@dataclass(frozen=True)
class Candidate:
    """Two statements of two memories alike in words, and whether a session sees them
    together."""

    similarity: float
    one: Side
    other: Side
    together: bool

    @property
    def pair(self) -> Pair:
        """The pair as the model reads it (`questions.shown`)."""
        return Pair(side_shown(self.one), side_shown(self.other))


def sentences_of(document: Document) -> tuple[Statement, ...]:
    """A memory's statements as the duplicates engine reads them (`statements.is_statement`)."""
    found = []
    for line in content_lines(document.text):
        if line.code:
            continue
        for sentence in statements(line.text):
            stems = sentence_stems(sentence)
            if is_statement(sentence, stems):
                found.append(Statement(line.number, sentence, stems))
    return tuple(found)


def values_of(document: Document) -> tuple[Statement, ...]:
    """The lines of a memory's tables and config fences that give a thing a value, each as it
    is written, alike by the thing and value they give (a row's header and its cells, a key's
    sections): what the contradictions net asks beside its sentences."""
    if "|" not in document.text and "```" not in document.text and "~~~" not in document.text:
        return ()
    lines = text_lines(document.text)
    given: dict[int, list[str]] = {}
    for number, attached in structured(document.text, ASKED_FENCES):
        if 0 < number <= len(lines):
            given.setdefault(number, []).append(f"{attached.thing} {attached.value}")
    return tuple(
        Statement(number, lines[number - 1].strip(), _stems_of_keys(" ".join(said)))
        for number, said in given.items()
    )


def _stems_of_keys(said: str) -> frozenset[str]:
    """A config line's stems, each key's words in camel case apart too (`replicaCount`,
    `PerDayRon`): a setting named in code and in prose share its words."""
    return sentence_stems(said) | sentence_stems(_HUMP.sub(" ", said))


def candidates(
    said: Iterable[tuple[Document, Sequence[Statement]]],
    *,
    apart: Callable[[Side, Side], bool],
    most: int,
    threshold: float = WIDER_SIMILARITY,
    together: Callable[[Document, Document], bool] = seen_together,
    numbers_first: bool = False,
) -> list[Candidate]:
    """The `most` likely pairs of statements of two memories alike at `threshold`, ranked
    (module doc; `together`: which memories are read as one's context; `numbers_first`: a
    pair giving one named thing two numbers before the rest of its rank), but those `apart`
    says are not compared (held together already, never seen together); a record of what
    happened only beside another agent's memory (`_records_alike`); one pair for each two
    sentences however many copies say them."""
    sides: list[tuple[Document, Statement]] = []
    for document, found in said:
        if document.imported is not None:
            continue
        sides += [(document, statement) for statement in found]
    sets = [_with_parts(statement.stems) - POLARITIES for _, statement in sides]
    weight = idf_weights(sets)
    listed: list[Candidate] = []
    seen: set[frozenset[str]] = set()
    for similarity, a, b in near_duplicate_pairs(sets, threshold, weight=weight):
        (first, mine), (second, theirs) = sides[a], sides[b]
        texts = frozenset((" ".join(mine.text.split()), " ".join(theirs.text.split())))
        if (
            first.key == second.key
            or _records_alike(first, second)
            or len(texts) < 2
            or texts in seen
            or restates(first.key, second.key)
        ):
            continue
        one, other = Side(first, mine.line, mine.text), Side(second, theirs.line, theirs.text)
        if apart(one, other):
            continue
        seen.add(texts)
        listed.append(Candidate(round(similarity, 3), one, other, together(first, second)))
    return _likeliest(listed, most, numbers_first)


def _records_alike(one: Document, other: Document) -> bool:
    """Whether a record of what happened is beside what cannot contradict it: another record
    (each tells what happened then), or a memory its own agent wrote out of its records
    (Codex's MEMORY.md says its rollouts again)."""
    return (one.record or other.record) and (
        (one.record and other.record) or one.agent == other.agent
    )


def _with_parts(stems: frozenset[str]) -> frozenset[str]:
    """Stems with the words of each name joined by `_` (`rack_timeout_service_timeout`): a
    setting named in code and in prose share its words."""
    joined = [
        stem
        for stem in stems
        if "_" in stem.strip("_")
        and all(any(map(str.isalpha, part)) for part in stem.strip("_").split("_"))
    ]
    if not joined:
        return stems
    return stems | {part for stem in joined for part in stems_of(stem.replace("_", " "))}


def _likeliest(listed: Sequence[Candidate], most: int, numbers_first: bool) -> list[Candidate]:
    """The `most` likeliest of `listed` (most alike first): memories a session sees together
    first, among them (`numbers_first`) pairs giving one named thing two numbers, then each
    statement's closest partners before any statement's further ones — a statement's likely
    match is its nearest, however alike the statements of another topic are among themselves
    (their many pairs would fill the net)."""
    nearness: dict[tuple[str, int], int] = {}
    ranks: list[int] = []
    for candidate in listed:
        sides = [(side.document.key, side.line) for side in (candidate.one, candidate.other)]
        ranks.append(min(nearness.get(side, 0) for side in sides))
        for side in sides:
            nearness[side] = nearness.get(side, 0) + 1
    order = sorted(
        range(len(listed)),
        key=lambda i: (
            not listed[i].together,
            not (numbers_first and _numbers_differ(listed[i].one.text, listed[i].other.text)),
            ranks[i],
        ),
    )
    return [listed[i] for i in order[:most]]


_NAMED_NUMBER = re.compile(r"\b([A-Za-z][\w.+-]{0,40}+)\s++v?(\d++(?:\.\d++)*+)\b")
"""A thing named before its number: "Postgres 16", "Tauri 2.1", "port 5080"."""


def _numbers_differ(one: str, other: str) -> bool:
    """Whether two statements give one named thing two numbers ("Postgres 16" / "Postgres
    15"): few pairs are, and they are the likeliest to disagree."""
    mine, theirs = _named_numbers(one), _named_numbers(other)
    return any(mine[name] != theirs[name] for name in mine.keys() & theirs.keys())


def _named_numbers(text: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for match in _NAMED_NUMBER.finditer(text):
        found.setdefault(match.group(1).lower(), set()).add(match.group(2))
    return found


class SaidOfOneProject:
    """Whether two memories speak of one project: a session sees them together
    (`seen_together`), or one is of a project and names another by its folder's name (an
    infrastructure repository's notes of the app it deploys say what that app runs on)."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self._names = {
            name.lower()
            for document in documents
            if len(name := document.project_name) >= _SHORTEST_NAMED
        }
        self._named_in: dict[str, frozenset[str]] = {}

    def __call__(self, one: Document, other: Document) -> bool:
        return seen_together(one, other) or (
            one.group != other.group and (self._names_of(one, other) or self._names_of(other, one))
        )

    def _names_of(self, one: Document, other: Document) -> bool:
        if not one.project or not other.project:
            return False
        named = self._named_in.get(one.key)
        if named is None:
            text = one.text.lower()
            named = frozenset(name for name in self._names if _names_word(text, name))
            self._named_in[one.key] = named
        return other.project_name.lower() in named


_SHORTEST_NAMED = 3
"""A project named in another's memory by fewer letters is no name (`ui`, `db`)."""


def _names_word(text: str, word: str) -> bool:
    """Whether `word` is in `text` as a word of its own (`kilnmarket` in
    "kilnmarket-prod-uploads", not in "kilnmarkets")."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        at = text.find(word, at + 1)
    return False


class Together:
    """The places findings hold together: two lines, or two whole memories (a memory named
    by its path and the project and workspace it is of: two projects' `/memories/project/x.md`
    are two)."""

    def __init__(self, found: Iterable[Sequence[MemoryPlace]]) -> None:
        self._lines: set[tuple[Where, int | None, Where, int | None]] = set()
        for places in found:
            for one in places:
                for other in places:
                    if _where(one) != _where(other):
                        self._lines.add((_where(one), one.line, _where(other), other.line))

    def side_by_side(self, one: Side, other: Side) -> bool:
        mine, theirs = _where(place_of(one.document)), _where(place_of(other.document))
        return any(
            (mine, a, theirs, b) in self._lines
            for a in (one.line, None)
            for b in (other.line, None)
        )


Where = tuple[str, str | None, str | None]


def _where(place: MemoryPlace) -> Where:
    return place.path, place.project, place.workspace


def scope_words(place: MemoryPlace) -> str:
    """A memory's scope as the model reads it: "(global memory, read in every project)",
    "(project memory of project api)"."""
    if place.project is None:
        return GLOBAL
    project = place.project.rstrip("/").rsplit("/", 1)[-1]
    return f"({place.scope} memory of project {project})"


def side_shown(side: Side) -> str:
    """A statement of the net as the model reads it: its file's scope, then what it says."""
    return shown(side.text, scope_words(place_of(side.document)))


def places_of(candidate: Candidate) -> tuple[MemoryPlace, MemoryPlace]:
    return (
        place_of(candidate.one.document, candidate.one.line, candidate.one.text),
        place_of(candidate.other.document, candidate.other.line, candidate.other.text),
    )


def claims_of(candidate: Candidate) -> tuple[Claim, Claim]:
    """What each side of a pair the model called a conflict claims, its line set: the values
    the offline readers read of its lines, or its opposite rules, else its sentence itself."""
    one, other = _line_said(candidate.one), _line_said(candidate.other)
    for mine in (c for s in one for c in sentence_claims(s)):
        for theirs in (c for s in other for c in sentence_claims(s)):
            if contradict(mine, theirs):
                return (
                    mine._replace(line=candidate.one.line),
                    theirs._replace(line=candidate.other.line),
                )
    rules = _opposed_rules(one, other)
    if rules is not None:
        return _rule_claim(candidate.one.line, rules[0]), _rule_claim(
            candidate.other.line, rules[1]
        )
    about = "what they say"
    return (
        Claim(candidate.one.line, "value", "", _cut_value(candidate.one.text), about),
        Claim(candidate.other.line, "value", "", _cut_value(candidate.other.text), about),
    )


def _line_said(side: Side) -> tuple[str, ...]:
    """The sentences of a side's line (a line's other sentence can say its rule: "Don't rebase
    onto main. We merge main into the branch")."""
    line = next(
        (c.text for c in content_lines(side.document.text) if c.number == side.line), side.text
    )
    return statements(line) or (side.text,)


def _opposed_rules(one: Sequence[str], other: Sequence[str]) -> tuple[Rule, Rule] | None:
    for mine in filter(None, map(rule_of, one)):
        for theirs in filter(None, map(rule_of, other)):
            if mine.polarity != theirs.polarity and (mine.action - POLARITIES) & theirs.action:
                return mine, theirs
    return None


def _rule_claim(line: int, rule: Rule) -> Claim:
    return Claim(line, "always-never", "", rule.polarity, f"whether to {rule.said[:60].lower()}")


def _cut_value(text: str) -> str:
    said = " ".join(text.split())
    return said if len(said) <= 80 else said[:79] + "…"
