"""One statement written in two memories or more — a rule, a fact — found by what it says
(docs/formats.md §19.5): the `rule` groups of `memtab duplicates`.

Each memory's statements are its sentences of two stems or more (`trust.words`: numbers,
short forms and symbols said one way), but labels ending in `:`, questions, code alone,
lists of keywords, a record's field ("schema_version: 1.0.0"), a sentence wrapped over
two lines, an index's entries (a link to a memory and its description: it restates that
memory), a template's header (a sentence opening every memory that says it,
`BOILERPLATE_NOTES` of them or more) or its fields ("Owner: Ruth · Slack #dev", at the same
place of the memories that say it), and what Codex's summary says again of its handbook
(`memory_summary.md` of `MEMORY.md`: Codex's own short form).
Two statements are alike when the IDF-weighted Jaccard similarity of their stems reaches
`STATEMENT_SIMILARITY` (`store.text.near_duplicates`), or, one of them a rule, that of their
own clauses `CLAUSE_SIMILARITY` (`clauses`: the rule without the reason, example or command
said beside it), and one statement when, read whole,
they also say one thing (`meaning.agreeing`): no opposite rules, no claims that contradict,
no other subject, and the same specific values where both name some (`trust.specifics`:
"retries 3 times" is not "retries 5 times", `git commit -S` not `git tag -s`). Statements
naming one thing with one value (`anchors`: "15 min" / "900 s", `pg_dump` / "pg dump") are
candidates too, kept when they say one fact of it (`anchors.same_fact`). The line
of each is read for its rule and claims (a line's "Don't rebase onto main. We merge main
into the branch…" is no rewording of "Always rebase on main").

A sentence embedding was measured against this, and as a source of candidates for these
filters, and not adopted (docs/trust-quality.md "On memory nobody tuned them on").
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
from memtab.trust.duplicates.about import about_other, left_open, told_of_a_day
from memtab.trust.duplicates.anchors import anchor_candidates, normal_form, same_fact
from memtab.trust.duplicates.boilerplate import BOILERPLATE_NOTES, a_field, same_place
from memtab.trust.duplicates.boilerplate import similarity as weighted_similarity
from memtab.trust.duplicates.clauses import (
    a_rule,
    apart_as_said,
    own_clause,
    rule_clause,
    rules_beside,
)
from memtab.trust.duplicates.meaning import (
    POLARITIES,
    agreeing,
    compared,
    opposed_stems,
    own_name,
    recounts,
    restricts,
)
from memtab.trust.duplicates.records import DuplicateGroup, group_key, listed
from memtab.trust.duplicates.same_claim import subject_only
from memtab.trust.memories import place_of, where_in_words
from memtab.trust.rule_key import RuleKey, rule_key, same_rule
from memtab.trust.specifics import without_addresses
from memtab.trust.words import ContentLine, sentence_stems, stems_of

STATEMENT_SIMILARITY = 0.35
"""Statements' stems alike at this are compared by what they say (`alike`)."""
WORDING_SIMILARITY = 0.6
"""Two sentences that differ only in wording are one statement once what they share
outweighs what they do not a little."""
SAYS_MORE = 0.6
"""What the statement that says less says besides what they share, at most, as a part
of what they share: "Prefer small, focused PRs." in "Keep PRs small and focused; the
maintainers review one concern per PR."; not two frames filled with other values."""
CLAUSE_SIMILARITY = 0.6
"""Statements whose own clauses are alike at this are compared by what they say too."""
MIN_STATEMENT_STEMS = 2
MIN_SHARED = 3
"""Statements alike as a fact share this many stems at least (two say too little: "Invoices
are rendered with WeasyPrint" / "The invoice renderer runs in a queue")."""
_INDEX_ENTRY = re.compile(r"\[[^\[\]\n]*\]\([^()\n]*\)|see\s+\S+\.md\b", re.IGNORECASE)
"""An index's entry ("[x.md](x.md) — what it holds", Gemini CLI's "See …/x.md for …")."""

