"""Where a labelled duplicate pair the engine missed fell (`trust_stages`' half for
duplicates), by the engine's own functions on the memories it compares (not a `record`, not
Codex's import), the furthest of its two ways (an item that names its lines: the notes
whole only when they got past pairing, else the lines' way tells where they stopped):

- the notes whole: both of `MIN_NOTE_STEMS` stems or more and proposed by the rewording
  search (`near_duplicate_pairs` at `REWORDED_SIMILARITY`), then `at_odds`, `alike_past`,
  `same_claims`; copies (one content) pass;
- the labelled lines (an item that names them): a statement on each (`is_statement`), not
  left out as a template's (`COMMON_FILES`, `a_header`), proposed by the statement search
  (its stems, `said_whole`, its own clause), then `alike`, `_Framing`, `a_rule`,
  `_clauses_alike`, then `statement_groups`' `apart` tests and `agreeing`'s `_at_odds`.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any

from tests.quality.trust_stages import (
    DROPPED,
    FILE_NOT_READ,
    LEFT_OUT,
    NEVER_PAIRED,
    NOT_A_STATEMENT,
    NOT_COMPARED,
    PASSED,
    Fate,
    Reading,
    in_lines,
)

from memtab.check.documents import Document
from memtab.markdown import text_lines
from memtab.sources.codex.summary import restates
from memtab.store.text.near_duplicates import COMMON_FILES, idf_weights, near_duplicate_pairs
from memtab.trust.duplicates.about import about_other, left_open, told_of_a_day
from memtab.trust.duplicates.boilerplate import alike_past, boilerplate_of
from memtab.trust.duplicates.clauses import a_rule, apart_as_said
from memtab.trust.duplicates.engine import (
    MIN_NOTE_STEMS,
    REWORDED_SIMILARITY,
    NoteWords,
    note_words,
)
from memtab.trust.duplicates.meaning import (
    POLARITIES,
    _at_odds,
    at_odds,
    compared,
    own_name,
)
from memtab.trust.duplicates.same_claim import same_claims, subject_only
from memtab.trust.duplicates.statements import (
    CLAUSE_SIMILARITY,
    STATEMENT_SIMILARITY,
    Statement,
    _clauses_alike,
    _Framing,
    _said_whole,
    a_header,
    alike,
    clause_stems,
    rare_weight,
    rules_apart,
    statement_pairs,
    statements_held,
)
from memtab.trust.words import stems_of

DUPLICATE_STAGES = (
    FILE_NOT_READ,
    NOT_COMPARED,
    NOT_A_STATEMENT,
    LEFT_OUT,
    NEVER_PAIRED,
    DROPPED,
    PASSED,
)
TESTS = (
    "at_odds",
    "alike_past",
    "same_claims",
    "alike",
    "_Framing",
    "a_rule",
    "_clauses_alike",
    "restates",
    "subject_only",
    "rules_apart",
    "left_open",
    "told_of_a_day",
    "about_other",
    "_at_odds",
)
"""The tests that drop a proposed pair, each way's in its order."""

Pair = tuple[int, int]


