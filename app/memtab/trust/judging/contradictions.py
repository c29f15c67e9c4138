"""`memtab contradictions` with the user's model deciding (`trust.judging`; docs/formats.md
§19.6).

A contradiction is asked as the lines that disagree, each as it is written: every line of one
value against every line of another (`MAX_PAIRS` a contradiction), a finding and a candidate
(`ContradictionsReport.candidates`) alike; then the wider net (`net.candidates`: the
sentences and the tables' and config fences' lines of memories of one project,
`net.SaidOfOneProject`, and of records of what happened beside them). A pair the model calls
a `conflict` confirms it; `same` or `neither` dismisses that pair alone — moved to
`dismissed` as the two lines asked — and the contradiction stays of the lines still
standing; a pair not answered leaves it where the words put it. A pair of the net the model
calls a conflict is a finding it judged (`ContradictionsEngine.contradiction_of` makes it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from memtab.check.documents import Document
from memtab.trust.claims import Claim
from memtab.trust.contradictions.records import (
    ClaimedLine,
    Contradiction,
    ContradictionsReport,
    SaidAt,
)
from memtab.trust.judging.asking import ModelJudge, net_size
from memtab.trust.judging.kept import Verdict
from memtab.trust.judging.net import (
    Candidate,
    SaidOfOneProject,
    Together,
    candidates,
    claims_of,
    scope_words,
    sentences_of,
    values_of,
)
from memtab.trust.judging.questions import Pair, shown
from memtab.trust.records import MemoryPlace

MAX_PAIRS = 10
"""At most this many pairs of lines of one contradiction are asked (a thing said many ways)."""

Made = Callable[[Sequence[tuple[Document, Claim]]], Contradiction]


def wider_contradictions(
    report: ContradictionsReport,
    documents: Sequence[Document],
    records: Sequence[Document] = (),
) -> list[Candidate]:
    """The wider net of `memtab contradictions`: statements of memories of one project
    (`SaidOfOneProject`), and of `records` of what happened beside them, that no contradiction
    of `report` (findings, candidates, dismissed) holds."""
    together = Together(
        [
            _places(found)
            for found in (*report.contradictions, *report.candidates, *report.dismissed)
        ]
    )
    of_one_project = SaidOfOneProject(documents)
    return candidates(
        ((d, sentences_of(d) + values_of(d)) for d in (*documents, *records)),
        apart=lambda one, other: (
            not of_one_project(one.document, other.document) or together.side_by_side(one, other)
        ),
        most=net_size(report.files_read),
        together=of_one_project,
        numbers_first=True,
    )


def _places(found: Contradiction) -> list[MemoryPlace]:
    return [place for side in _sides(found) for place in side.places]


def _sides(found: Contradiction) -> tuple[ClaimedLine, ...]:
    return (found.first, found.second, *found.others)


def _line(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class _LinePair:
    """Two lines of a contradiction that disagree: each its side's index and its text."""

    one: tuple[int, str]
    other: tuple[int, str]
    pair: Pair


def lines_that_disagree(found: Contradiction) -> list[_LinePair]:
    """Each line of one value against each line of another, as the model reads them: the
    lines as written, each with its file's scope (at most `MAX_PAIRS`)."""
    lines: list[dict[str, MemoryPlace]] = []
    for side in _sides(found):
        texts: dict[str, MemoryPlace] = {}
        for place in side.places:
            texts.setdefault(_line(place.text), place)
        lines.append(texts)
    pairs = []
    for index, mine in enumerate(lines):
        for later, theirs in enumerate(lines[index + 1 :], start=index + 1):
            for text, place in mine.items():
                for other, other_place in theirs.items():
                    pair = Pair(
                        shown(text, scope_words(place)), shown(other, scope_words(other_place))
                    )
                    pairs.append(_LinePair((index, text), (later, other), pair))
    return pairs[:MAX_PAIRS]