_ITEM = re.compile(r"\s*+(?:[-*+]|\d{1,9}[.)])\s")
_FIELD = re.compile(r"[\w.-]++:[ \t]*+[\w.@/+-]++")
"""A record's field and its value ("schema_version: 1.0.0"): data, not a statement."""
_CODE = re.compile(r"`[^`\n]*`")
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
    label, a question, code alone, a record's field nor an index's entry."""
    said = sentence.rstrip("*_ .")
    return (
        len(stems) >= MIN_STATEMENT_STEMS
        and not said.endswith((":", "?"))
        and _INDEX_ENTRY.match(sentence) is None
        and _CODE_ALONE.fullmatch(said) is None
        and _FIELD.fullmatch(said) is None
        and not _keywords(said)
    )


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
        number = occurrence.statement.line
        line = next((line for line in content if line.number == number), None)
        if line is None or line.code:
            raise NotAsMadeError("a statement not on a line of its memory")
        if line.item:
            return False
        held.append((content, number))
    return len(notes) >= BOILERPLATE_NOTES or same_place(held)


def statement_pairs(
    sets: Sequence[frozenset[str]],
    texts: Sequence[str],
    weight: Mapping[str, float],
    rare: float,
) -> Pairs:
    """The statements' stems (`texts`: a sentence of each) alike at `STATEMENT_SIMILARITY`,
    or one said whole in the other (`said_whole`), that may say one thing (`alike`), but
    those whose shared stems another statement holds too (a frame many statements fill
    with other values: "Known issue: the X leaks memory on large files")."""
    framed = _Framing(sets)
    postings = framed.postings
    found = near_duplicate_pairs(sets, STATEMENT_SIMILARITY, weight=weight)
    searched = {(a, b) for _, a, b in found}
    whole = _said_whole(sets, texts, postings, weight, rare)
    found += sorted(pair for pair in whole if pair[1:] not in searched)
    kept = tuple(
        (similarity, a, b)
        for similarity, a, b in found
        if (how := alike(sets[a], sets[b], weight, rare)) is not None
        and (how == "wording" or not framed(a, b))
    )
    kept += _own_clause_pairs(sets, texts, weight, {pair[1:] for pair in kept})
    paired = {pair[1:] for pair in kept}
    kept += tuple(
        (similarity, a, b)
        for a, b in sorted(anchor_candidates(texts) - paired)
        if (similarity := weighted_similarity(sets[a], sets[b], weight)) > 0.0
        and not opposed_stems(sets[a], sets[b])
        and same_fact((texts[a], sets[a]), (texts[b], sets[b]))
        and not framed(a, b)
    )
    return kept + _rule_pairs(sets, texts, weight, {pair[1:] for pair in kept}, framed)


def one_rule(one: str, other: str) -> bool:
    """Whether two statements state one rule (`rule_key.same_rule`)."""
    mine, theirs = _rule_key(one), _rule_key(other)
    return mine is not None and theirs is not None and same_rule(mine, theirs)


def _rule_key(statement: str) -> RuleKey | None:
    """The key of the rule a statement's own clause states (`clauses.rule_clause`), but a
    choice's ("Use `Path.Path` instead of `node:path`": a choice between two is no rule
    about both, and its words compare it)."""
    clause = rule_clause(statement)
    if clause is None or _INSTEAD.search(clause) is not None:
        return None
    return rule_key(clause)


_INSTEAD = re.compile(r"\s(?:instead\s+of|rather\s+than|over)\s|,\s+(?:and\s+)?not\s", re.I)
"""Where a rule says what it is chosen over ("X instead of Y", "X, not Y")."""


def _rule_pairs(
    sets: Sequence[frozenset[str]],
    texts: Sequence[str],
    weight: Mapping[str, float],
    found: set[tuple[int, int]],
    framed: _Framing,
) -> Pairs:
    """The statements not `found` that state one rule (`rule_key.same_rule`: one polarity,
    one action on one object, in other words), each with its statements' similarity: a key
    is met by itself and by each of its parts one stem short (`framed`: the statements'
    frames, as `statement_pairs` reads them)."""
    keys = [_rule_key(text) for text in texts]
    by_key: dict[tuple[str, frozenset[str]], list[int]] = defaultdict(list)
    for index, key in enumerate(keys):
        if key is not None:
            by_key[(key.polarity, key.stems)].append(index)
    pairs = set()
    for index, key in enumerate(keys):
        if key is None:
            continue
        for stems in (key.stems, *(key.stems - {stem} for stem in key.stems)):
            for other in by_key.get((key.polarity, stems), ()):
                pair = (min(index, other), max(index, other))
                if other == index or pair in found or pair in pairs:
                    continue
                if sets[index] & POLARITIES != sets[other] & POLARITIES or framed(*pair):
                    continue  # the notes' own reading of polarity (a heading's "Don'ts") first
                if same_rule(key, keys[other]):  # type: ignore[arg-type]
                    pairs.add(pair)
    return tuple((weighted_similarity(sets[a], sets[b], weight), a, b) for a, b in sorted(pairs))


def _own_clause_pairs(
    sets: Sequence[frozenset[str]],
    texts: Sequence[str],
    weight: Mapping[str, float],
    found: set[tuple[int, int]],
) -> Pairs:
    """The statements not `found` whose own clauses (`clauses.own_clause`: the rule or
    fact without the reason, example or command said beside it) are alike at
    `CLAUSE_SIMILARITY` and may say one thing (`clause_alike`), each with its statements'
    similarity."""
    clauses = [clause_stems(text, stems) for text, stems in zip(texts, sets, strict=True)]
    framed = _Framing(clauses)
    return tuple(
        (weighted_similarity(sets[a], sets[b], weight), a, b)
        for _, a, b in near_duplicate_pairs(clauses, CLAUSE_SIMILARITY, weight=weight)
        if (a, b) not in found
        and (a_rule(texts[a]) or a_rule(texts[b]))
        and _clauses_alike(clauses[a], clauses[b], weight)
        and not framed(a, b)
    )


def rules_apart(one: str, other: str, weight: Mapping[str, float]) -> bool:
    """Whether two statements, each a rule with something beside it (`rules_beside`), say
    other things to do: their own clauses not `alike` (one word for another, or more
    besides) — a reason or an example they share is no part of the rule."""
    clauses = rules_beside(one, other)
    if clauses is None:
        return False
    mine, theirs = (sentence_stems(clause) for clause in clauses)
    return alike(mine, theirs, weight, 0.0) is None


def clause_stems(sentence: str, stems: frozenset[str]) -> frozenset[str]:
    """The stems of a statement's own clause (`own_clause`) and its polarity mark (`stems`:
    the statement's, its project's name left out), or its `stems` when the clause says
    too little in words to stand for it ("Export `OFFLINE_MAPS=1`: it adds a trace id":
    what follows is what it says)."""
    clause = own_clause(sentence)
    if len(sentence_stems(_CODE.sub(" ", clause)) & stems) < MIN_SHARED:
        return stems
    return (sentence_stems(clause) & stems) | (stems & POLARITIES)


def clause_alike(
    one: tuple[str, frozenset[str]], other: tuple[str, frozenset[str]], weight: Mapping[str, float]
) -> bool:
    """Whether two statements (each its sentence and stems) are alike in their own clauses
    as `statement_pairs` requires (a pair it keeps found so)."""
    mine, theirs = clause_stems(*one), clause_stems(*other)
    return (
        (a_rule(one[0]) or a_rule(other[0]))
        and weighted_similarity(mine, theirs, weight) >= CLAUSE_SIMILARITY - 1e-9
        and _clauses_alike(mine, theirs, weight)
    )


def _clauses_alike(one: frozenset[str], other: frozenset[str], weight: Mapping[str, float]) -> bool:
    """Whether two own clauses may say one thing (`alike`, of any weight: what two
    clauses share is what they say, however many memories say its words)."""
    return alike(one, other, weight, 0.0) is not None


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
    texts: Sequence[str],
    postings: Mapping[str, set[int]],
    weight: Mapping[str, float],
    rare: float,
) -> set[tuple[float, int, int]]:
    """The statements said whole in another (`said_whole`), each with its similarity, whose
    shorter one says `MIN_SHARED` stems besides an address's ("Unleash at https://…" says
    one) and whose longer one neither restricts it (`meaning.restricts`) nor tells it as
    past (`meaning.recounts`): a longer statement holds the shorter's rarest stem, so only
    those are looked at."""
    get = weight.get
    found = set()
    for index, stems in enumerate(sets):
        said = stems - POLARITIES
        if len(said) < MIN_SHARED:
            continue
        rarest = min(said, key=lambda stem: (len(postings[stem]), stem))
        if get(rarest, 0.0) < rare or len(postings[rarest]) > COMMON_FILES:
            continue
        holders = [
            i
            for i in postings[rarest]
            if i != index and said <= sets[i] and not restricts(texts[i], said)
        ]
        holders = [i for i in holders if not recounts(texts[i], texts[index], said)]
        if not holders or len(sentence_stems(without_addresses(texts[index]))) < MIN_SHARED:
            continue
        shared = sum(map(get, said, repeat(0.0)))
        for other in holders:
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


def statement_groups(
    notes: Notes,
    held: Mapping[frozenset[str], list[Said]],
    sets: Sequence[frozenset[str]],
    pairs: Pairs,
    grouped: Mapping[int, int],
    weight: Mapping[str, float],
    agreed: Agreed | None = None,
) -> tuple[list[DuplicateGroup], Agreed]:
    """The statements' groups, and which statements say one thing as `agreed` keeps it:
    `sets` the sentences compared, `pairs` those alike (`statement_pairs`), `grouped` the
    memories already in a group (a copy's or a rewording's: their statement is said
    once); two that share a subject and not what they say of it are apart
    (`same_claim.subject_only`). `agreed`: what a run over the same files found (read
    whole, not again)."""
    rare = rare_weight(len(notes))
    alike_found = alike_groups(pairs, rank=lambda index: index)
    alone = set(range(len(sets))) - {i for members, _ in alike_found for i in members}
    alike_found += [([i], 1.0) for i in sorted(alone)]  # the same sentence in several memories
    lines: dict[int, list[str]] = {}

    def read(said: Said) -> tuple[str, str]:
        if said.note not in lines:
            lines[said.note] = text_lines(notes[said.note][0].text)
        number, text = said.statement.line, said.statement.text
        written = lines[said.note]
        if not number <= len(written) or text not in written[number - 1]:
            raise NotAsMadeError("a statement not on its line")
        own = own_name(notes[said.note][0])
        return normal_form(compared(text, own)), normal_form(compared(written[number - 1], own))

    def apart(one: Said, other: Said) -> bool:  # Codex's summary restates its handbook
        if restates(notes[one.note][0].path, notes[other.note][0].path):
            return True
        (mine, line), (theirs, their_line) = read(one), read(other)
        return (
            (
                apart_as_said(lambda a, b: subject_only(a, b, weight), mine, theirs)
                and not same_fact((mine, sentence_stems(mine)), (theirs, sentence_stems(theirs)))
            )
            or rules_apart(mine, theirs, weight)
            or left_open(line, their_line)
            or told_of_a_day(mine, theirs)
            or about_other(mine, theirs, lambda: said_of(other.note), weight, rare)
            or about_other(theirs, mine, lambda: said_of(one.note), weight, rare)
        )

    @functools.cache
    def said_of(note: int) -> frozenset[str]:  # its title and frontmatter too
        return frozenset(stems_of(notes[note][0].text))

    kept = _kept_parts(agreed, len(alike_found))
    groups, found = [], []
    for number, (members, similarity) in enumerate(alike_found):
        said = _one_a_note([o for i in members for o in held[sets[i]]], grouped)
        if kept is None:
            parts = agreeing(said, read, apart)
        else:
            parts = [_kept_part(said, part, read) for part in kept.get(number, ())]
        for chosen in parts:
            if kept is None:
                found.append((number, *(s.note for s in chosen)))
            groups.append(_statement_group(notes, chosen, similarity))
    return groups, (agreed if agreed is not None else tuple(found))


Agreed = tuple[tuple[int, ...], ...]
"""Which statements of `statement_groups`' alike groups say one thing (`agreeing`), as a
run over the same files keeps them: each part its alike group's number, then its
statements' memories (one statement a memory)."""