class Compared:
    """What the duplicates engine works out of the memories it compares (`_groups_of`)."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        documents = [d for d in reading.documents if not d.record and d.imported is None]
        documents.sort(key=lambda d: (d.path, d.key))
        self.compared_keys = {d.key for d in documents}
        words = [(d, note_words(d)) for d in documents]
        self.notes: list[tuple[Document, NoteWords]] = [(d, w) for d, w in words if w.stems]
        self.index = {d.key: i for i, (d, _) in enumerate(self.notes)}
        by_content: dict[bytes, list[int]] = defaultdict(list)
        for i, (_, found) in enumerate(self.notes):
            by_content[found.content].append(i)
        self.representative = {i: members[0] for members in by_content.values() for i in members}
        representatives = [members[0] for members in by_content.values()]
        weight = idf_weights(self.notes[i][1].stems for i in representatives)
        weight.update(dict.fromkeys(POLARITIES, 0.0))
        self.weight = weight
        self.rare = rare_weight(len(representatives))
        self.eligible = [
            i for i in representatives if len(self.notes[i][1].stems) >= MIN_NOTE_STEMS
        ]
        sets = [self.notes[i][1].stems for i in self.eligible]
        self.reworded = {
            (self.eligible[a], self.eligible[b])
            for _, a, b in near_duplicate_pairs(sets, REWORDED_SIMILARITY, weight=weight)
        }
        self.boilerplate = boilerplate_of(self.notes[i][1].lines for i in representatives)
        self.held = statements_held({i: self.notes[i][1].statements for i in representatives})
        openers = {
            i: self.notes[i][1].statements[0].line
            for i in representatives
            if self.notes[i][1].statements
        }
        self.left_out: dict[frozenset[str], str] = {}
        for stems, said in self.held.items():
            if len({o.note for o in said}) > COMMON_FILES:
                self.left_out[stems] = "COMMON_FILES"
            elif a_header(said, openers):
                self.left_out[stems] = "a_header"
        self.rules = [s for s in self.held if s not in self.left_out]
        self.rule_of = {stems: i for i, stems in enumerate(self.rules)}
        self.texts = [self.held[stems][0].statement.text for stems in self.rules]
        self._search()

    def _search(self) -> None:
        rules, weight = self.rules, self.weight
        near = near_duplicate_pairs(rules, STATEMENT_SIMILARITY, weight=weight)
        framing = _Framing(rules)
        whole = _said_whole(rules, self.texts, framing.postings, weight, self.rare)
        self.worded = {(a, b) for _, a, b in near} | {(a, b) for _, a, b in whole}
        clauses = [clause_stems(t, s) for t, s in zip(self.texts, rules, strict=True)]
        self.clauses = clauses
        self.clause_framing = _Framing(clauses)
        self.framing = framing
        self.by_clause = {
            (a, b) for _, a, b in near_duplicate_pairs(clauses, CLAUSE_SIMILARITY, weight=weight)
        }
        self.kept = {(a, b) for _, a, b in statement_pairs(rules, self.texts, weight, self.rare)}

    def side(self, side: dict[str, Any]) -> tuple[str, list[int]]:
        """A side's stage before pairing (`PASSED`: it has notes to pair) and its notes."""
        documents = self.reading.of_side(side)
        if not documents:
            return FILE_NOT_READ, []
        if not any(d.key in self.compared_keys for d in documents):
            return NOT_COMPARED, []
        notes = [self.index[d.key] for d in documents if d.key in self.index]
        return (PASSED, notes) if notes else (NOT_A_STATEMENT, [])

    def whole_fate(self, one: int, other: int) -> Fate:
        """Two notes compared whole (the rewording search and its filters)."""
        mine, theirs = self.representative[one], self.representative[other]
        if mine == theirs:
            return Fate(PASSED)  # one content: a copy
        if (min(mine, theirs), max(mine, theirs)) not in self.reworded:
            return Fate(NEVER_PAIRED)
        (document, words), (their_document, their_words) = self.notes[mine], self.notes[theirs]
        if at_odds(document, their_document):
            return Fate(DROPPED, "at_odds")
        weight = self.weight
        if not alike_past(
            (document, words.lines),
            (their_document, their_words.lines),
            self.boilerplate,
            weight,
            REWORDED_SIMILARITY,
        ):
            return Fate(DROPPED, "alike_past")
        apart = functools.partial(_rules_apart, weight=weight)
        if not same_claims(document, their_document, self.boilerplate, weight, apart, self.rare):
            return Fate(DROPPED, "same_claims")
        return Fate(PASSED)

    def statements_on(self, note: int, lines: list[int]) -> list[Statement]:
        return [
            s
            for s in self.notes[self.representative[note]][1].statements
            if in_lines(s.line, lines)
        ]

    def line_fate(self, one: tuple[int, Statement], other: tuple[int, Statement]) -> Fate:
        """Two labelled statements (each its note and statement) compared as statements."""
        for _, statement in (one, other):
            if statement.stems in self.left_out:
                return Fate(LEFT_OUT, self.left_out[statement.stems])
        a, b = self.rule_of[one[1].stems], self.rule_of[other[1].stems]
        pair = (min(a, b), max(a, b))
        if a != b and pair not in self.kept:
            return self._dropped_pair(pair)
        return self._apart(one, other)

    def _dropped_pair(self, pair: Pair) -> Fate:
        a, b = pair
        rules, weight = self.rules, self.weight
        if pair in self.worded:
            if alike(rules[a], rules[b], weight, self.rare) is None:
                return Fate(DROPPED, "alike")
            return Fate(DROPPED, "_Framing")
        if pair in self.by_clause:
            if not (a_rule(self.texts[a]) or a_rule(self.texts[b])):
                return Fate(DROPPED, "a_rule")
            if not _clauses_alike(self.clauses[a], self.clauses[b], weight):
                return Fate(DROPPED, "_clauses_alike")
            return Fate(DROPPED, "_Framing")
        return Fate(NEVER_PAIRED)

    def _read(self, note: int, statement: Statement) -> tuple[str, str]:
        document = self.notes[note][0]
        own = own_name(document)
        line = text_lines(document.text)[statement.line - 1]
        return compared(statement.text, own), compared(line, own)

    def _apart(self, one: tuple[int, Statement], other: tuple[int, Statement]) -> Fate:
        """`statement_groups`' tests of two statements alike (its `apart`, `agreeing`)."""
        (note, _), (their_note, _) = one, other
        document, their_document = self.notes[note][0], self.notes[their_note][0]
        if restates(document.path, their_document.path):
            return Fate(DROPPED, "restates")
        (mine, line), (theirs, their_line) = self._read(*one), self._read(*other)
        weight, rare = self.weight, self.rare
        tests = (
            ("subject_only", lambda: apart_as_said(_subject_only(weight), mine, theirs)),
            ("rules_apart", lambda: rules_apart(mine, theirs, weight)),
            ("left_open", lambda: left_open(line, their_line)),
            ("told_of_a_day", lambda: told_of_a_day(mine, theirs)),
            (
                "about_other",
                lambda: (
                    about_other(mine, theirs, lambda: _said(their_document), weight, rare)
                    or about_other(theirs, mine, lambda: _said(document), weight, rare)
                ),
            ),
            ("_at_odds", lambda: _at_odds((mine, line), (theirs, their_line))),
        )
        for name, test in tests:
            if test():
                return Fate(DROPPED, name)
        return Fate(PASSED)