def judge_contradictions(
    report: ContradictionsReport,
    judge: ModelJudge,
    wider: Sequence[Candidate] = (),
    made: Made | None = None,
) -> ContradictionsReport:
    """`report` as the model judges it (module doc); `made`: how a contradiction of two claims
    is made (`ContradictionsEngine.contradiction_of`), for the net's pairs confirmed."""
    asked = [(found, lines_that_disagree(found)) for found in report.contradictions]
    maybe = [(found, lines_that_disagree(found)) for found in report.candidates]
    verdicts = judge.verdicts(
        [line.pair for _, lines in (*asked, *maybe) for line in lines]
        + [candidate.pair for candidate in wider]
    )
    findings: list[Contradiction] = []
    still: list[Contradiction] = []
    dismissed: list[Contradiction] = []
    for found, lines in asked:
        kept, gone = _judged(found, lines, verdicts)
        findings += kept
        dismissed += gone
    for found, lines in maybe:
        kept, gone = _judged(found, lines, verdicts)
        for standing in kept:
            (still if standing.judged_by == "offline" else findings).append(standing)
        dismissed += gone
    if made is not None:
        for candidate in wider:
            verdict = verdicts.get(candidate.pair)
            if verdict is not None and verdict.verdict == "conflict":
                mine, theirs = claims_of(candidate)
                added = made([(candidate.one.document, mine), (candidate.other.document, theirs)])
                findings.append(added.replaced(judged_by=verdict.model, reason=verdict.reason))
    stats = judge.stats
    stats.confirmed += sum(found.judged_by != "offline" for found in findings)
    stats.dismissed += len(dismissed)
    return report.replaced(
        contradictions=tuple(findings),
        candidates=tuple(still),
        dismissed=(*report.dismissed, *dismissed),
        judged=judge.note(),
    )


def _judged(
    found: Contradiction, lines: Sequence[_LinePair], verdicts: Mapping[Pair, Verdict]
) -> tuple[list[Contradiction], list[Contradiction]]:
    """What the verdicts on its lines make of a contradiction: itself of the lines still
    standing (judged by the model when one pair is a conflict), and each pair dismissed."""
    answered = [(line, verdicts[line.pair]) for line in lines if line.pair in verdicts]
    conflicts = [verdict for _, verdict in answered if verdict.verdict == "conflict"]
    gone = [(line, verdict) for line, verdict in answered if verdict.verdict != "conflict"]
    out = []
    for line, verdict in gone:
        pair = _only(found, {line.one[0]: {line.one[1]}, line.other[0]: {line.other[1]}})
        if pair is not None:
            out.append(pair.replaced(judged_by=verdict.model, reason=verdict.reason))
    standing: dict[int, set[str]] = {}
    dismissed_lines = {line for line, _ in gone}
    for line in lines:
        if line not in dismissed_lines:
            for index, text in (line.one, line.other):
                standing.setdefault(index, set()).add(text)
    asked = {side for line in lines for side in (line.one, line.other)}
    for index, side in enumerate(_sides(found)):  # lines past `MAX_PAIRS` stand as they were
        for place in side.places:
            if (index, _line(place.text)) not in asked:
                standing.setdefault(index, set()).add(_line(place.text))
    kept = found if not gone else _only(found, standing)
    if kept is None:
        return [], out
    if conflicts:
        kept = kept.replaced(judged_by=conflicts[0].model, reason=conflicts[0].reason)
    return [kept], out


def _only(found: Contradiction, lines: Mapping[int, set[str]]) -> Contradiction | None:
    """`found` of only the lines of each side `lines` names (None: fewer than two sides
    left); its `why` said anew when a line is left out."""
    sides: list[ClaimedLine] = []
    for index, side in enumerate(_sides(found)):
        wanted = lines.get(index, set())
        said = [
            (place, at)
            for place, at in (
                (side.place, side.written_at),
                *((said.place, said.written_at) for said in side.elsewhere),
            )
            if _line(place.text) in wanted
        ]
        if not said:
            continue
        whole = len(said) == 1 + len(side.elsewhere)
        (place, at), *rest = said
        sides.append(
            side.replaced(
                place=place,
                written_at=at,
                elsewhere=tuple(SaidAt(place=p, written_at=t) for p, t in rest),
                more_places=side.more_places if whole else None,
            )
        )
    if len(sides) < 2:
        return None
    if sides == list(_sides(found)):
        return found
    first, second, *others = sides
    newer: Literal["first", "second"] | None = None
    if first.written_at != second.written_at:
        newer = "first" if first.written_at > second.written_at else "second"
    values = [side.value for side in sides]
    why = (
        f"One says {values[0]}, the other {values[1]}"
        if len(values) == 2
        else (f"They say {len(values)} values: {', '.join(values)}")
    )
    return found.replaced(
        first=first,
        second=second,
        others=tuple(others),
        newer=newer,
        more_values=None,
        why=f"{why}: at most one is still true.",
    )
