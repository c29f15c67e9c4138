"""Where in the engines' pipeline each labelled item they missed fell (`trust_scorecard
--stages`): the engines' own functions run in-process on the laid-out home, an item's
furthest stage told by name — never its text nor its files, so the counts may be read on a
half whose items are not to be read.

Contradictions: each side's file among the memories read (`read_memories`) and compared
(not a `record`), its labelled line a statement (`words.statements`), a claim read on it
(`claims_of`; always-never: a polarity), the two sides' claims proposed as a pair (one kind,
a `group_keys` key shared), then the test that dropped them: equal values, `same_thing`,
`contradict`, `seen_together` (never paired: told by `OTHER_KINDS` or `NO_SHARED_KEY`),
else it passed them all (lost after: `_shown`, the de-dup). An item stopped at "no claim"
also tells what its claimless lines hold (`trust_stages_lines.FEATURES`).
Duplicates: see `trust_stages_duplicates`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests.quality.trust_homes import LaidOut
from tests.quality.trust_matching import Matcher
from tests.quality.trust_stages_lines import FEATURES, LONG, MIDDLE, SHORT, held, told

from memtab.check.documents import Document, seen_together
from memtab.store.home import Home
from memtab.trust.claims import Claim, claims_of, contradict, group_keys, same_thing
from memtab.trust.memories import read_memories
from memtab.trust.words import content_lines, statements

FILE_NOT_READ = "file not read"
NOT_COMPARED = "file not compared"
NOT_A_STATEMENT = "line not a statement"
NO_CLAIM = "no claim"
NO_POLARITY = "no polarity"
NEVER_PAIRED = "never paired"
LEFT_OUT = "statement left out by"
DROPPED = "dropped by"
NAMED = {DROPPED: "dropped", LEFT_OUT: "statement left out", NEVER_PAIRED: NEVER_PAIRED}
OTHER_KINDS = "(other kinds)"
NO_SHARED_KEY = "(no key shared)"
"""Why two sides' claims were never paired: no kind of claim both read, or one kind and
no key of both (`group_keys`)."""
"""The stages told by the name of what stopped the item, as shown when none did."""
PASSED = "passed every filter"
CONTRADICTION_STAGES = (
    FILE_NOT_READ,
    NOT_COMPARED,
    NOT_A_STATEMENT,
    NO_CLAIM,
    NO_POLARITY,
    NEVER_PAIRED,
    DROPPED,
    PASSED,
)
PAIR_TESTS = ("equal values", "same_thing", "contradict", "seen_together")
"""The tests a proposed pair of claims meets, in the search's order (`disagreements`)."""


@dataclass(frozen=True)
class Fate:
    """How far an item got: its stage, the test that dropped it (`DROPPED`), and — an
    always-never item — the polarity read on each side (a category name, "none"); an
    item at `NO_CLAIM`, what the lines that gave none hold (`FEATURES`)."""

    stage: str
    by: str = ""
    polarity: str = ""
    holds: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return f"{self.stage} {self.by}" if self.by else self.stage


@contextmanager
def as_laid_out(laid: LaidOut) -> Iterator[dict[str, str]]:
    """The laid-out person's environment, as this process's while the engines read."""
    env = laid.env()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield env
    finally:
        os.environ.clear()
        os.environ.update(saved)


@dataclass(frozen=True)
class Reading:
    """The memories the engines read on a laid-out half, each with its corpus file."""

    matcher: Matcher
    documents: tuple[Document, ...]
    files: tuple[str, ...]

    @classmethod
    def of(cls, laid: LaidOut, matcher: Matcher) -> Reading:
        with as_laid_out(laid) as env:
            collected = read_memories(Home(laid.xum_home), env=env)
        documents = tuple(collected.documents)
        files = tuple(matcher.corpus_file(d.path, d.project, d.workspace) for d in documents)
        return cls(matcher, documents, files)

    def of_side(self, side: dict[str, Any]) -> list[Document]:
        """The memories read that are the side's file (or a copy of its text)."""
        return [
            document
            for document, file in zip(self.documents, self.files, strict=True)
            if self.matcher.same_text(file, side["file"])
        ]