def _rules_apart(one: str, other: str, *, weight: dict[str, float]) -> bool:
    return rules_apart(one, other, weight)


def _subject_only(weight: dict[str, float]) -> Any:
    return lambda one, other: subject_only(one, other, weight)


def _said(document: Document) -> frozenset[str]:
    return frozenset(stems_of(document.text))


def duplicate_fate(seen: Compared, item: dict[str, Any]) -> Fate:
    """The furthest stage a labelled duplicate pair reached, either way (module doc)."""
    sides = [item["a"], item["b"], *item.get("more", [])]
    best = Fate(FILE_NOT_READ)
    for i, one in enumerate(sides):
        for other in sides[i + 1 :]:
            for fate in _pair_fates(seen, one, other):
                if rank(fate) > rank(best):
                    best = fate
    return best


def _pair_fates(seen: Compared, one: dict[str, Any], other: dict[str, Any]) -> list[Fate]:
    (stage, mine), (their_stage, theirs) = seen.side(one), seen.side(other)
    earliest = min(stage, their_stage, key=DUPLICATE_STAGES.index)
    if earliest != PASSED:
        return [Fate(earliest)]
    notes = [(a, b) for a in mine for b in theirs if a != b]
    fates = [seen.whole_fate(a, b) for a, b in notes]
    if one["lines"] is None or other["lines"] is None:
        return fates
    # Labelled lines: the notes whole tell only a filter that dropped them or their group.
    fates = [fate for fate in fates if fate.stage in (DROPPED, PASSED)]
    for a, b in notes:
        said, their_said = (
            seen.statements_on(a, one["lines"]),
            seen.statements_on(b, other["lines"]),
        )
        if not said or not their_said:
            fates.append(Fate(NOT_A_STATEMENT))
            continue
        fates += [seen.line_fate((a, s), (b, t)) for s in said for t in their_said]
    return fates


def rank(fate: Fate) -> tuple[int, int]:
    return DUPLICATE_STAGES.index(fate.stage), TESTS.index(fate.by) if fate.by in TESTS else 0
