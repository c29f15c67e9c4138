"""Statements — a rule, a fact — written in two memories or more (docs/formats.md §19.5): the
`rule` groups of `memtab duplicates`.

Each memory's statements are its sentences of two stems or more (`trust.words`: numbers,
short forms and symbols said one way), but labels ending in `:`, questions, code alone,
lists of keywords, a record's field ("schema_version: 1.0.0"), links alone (with a label:
"related: [[other-note]]"), a sentence wrapped over two lines, an index's entries (a link
to a memory and its description: it restates that memory), a template's header (a
sentence opening every memory that says it, `BOILERPLATE_NOTES` of them or more) or its
fields ("Owner: Ruth · Slack #dev", at the same place of the memories that say it), and
what Codex's summary says again of its handbook (`memory_summary.md` of `MEMORY.md`:
Codex's own short form).

Statements of one normal form (`same_text`: the same words, markup, case and punctuation
aside) are one statement said twice, which the text proves: a finding (`said_again`).
Statements alike in words — the IDF-weighted Jaccard similarity of their stems at
`STATEMENT_SIMILARITY`, or one's stems all the other's, and `alike` — only may say one
thing: candidates (`candidate_groups`), for the user's model or the user to judge, never
two the offline readers know disagree.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise, repeat
from typing import Any, Literal, NamedTuple

from memtab.check.documents import Document
from memtab.kept.per_file import NotAsMadeError
from memtab.markdown import text_lines
from memtab.sources.codex.summary import restates
from memtab.store.text.near_duplicates import COMMON_FILES, alike_groups, near_duplicate_pairs
from memtab.trust.duplicates.boilerplate import BOILERPLATE_NOTES, a_field, same_place
from memtab.trust.duplicates.meaning import POLARITIES, opposed_stems
from memtab.trust.duplicates.records import DuplicateGroup, group_key, listed
from memtab.trust.memories import place_of, where_in_words
from memtab.trust.words import ContentLine

STATEMENT_SIMILARITY = 0.35
"""Statements' stems alike at this are compared by what they say (`alike`)."""
WORDING_SIMILARITY = 0.6
"""Two sentences that differ only in wording may be one statement once what they share
outweighs what they do not a little."""
SAYS_MORE = 0.6
"""What the statement that says less says besides what they share, at most, as a part
of what they share: "Prefer small, focused PRs." in "Keep PRs small and focused; the
maintainers review one concern per PR."; not two frames filled with other values."""
MIN_STATEMENT_STEMS = 2
MIN_SHARED = 3
"""Statements alike as a fact share this many stems at least (two say too little: "Invoices
are rendered with WeasyPrint" / "The invoice renderer runs in a queue")."""
_INDEX_ENTRY = re.compile(r"\[[^\[\]\n]*\]\([^()\n]*\)|see\s+\S+\.md\b", re.IGNORECASE)
"""An index's entry ("[x.md](x.md) — what it holds", Gemini CLI's "See …/x.md for …")."""
_LINKS = re.compile(r"!?\[\[[^\[\]\n]*\]\]|!?\[[^\[\]\n]*\]\([^()\n]*\)|<[a-z]+://[^<>\s]*>")
_LABEL_ALONE = re.compile(r"[^\W\d_]*+(?:[\s-][^\W\d_]++){0,2}\s*+[:：]?")
"""What is left of a line of links alone: a label of three words at most ("related:")."""

_ITEM = re.compile(r"\s*+(?:[-*+]|\d{1,9}[.)])\s")
_FIELD = re.compile(r"[\w.-]++:[ \t]*+[\w.@/+-]++")
"""A record's field and its value ("schema_version: 1.0.0"): data, not a statement."""
_CODE_ALONE = re.compile(r"(?:`[^`]*`[\s,;]*)+")

Pairs = tuple[tuple[float, int, int], ...]
"""(similarity, i, j) of every pair a search found, as `near_duplicate_pairs` says them."""


class Statement(NamedTuple):
    line: int
    text: str
    stems: frozenset[str]


class Said(NamedTuple):
    """A memory's statement: the memory's index among the notes, and the statement."""

    note: int
    statement: Statement


Notes = Sequence[tuple[Document, Any]]


def is_statement(sentence: str, stems: frozenset[str]) -> bool:
    """Whether a sentence of a memory is compared with others' (see the module doc): not a
    label, a question, code alone, a record's field, links alone nor an index's entry."""
    said = sentence.rstrip("*_ .")
    return (
        len(stems) >= MIN_STATEMENT_STEMS
        and not said.endswith((":", "?"))
        and _INDEX_ENTRY.match(sentence) is None
        and _CODE_ALONE.fullmatch(said) is None
        and _FIELD.fullmatch(said) is None
        and not _links_alone(said)
        and not _keywords(said)
    )