def in_lines(line: int, lines: Sequence[int] | None) -> bool:
    return lines is None or min(lines) <= line <= max(lines)


def stated(document: Document, lines: Sequence[int] | None) -> bool:
    """Whether a labelled line of a memory is a statement: a content line, not code, with
    a sentence (`words.statements`)."""
    return any(
        in_lines(line.number, lines) and not line.code and statements(line.text)
        for line in content_lines(document.text)
    )


def _side_claims(
    documents: list[Document], side: dict[str, Any], kind: str
) -> tuple[str, list[tuple[Document, Claim]]]:
    """A contradiction's side: the stage it stops at (`PASSED`: it has a claim of its
    kind to pair) and its claims on the labelled lines."""
    if not documents:
        return FILE_NOT_READ, []
    compared = [d for d in documents if not d.record]
    if not compared:
        return NOT_COMPARED, []
    said = [(d, c) for d in compared for c in claims_of(d.text) if in_lines(c.line, side["lines"])]
    if not said and not any(stated(d, side["lines"]) for d in compared):
        return NOT_A_STATEMENT, []  # a table's or a config fence's line claims as it is
    if not said:
        return NO_CLAIM, []
    if kind == "always-never" and not any(c.kind == "always-never" for _, c in said):
        return NO_POLARITY, said
    return PASSED, said


def _pair_test(one: tuple[Document, Claim], other: tuple[Document, Claim]) -> int:
    """How many of `PAIR_TESTS` two proposed claims pass (all: a disagreement)."""
    (document, mine), (their_document, theirs) = one, other
    if mine.value == theirs.value:
        return 0
    if not same_thing(mine, theirs):
        return 1
    if not contradict(mine, theirs):
        return 2
    if document.key == their_document.key or not seen_together(document, their_document):
        return 3
    return 4


def _proposed(one: Claim, other: Claim) -> bool:
    """Whether the search compares two claims: one kind, a key of both (`group_keys`)."""
    return one.kind == other.kind and not set(group_keys(one)).isdisjoint(group_keys(other))


def _polarity(said: list[tuple[Document, Claim]]) -> str:
    values = sorted({c.value for _, c in said if c.kind == "always-never"})
    return "·".join(values) or "none"


def contradiction_fate(reading: Reading, item: dict[str, Any]) -> Fate:
    """The furthest stage a labelled contradiction reached (module doc)."""
    kind = item["kind"]
    sides = [item["a"], item["b"], *item.get("more", [])]
    best = Fate(FILE_NOT_READ)
    for i, one in enumerate(sides):
        for other in sides[i + 1 :]:
            fate = _pair_fate(reading, kind, one, other)
            if _rank(fate) > _rank(best):
                best = fate
    return best


def _pair_fate(reading: Reading, kind: str, one: dict[str, Any], other: dict[str, Any]) -> Fate:
    (stage, mine), (their_stage, theirs) = (
        _side_claims(reading.of_side(side), side, kind) for side in (one, other)
    )
    polarity = f"{_polarity(mine)}/{_polarity(theirs)}" if kind == "always-never" else ""
    earliest = min(stage, their_stage, key=CONTRADICTION_STAGES.index)
    if earliest == NO_CLAIM:
        holds = frozenset().union(
            *(
                held([d for d in reading.of_side(side) if not d.record], side["lines"])
                for side, at in ((one, stage), (other, their_stage))
                if at == NO_CLAIM
            )
        )
        # Both sides may give no claim: the item's one length is its longest sentence's.
        shorter = [length for length in (LONG, MIDDLE, SHORT) if length in holds][1:]
        return Fate(NO_CLAIM, polarity=polarity, holds=holds - set(shorter))
    if earliest != PASSED:
        return Fate(earliest, polarity=polarity)
    passed = [_pair_test(a, b) for a in mine for b in theirs if _proposed(a[1], b[1])]
    if not passed:
        kinds = {c.kind for _, c in mine} & {c.kind for _, c in theirs}
        return Fate(NEVER_PAIRED, NO_SHARED_KEY if kinds else OTHER_KINDS, polarity)
    furthest = max(passed)
    if furthest == len(PAIR_TESTS):
        return Fate(PASSED, polarity=polarity)
    return Fate(DROPPED, PAIR_TESTS[furthest], polarity)