def _kept_parts(agreed: Agreed | None, alike: int) -> dict[int, list[tuple[int, ...]]] | None:
    """`agreed` by alike group (NotAsMadeError for a group there is not)."""
    if agreed is None:
        return None
    kept: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for number, *notes in agreed:
        if not 0 <= number < alike:
            raise NotAsMadeError("statements kept of an alike group there is not")
        kept[number].append(tuple(notes))
    return kept


def _kept_part(
    said: Sequence[Said], part: Sequence[int], read: Callable[[Said], tuple[str, str]]
) -> list[Said]:
    """The statements of a part kept, by their memories (NotAsMadeError for a memory
    with none in the group, or a statement not on its line)."""
    by_note = {s.note: s for s in said}
    if len(set(part)) != len(part) or not all(note in by_note for note in part):
        raise NotAsMadeError("statements kept that are not there")
    chosen = [by_note[note] for note in part]
    for statement in chosen:
        read(statement)
    return chosen


def _statement_group(notes: Notes, chosen: Sequence[Said], similarity: float) -> DuplicateGroup:
    places = tuple(place_of(notes[s.note][0], s.statement.line, s.statement.text) for s in chosen)
    wheres = sorted({where_in_words(place) for place in places})
    where = f"in {listed(wheres)}" if len(wheres) > 1 else f"twice in {wheres[0]}"
    what = "The same rule" if similarity >= 1.0 else "The same statement in other words"
    return DuplicateGroup(
        kind="rule",
        similarity=round(similarity, 3),
        why=f"{what} {where}",
        members=places,
        key=group_key(places, [s.statement.text for s in chosen]),
    )


def _one_a_note(said: Sequence[Said], grouped: Mapping[int, int]) -> list[Said]:
    """The first statement of each memory, and of each group of memories found alike
    above (a rule said twice in one memory is the consolidator's to clear; in two copies,
    their group says it)."""
    seen: set[tuple[str, int]] = set()
    chosen = []
    for occurrence in sorted(said, key=lambda s: (s.note, s.statement.line)):
        note = occurrence.note
        slot = ("group", grouped[note]) if note in grouped else ("note", note)
        if slot not in seen:
            seen.add(slot)
            chosen.append(occurrence)
    return chosen