def _links_alone(sentence: str) -> bool:
    """Whether a sentence is links and at most a short label ("관련: [[newsletter-self-host]]",
    "See also: [deploy](deploy.md)"): it points at memory, it says nothing of its own."""
    rest, links = _LINKS.subn(" ", sentence)
    return links > 0 and _LABEL_ALONE.fullmatch(rest.strip(" ,;·—-*_")) is not None


def wrapped_lines(lines: Sequence[ContentLine], text: Sequence[str]) -> frozenset[int]:
    """The lines whose last sentence goes on on the next line (a paragraph wrapped: the
    next line of `text` follows it, is no list item, starts with no capital and it ends
    with no stop): the sentence cut there is no statement, and a line holding half of it
    is not one to take out."""
    found = set()
    for line, following in pairwise(lines):
        if (
            following.number == line.number + 1
            and not line.code
            and not following.code
            and not line.text.rstrip("*_ ").endswith((".", "!", "?", ":", ";"))
            and not following.text[:1].isupper()
            and _ITEM.match(text[following.number - 1]) is None
        ):
            found.add(line.number)
    return frozenset(found)


def _keywords(sentence: str) -> bool:
    """Whether a sentence is a list of keywords ("websocket, heartbeat, ping, ALB idle
    timeout"): four parts or more, none of more than three words."""
    parts = sentence.split(",")
    return len(parts) >= 4 and all(len(part.split()) <= 3 for part in parts)


def statements_held(
    said: Mapping[int, Sequence[Statement]],
) -> dict[frozenset[str], list[Said]]:
    """Each sentence's stems → where it is said (sentences of the same stems are compared
    once)."""
    held: dict[frozenset[str], list[Said]] = defaultdict(list)
    for note, statements in said.items():
        for statement in statements:
            held[statement.stems].append(Said(note, statement))
    return held


def a_header(said: Sequence[Said], openers: Mapping[int, int]) -> bool:
    """Whether a sentence is a template's header: it opens every memory that says it
    (`openers`: each memory's first statement's line), and `BOILERPLATE_NOTES` memories or
    more say it ("Context: harbor-api — Fastify…" atop unrelated notes)."""
    notes = {s.note for s in said}
    opening = {s.note for s in said if s.statement.line == openers.get(s.note)}
    return len(notes) >= BOILERPLATE_NOTES and opening == notes


def a_template_field(said: Sequence[Said], lines: Callable[[int], Sequence[ContentLine]]) -> bool:
    """Whether a sentence is a template's field (`boilerplate.a_field`, outside a list:
    "Owner: Ruth · Slack #dev", "Applies to: every DAG") that two memories or more say at
    the same place of each (`boilerplate.same_place`; `lines`: a memory's content lines),
    or `BOILERPLATE_NOTES` memories or more wherever they say it (NotAsMadeError for a
    statement on no content line of its memory)."""
    notes = {s.note for s in said}
    if len(notes) < 2 or not all(a_field(s.statement.text) for s in said):
        return False
    held = []
    for occurrence in said:
        content = lines(occurrence.note)
        line = _line_of(content, occurrence.statement.line)
        if line.item:
            return False
        held.append((content, line.number))
    return len(notes) >= BOILERPLATE_NOTES or same_place(held)


def a_template_line(
    said: Sequence[Said],
    lines: Callable[[int], Sequence[ContentLine]],
    outline: Callable[[int], bytes],
) -> bool:
    """Whether a sentence is a template's line (`same_text`): the memories that say it
    share their sections' headings (`outline`: a digest of a memory's, b"" for none) and it
    stands at the same place of each (`boilerplate.same_place`)."""
    notes = {s.note for s in said}
    outlines = {outline(note) for note in notes}
    if len(notes) < 2 or len(outlines) != 1 or not next(iter(outlines)):
        return False
    return same_place(
        (lines(s.note), _line_of(lines(s.note), s.statement.line).number) for s in said
    )


def _line_of(content: Sequence[ContentLine], number: int) -> ContentLine:
    line = next((line for line in content if line.number == number), None)
    if line is None or line.code:
        raise NotAsMadeError("a statement not on a line of its memory")
    return line