def _rank(fate: Fate) -> tuple[int, int]:
    tests = (OTHER_KINDS, NO_SHARED_KEY, *PAIR_TESTS)
    return CONTRADICTION_STAGES.index(fate.stage), tests.index(fate.by) if fate.by in tests else 0


def tally(
    items: list[dict[str, Any]], fates: dict[str, Fate], stages: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """Per kind of item: how many were missed, how many stopped at each stage (a stage told
    by name once per name, "dropped by contradict"; `NAMED`'s 0 when none),
    always-never's polarities read, and — some at `NO_CLAIM` — how many of those hold each
    of `FEATURES` (`noClaimHolds`)."""
    kinds: dict[str, dict[str, Any]] = {}
    for kind in dict.fromkeys(item["kind"] for item in items):
        missed = [fates[i["id"]] for i in items if i["kind"] == kind and i["id"] in fates]
        if not missed:
            continue
        labels = Counter(fate.label for fate in missed)
        counts: dict[str, int] = {}
        for stage in stages:
            named = sorted(label for label in labels if label.startswith(f"{stage} "))
            if stage not in NAMED or labels[stage] or not named:
                counts[NAMED.get(stage, stage)] = labels[stage]
            counts.update({label: labels[label] for label in named})
        polarities = Counter(fate.polarity for fate in missed if fate.polarity)
        kinds[kind] = {"missed": len(missed), "stages": counts, "polarities": dict(polarities)}
        if counts.get(NO_CLAIM):
            holds = Counter(f for fate in missed if fate.stage == NO_CLAIM for f in fate.holds)
            kinds[kind]["noClaimHolds"] = {feature: holds[feature] for feature in FEATURES}
    return kinds


def stage_lines(engine: str, kinds: dict[str, dict[str, Any]]) -> list[str]:
    """`always-never 2 missed: file not read 0 · … · no claim 1 (code span 1, …) · …`."""
    lines = []
    for kind, row in sorted(kinds.items()):
        shown = {stage: str(count) for stage, count in row["stages"].items()}
        if row.get("noClaimHolds"):
            shown[NO_CLAIM] += f" ({told(row['noClaimHolds'])})"
        counts = " · ".join(f"{stage} {count}" for stage, count in shown.items())
        line = f"    {engine} {kind} {row['missed']} missed: {counts}"
        if row["polarities"]:
            read = ", ".join(f"{p} {n}" for p, n in sorted(row["polarities"].items()))
            line += f" (polarities read: {read})"
        lines.append(line)
    return lines


def missed_stages(laid: LaidOut, matcher: Matcher, card: dict[str, Any]) -> dict[str, Any]:
    """The scorecard's `stages`: per engine, the counts by kind (`tally`) and each missed
    item's stage by its id."""
    # Here, not atop: that module builds on this one.
    from tests.quality.trust_stages_duplicates import DUPLICATE_STAGES, Compared, duplicate_fate

    reading = Reading.of(laid, matcher)
    key = matcher.key
    with as_laid_out(laid):
        contradictions = {
            item["id"]: contradiction_fate(reading, item)
            for item in key["contradictions"]
            if item["id"] in card["contradictions"]["missed"]
        }
        seen = Compared(reading)
        duplicates = {
            item["id"]: duplicate_fate(seen, item)
            for item in key["duplicates"]
            if item["id"] in card["duplicates"]["missed"]
        }
    return {
        "contradictions": {
            "byKind": tally(key["contradictions"], contradictions, CONTRADICTION_STAGES),
            "items": {i: fate.label for i, fate in contradictions.items()},
            "itemHolds": {
                i: [f for f in FEATURES if f in fate.holds]
                for i, fate in contradictions.items()
                if fate.stage == NO_CLAIM
            },
        },
        "duplicates": {
            "byKind": tally(key["duplicates"], duplicates, DUPLICATE_STAGES),
            "items": {i: fate.label for i, fate in duplicates.items()},
        },
    }
