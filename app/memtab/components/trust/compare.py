"""Compare, without Qt: every place of a finding or a candidate — a contradiction's sides, a
group's members — its file as it is now, side by side and read-only, its line marked, each
a way to open it; and what the user's model said of a candidate (`Judged`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from memtab.components.trust.review import file_name
from memtab.humanize import plural, relative_time
from memtab.trust.contradictions.records import ClaimedLine, Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace
from memtab.trust.report import TrustReport

Comparable = DuplicateGroup | Contradiction
OFFLINE = "offline"
"""`judged_by` of what no model judged: the records' default (`judged_by="offline"` in
`trust.duplicates.records` and `trust.contradictions.records`)."""


@dataclass(frozen=True)
class ComparedSide:
    """One place compared: its title in words, its line, its file's text now (None: it
    cannot be read)."""

    place: MemoryPlace
    title: str
    text: str | None = None


@dataclass(frozen=True)
class Compared:
    """What Compare shows: `found`'s places, each file as read (`problem`: what could not
    be, in words)."""

    found: Comparable
    title: str
    why: str
    sides: tuple[ComparedSide, ...]
    problem: str = ""


def compared_places(found: Comparable) -> Compared:
    """`found`'s places to compare, titled, their texts not read yet: a contradiction's
    sides at their newest places (newer first when history tells), a group's members."""
    if isinstance(found, Contradiction):
        sides = (found.first, found.second, *found.others)
        newer = {"first": found.first, "second": found.second}.get(found.newer or "")
        ordered = sorted(sides, key=lambda side: side is not newer)
        return Compared(
            found,
            f"Disagreeing: {found.about}",
            found.why,
            tuple(
                ComparedSide(s.place, _side_title(s, newer, found.newer is None)) for s in ordered
            ),
        )
    others = plural(len(found.members) - 1, "other")
    return Compared(
        found,
        f"Compare: {file_name(found.members[0].path)} and {others}",
        found.why,
        tuple(ComparedSide(place, _place_title(place)) for place in found.members),
    )


def _place_title(place: MemoryPlace) -> str:
    line = f":{place.line}" if place.line is not None else ""
    return f"{place.path}{line} ({where_in_words(place)})"


def _side_title(side: ClaimedLine, newer: ClaimedLine | None, undecided: bool) -> str:
    when = relative_time(side.written_at) if side.written_at else "at an unknown time"
    age = "" if undecided or newer is None else ("Newer — " if side is newer else "Older — ")
    return f"{age}{_place_title(side.place)}\nsays {side.value}, written {when}"


@dataclass(frozen=True)
class Judged:
    """What the user's model said of a candidate: `confirmed` (True: it says what the
    candidate suspects; False: it does not; None: no verdict — `note` says why), its
    one-line `reason`, the model's name, and what judging did (`note`)."""

    found: Comparable
    confirmed: bool | None
    reason: str = ""
    model: str = ""
    note: str = ""

    def said(self) -> str:
        """The verdict in words, for the status line and the candidate's row."""
        if self.confirmed is None:
            return f"Your model gave no verdict: {self.note or 'it did not answer'}"
        same = isinstance(self.found, DuplicateGroup)
        if self.confirmed:
            verdict = "the same" if same else "they disagree"
        else:
            verdict = "not the same" if same else "no disagreement"
        return f"{self.model}: {verdict} — {self.reason}"


def finding_key(found: object) -> tuple[str, ...] | None:
    """What names a finding or a candidate from one look to the next (None: not one)."""
    if isinstance(found, DuplicateGroup):
        return ("duplicate", found.key)
    if isinstance(found, Contradiction):
        # By what each side says, not where its newest place is: a copy written again
        # (a newer place) leaves the keys on the same contradiction.
        said = (" ".join(side.place.text.split()) for side in (found.first, found.second))
        return ("contradiction", found.kind, found.about, *said)
    if isinstance(found, Leak):
        return ("leak", found.kind, found.place.path, str(found.place.line))
    return None


def with_verdicts(report: TrustReport, judged: Mapping[tuple[str, ...], Judged]) -> TrustReport:
    """`report` with what the user's model said of its candidates: one it confirmed shown
    as a finding it judged, one it dismissed left a candidate, its reason said."""
    groups, group_candidates = _sorted(report.duplicate_candidates, judged)
    pairs, pair_candidates = _sorted(report.contradiction_candidates, judged)
    return replace(
        report,
        duplicates=(*report.duplicates, *groups),
        duplicate_candidates=group_candidates,
        contradictions=(*report.contradictions, *pairs),
        contradiction_candidates=pair_candidates,
    )


_Candidate = TypeVar("_Candidate", DuplicateGroup, Contradiction)


def _sorted(
    candidates: Sequence[_Candidate], judged: Mapping[tuple[str, ...], Judged]
) -> tuple[tuple[_Candidate, ...], tuple[_Candidate, ...]]:
    """(the candidates the model confirmed, the others), each with its verdict's reason."""
    confirmed: list[_Candidate] = []
    left: list[_Candidate] = []
    for candidate in candidates:
        verdict = judged.get(finding_key(candidate) or ())
        if verdict is None or verdict.confirmed is None:
            left.append(candidate)
            continue
        said = candidate.replaced(judged_by=verdict.model, reason=verdict.reason)
        (confirmed if verdict.confirmed else left).append(said)
    return tuple(confirmed), tuple(left)