def statement_pairs(
    sets: Sequence[frozenset[str]],
    weight: Mapping[str, float],
    rare: float,
) -> Pairs:
    """The statements' stems alike at `STATEMENT_SIMILARITY`, or one said whole in the other
    (`said_whole`), that may say one thing (`alike`), but those whose shared stems another
    statement holds too (a frame many statements fill with other values: "Known issue:
    the X leaks memory on large files")."""
    framed = _Framing(sets)
    found = near_duplicate_pairs(sets, STATEMENT_SIMILARITY, weight=weight)
    searched = {(a, b) for _, a, b in found}
    whole = _said_whole(sets, framed.postings, weight, rare)
    found += sorted(pair for pair in whole if pair[1:] not in searched)
    return tuple(
        (similarity, a, b)
        for similarity, a, b in found
        if (how := alike(sets[a], sets[b], weight, rare)) is not None
        and (how == "wording" or not framed(a, b))
    )


class _Framing:
    """Whether two statements' shared stems another statement holds too (a frame many
    statements fill with other values)."""

    def __init__(self, sets: Sequence[frozenset[str]]) -> None:
        self.sets = sets
        self.postings: dict[str, set[int]] = defaultdict(set)
        for index, stems in enumerate(sets):
            for stem in stems - POLARITIES:
                self.postings[stem].add(index)

    def __call__(self, a: int, b: int) -> bool:
        postings = self.postings
        shared = sorted((self.sets[a] & self.sets[b]) - POLARITIES, key=lambda s: len(postings[s]))
        holders = set(postings[shared[0]]) if shared else set()
        for stem in shared[1:]:
            holders &= postings[stem]
            if len(holders) <= 2:
                break
        return len(holders - {a, b}) > 0


def said_whole(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether one statement's stems are all the other's (polarity marks aside): the
    shorter said whole in the longer ("Table-driven tests." in "In Go code, prefer
    table-driven tests even for two cases")."""
    mine, theirs = one - POLARITIES, other - POLARITIES
    return mine <= theirs or theirs <= mine


def _said_whole(
    sets: Sequence[frozenset[str]],
    postings: Mapping[str, set[int]],
    weight: Mapping[str, float],
    rare: float,
) -> set[tuple[float, int, int]]:
    """The statements said whole in another (`said_whole`), each with its similarity, whose
    shorter one says `MIN_SHARED` stems: a longer statement holds the shorter's rarest
    stem, so only those are looked at."""
    get = weight.get
    found = set()
    for index, stems in enumerate(sets):
        said = stems - POLARITIES
        if len(said) < MIN_SHARED:
            continue
        rarest = min(said, key=lambda stem: (len(postings[stem]), stem))
        if get(rarest, 0.0) < rare or len(postings[rarest]) > COMMON_FILES:
            continue
        shared = sum(map(get, said, repeat(0.0)))
        for other in postings[rarest]:
            if other != index and said <= sets[other]:
                every = sum(map(get, said | sets[other], repeat(0.0)))
                found.add((shared / every, min(index, other), max(index, other)))
    return found


def alike(
    one: frozenset[str], other: frozenset[str], weight: Mapping[str, float], rare: float
) -> Literal["wording", "fact"] | None:
    """How two statements alike in words may say one thing — `wording`: they differ only
    in how they say it (`_only_wording`, at `WORDING_SIMILARITY`); `fact`: one says little
    the other does not (at most `SAYS_MORE` of what they share) and what they share holds
    a stem of weight `rare` (`rare_weight`: a thing named, not a phrase) — or None: rules
    of opposite polarities (`trust.polarity`), other numbers, or neither."""
    if opposed_stems(one, other):
        return None
    mine, theirs = one - POLARITIES, other - POLARITIES
    numbers, their_numbers = _numbers(mine), _numbers(theirs)
    if numbers and their_numbers and not numbers & their_numbers:
        return None
    get = weight.get
    shared = sum(map(get, mine & theirs, repeat(0.0)))
    every = shared + sum(map(get, mine ^ theirs, repeat(0.0)))
    if shared <= 0.0:
        return None
    if shared >= WORDING_SIMILARITY * every and _only_wording(mine, theirs, weight):
        return "wording"
    if len(mine - theirs) == 1 == len(theirs - mine) or len(mine & theirs) < MIN_SHARED:
        return None  # one word for another: "run the linter" is not "run the tests"
    says_more = min(
        sum(map(get, mine - theirs, repeat(0.0))), sum(map(get, theirs - mine, repeat(0.0)))
    )
    if says_more > SAYS_MORE * shared:
        return None
    if not any(get(stem, 0.0) >= rare for stem in mine & theirs):
        return None
    return "fact"


def rare_weight(notes: int) -> float:
    """The weight (`idf_weights`) of a stem held by two memories, or one in 50 of many."""
    return math.log1p(min(notes / 2, 50.0))


def _numbers(stems: frozenset[str]) -> frozenset[str]:
    return frozenset(stem for stem in stems if stem[0].isdigit())


def _only_wording(one: frozenset[str], other: frozenset[str], weight: Mapping[str, float]) -> bool:
    """Whether two sentences differ only in how they say it: every stem one says and the
    other does not is more common than every stem they share (`Prefer pnpm over npm in
    this repo` / `Use pnpm, not npm`; not `Branch names are kebab-case` / `Test names
    are kebab-case`)."""
    differing = one ^ other
    if not differing:
        return True
    get = weight.get
    return max(map(get, differing, repeat(0.0))) < min(map(get, one & other, repeat(0.0)))


def said_again(notes: Notes, chosen: Sequence[Said]) -> DuplicateGroup:
    """A statement said in two memories or more in one normal form (`same_text`): a
    finding."""
    places = _places(notes, chosen)
    return DuplicateGroup(
        kind="rule",
        similarity=1.0,
        why=f"The same rule {_where(places)}",
        members=places,
        key=group_key(places, [s.statement.text for s in chosen]),
    )


def candidate_groups(
    notes: Notes,
    held: Mapping[frozenset[str], list[Said]],
    sets: Sequence[frozenset[str]],
    pairs: Pairs,
    one_of: Callable[[Said], tuple[str, ...]],
    apart: Callable[[Said, Said], bool],
) -> list[DuplicateGroup]:
    """The statements alike in words (`pairs` of `sets`, the stems compared, each held as
    `held` says) as candidates: one statement of each memory, copy or sentence said again
    (`one_of`: what it is one of), split into parts no two of which are `apart` (a
    disagreement the offline readers know, Codex's summary restating its handbook)."""
    groups = []
    alike_found = alike_groups(pairs, rank=lambda index: index)
    alone = set(range(len(sets))) - {i for members, _ in alike_found for i in members}
    alike_found += [([i], 1.0) for i in sorted(alone)]  # one's stems in other words
    for members, similarity in alike_found:
        said = _one_each([o for i in members for o in held[sets[i]]], one_of)
        for part in _agreeing(said, apart):
            places = _places(notes, part)
            groups.append(
                DuplicateGroup(
                    kind="rule",
                    similarity=round(similarity, 3),
                    why=f"Might be one statement in other words, {_where(places)}",
                    members=places,
                    key=group_key(places, [s.statement.text for s in part]),
                )
            )
    return groups


def _agreeing(said: Sequence[Said], apart: Callable[[Said, Said], bool]) -> list[list[Said]]:
    """The statements split into parts of two or more, none holding two kept `apart`."""
    parts: list[list[Said]] = []
    for statement in said:
        part = next((p for p in parts if not any(apart(statement, s) for s in p)), None)
        if part is None:
            parts.append([statement])
        else:
            part.append(statement)
    return [part for part in parts if len(part) > 1]


def apart_by_place(notes: Notes) -> Callable[[Said, Said], bool]:
    """Codex's summary restates its handbook: never a duplicate of it."""
    return lambda one, other: restates(notes[one.note][0].path, notes[other.note][0].path)


def _one_each(said: Sequence[Said], one_of: Callable[[Said], tuple[str, ...]]) -> list[Said]:
    """The first statement of each memory and of what `one_of` says it is one of (a group
    of copies, a sentence said again)."""
    seen: set[str] = set()
    chosen = []
    for occurrence in sorted(said, key=lambda s: (s.note, s.statement.line)):
        slots = one_of(occurrence)
        if seen.isdisjoint(slots):
            seen.update(slots)
            chosen.append(occurrence)
    return chosen


def _places(notes: Notes, chosen: Sequence[Said]) -> tuple[Any, ...]:
    """Where each statement is (NotAsMadeError for one not on its line: a cache not as made)."""
    places = []
    for said in chosen:
        document, (number, text) = notes[said.note][0], said.statement[:2]
        lines = _lines(document.text)
        if not 0 < number <= len(lines) or text not in lines[number - 1]:
            raise NotAsMadeError("a statement not on its line")
        places.append(place_of(document, number, text))
    return tuple(places)


@functools.lru_cache(maxsize=256)
def _lines(text: str) -> list[str]:
    return text_lines(text)


def _where(places: Sequence[Any]) -> str:
    wheres = sorted({where_in_words(place) for place in places})
    return f"in {listed(wheres)}" if len(wheres) > 1 else f"twice in {wheres[0]}"
