"""Lines of two memories a session sees together that state different values for one
thing (docs/formats.md §19.6).

Each memory's claims (`claims.claims_of`: a port, a version, a setting, a command, a
path, a tool to use, always or never) are compared with every other memory's claims of
the same kind about the same thing, where one workspace's sessions see both memories
(`check.documents.seen_together`: global memory with everything, a project's with its
workspaces'). Two claims in one memory are never compared (one file telling how a value
changed is telling a story), nor records of what happened (session summaries, episodes).
A line said in many places — copies of one memory (Codex's import of Claude Code's, a
rule written into three projects) — is one statement (its claim and its line as lines
are compared, `normalize_line`): two statements that disagree are one contradiction, each
side listing every place it is said that a session sees with the other side, never a
pair for each copy of one with each copy of the other. Each side says when its newest
place was written, by blame (history: the version that brought the line in), else when
its file last changed, and the contradiction which side is newer.

`ContradictionsEngine` keeps each file's claims (`kept.per_file`, in Memtab's cache dir
too): a second run, in this process or the next, reads every file again but reads claims
only out of those whose text changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePath
from typing import Any, Literal, NamedTuple, get_args

from memtab.check.documents import Collected, Document
from memtab.fs.memo import collection_paused
from memtab.kept.per_file import KeptOnDisk, NotAsMadeError, PerFile, is_line, only
from memtab.kept.reports import KeptReport
from memtab.markdown import text_lines
from memtab.store.home import Home
from memtab.store.text.content_lines import normalize_line
from memtab.trust.claims import Claim, claims_of
from memtab.trust.contradictions.disagreements import Disagreement, Said, disagreements
from memtab.trust.contradictions.kept_report import KeptContradictions
from memtab.trust.contradictions.records import (
    ClaimedLine,
    ClaimKind,
    Contradiction,
    ContradictionsReport,
    SaidAt,
)
from memtab.trust.contradictions.times import BlamedTimes, LineTime
from memtab.trust.memories import anew, copies_of, place_of
from memtab.trust.polarity import UNSURE
from memtab.trust.records import MemoryPlace

CLAIM_KINDS = frozenset(get_args(ClaimKind))

MAX_CONTRADICTIONS = 500
"""At most this many contradictions are listed (the first by path), the rest counted."""
MAX_VALUES = 10
"""At most this many values of one thing are listed, the rest counted."""
MAX_PLACES = 25
"""At most this many places of one value are listed (the newest), the rest counted."""


class Found(NamedTuple):
    """What a run found: the contradictions the claims prove, and those they only suspect."""

    contradictions: list[Contradiction]
    candidates: list[Contradiction]


class ContradictionsEngine(KeptContradictions):
    """Finds the contradictions of a home's memory (see the module doc)."""

    def __init__(
        self,
        home: Home,
        *,
        env: Mapping[str, str] | None = None,
        sources: bool = True,
        line_time: LineTime | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`clock`: seconds, for the search's time bound (`time_bound`, tests: a fake)."""
        super().__init__(home, env=env, sources=sources)
        self._claims = PerFile(
            KeptOnDisk.of_home(home, "contradictions", pack=packed_claims, unpack=unpacked_claims)
        )
        self._blamed: BlamedTimes | None = None
        if line_time is None:
            line_time = self._blamed = BlamedTimes(home)
        self._line_time = line_time
        self._reports = KeptReport(
            home,
            "contradictions",
            ContradictionsReport,
            (Contradiction, SaidAt, ClaimedLine, MemoryPlace),
            findings="contradictions",
        )
        self._clock = clock
        self._timed_out = False
        self.cut = ""
        """Why the last run's answer is not whole, in words ("": it is)."""
        self.compared: list[Document] = []
        """The last run's memories compared: the wider net a model judges (`trust.judging.net`)."""
        self.records: list[Document] = []
        """The last run's records of what happened, never compared by their claims: the net
        asks them too (a later session's record may say a memory's value has changed)."""

    @collection_paused()
    def find(self, workspace_id: str | None = None, *, reuse: bool = False) -> ContradictionsReport:
        """Every contradiction of the home's memory (or of what `workspace_id`'s sessions
        see); `reuse`: the report the last run kept when nothing it read changed, the
        history its lines are blamed by neither (`kept.reports`; then `compared` is not
        the run's: no model judges it). HomeError for an unusable registry or an unknown
        workspace."""

        def made(collected: Collected, everything: bool) -> tuple[ContradictionsReport, bool]:
            report = self.report_of(collected.documents, everything=everything)
            return report, not self._timed_out  # a search cut by time is not the answer

        reports = self._reports if reuse and self._blamed is not None else None
        report = self.reported(workspace_id, reports, self._context, made)
        if reports is not None:
            self.cut = report.cut
        return report

    def report_of(
        self, documents: Sequence[Document], *, everything: bool = True
    ) -> ContradictionsReport:
        """The contradictions and candidates among `documents` (`found_in`) as a report: what
        a model judging them is given (`trust.judging`)."""
        found = self.found_in(documents, everything=everything)
        return ContradictionsReport(
            contradictions=tuple(found.contradictions),
            files_read=len(documents),
            cut=self.cut,
            candidates=tuple(found.candidates),
        )

    def pairs_of(
        self, documents: Sequence[Document], *, everything: bool = True
    ) -> list[Contradiction]:
        """The contradictions the claims prove among `documents` (`found_in`)."""
        return self.found_in(documents, everything=everything).contradictions

    def found_in(self, documents: Sequence[Document], *, everything: bool = True) -> Found:
        """The contradictions and candidates among `documents` (see the module doc);
        `everything`: they are every memory the engine reads (what it keeps of others is
        forgotten). Claims kept that are found at their use not to be the file's are worked
        out anew."""
        return anew("contradictions", lambda: self._found_in(documents, everything), [self._claims])

    def _found_in(self, documents: Sequence[Document], everything: bool) -> Found:
        compared = sorted((d for d in documents if not d.record), key=lambda d: (d.path, d.key))
        self.compared = compared
        self.records = sorted((d for d in documents if d.record), key=lambda d: (d.path, d.key))
        claims = self._claims.of_all(compared, _claims_of, everything=everything)
        lines_of: dict[str, list[str]] = {}  # a file's lines, split once a run
        for document, found in zip(compared, claims, strict=True):
            for claim in found:
                if not normalize_line(_line_text(document, claim.line, lines_of)):
                    raise NotAsMadeError("a claim of a line its file does not have")
        clock = self._clock
        until = clock() + self.time_bound
        searched = disagreements(compared, claims, out_of_time=lambda: clock() > until)
        listed: list[Contradiction] = []
        suspected: list[Contradiction] = []
        seen: set[tuple[frozenset[tuple[str, int]], ...]] = set()
        for disagreement in searched.found:
            # Two lines that disagree on two things (a tool and the one not to use) are
            # told once.
            lines = tuple(
                frozenset((d.key, c.line) for d, c in places) for _, places in disagreement.sides
            )
            if lines[:2] in seen or lines[1::-1] in seen:
                continue
            seen.add(lines[:2])
            shown = self._disagreement(disagreement, lines_of)
            (suspected if _suspected(disagreement) else listed).append(shown)
        if self._blamed is not None:
            self._blamed.keep({d.key for d in compared} if everything else None)
        listed.sort(key=lambda c: (c.first.place.path, c.first.place.line or 0))
        suspected.sort(key=lambda c: (c.first.place.path, c.first.place.line or 0))
        self.cut = ""
        self._timed_out = searched.cut
        if searched.cut:
            self.cut = (
                f"Compared for {self.time_bound:g} s and stopped: the contradictions listed "
                "are those found by then; others may remain."
            )
        if len(listed) > MAX_CONTRADICTIONS:
            self.cut = " ".join(
                (self.cut, f"{len(listed)} found: the first {MAX_CONTRADICTIONS} are listed.")
            ).strip()
        return Found(listed[:MAX_CONTRADICTIONS], suspected[:MAX_CONTRADICTIONS])

    def contradiction_of(self, sides: Sequence[tuple[Document, Claim]]) -> Contradiction:
        """The contradiction of claims the offline search did not join (a model's, `trust.judging`):
        each a memory and the claim on its line, their values different."""
        found = Disagreement([(claim._replace(line=0), [(d, claim)]) for d, claim in sides])
        return self._disagreement(found, {})

    def _disagreement(self, found: Disagreement, lines_of: dict[str, list[str]]) -> Contradiction:
        by_value: dict[str, list[Said]] = {}
        for claim, places in found.sides:
            by_value.setdefault(claim.value, []).extend(places)
        listed = list(by_value.values())[:MAX_VALUES]
        first, second, *others = (self._side(places, lines_of) for places in listed)
        claim = found.sides[0][0]
        newer: Literal["first", "second"] | None = None
        if first.written_at != second.written_at:
            newer = "first" if first.written_at > second.written_at else "second"
        more = len(by_value) - len(listed)
        return Contradiction(
            kind=claim.kind,  # type: ignore[arg-type]
            about=claim.shown,
            first=first,
            second=second,
            newer=newer,
            why=_why(first, second, newer, others, more),
            others=tuple(others),
            more_values=more or None,
        )

    def _side(self, places: list[Said], lines_of: dict[str, list[str]]) -> ClaimedLine:
        """A side said in `places`: its newest place first (by path and line among
        places written at one time), each other one under it — Codex's copy of a memory
        among them after the rest, never first (`copies_of`: shown on its original)."""
        copies = copies_of([document for document, _ in places])

        def order(at: int, document: Document, claim: Claim) -> tuple[Any, ...]:
            return (document.key in copies, -at, document.path, document.key, claim.line)

        # A line was written no later than its file last changed: past the `MAX_PLACES`
        # newest found, a place whose file changed before them is not blamed (a side said
        # in a thousand copies blames a few dozen).
        timed: list[tuple[int, Document, Claim]] = []
        for document, claim in sorted(places, key=lambda p: order(p[0].modified_ms, *p)):
            if len(timed) >= MAX_PLACES and order(document.modified_ms, document, claim) >= (
                order(*timed[MAX_PLACES - 1])
            ):
                break
            timed.append((self._line_time(document, claim.line), document, claim))
            timed.sort(key=lambda t: order(*t))
        written_at, document, claim = timed[0]
        value = claim.value.removeprefix("not:")
        elsewhere = tuple(
            SaidAt(place=_place(other, line.line, lines_of), written_at=at)
            for at, other, line in timed[1:MAX_PLACES]
        )
        return ClaimedLine(
            place=_place(document, claim.line, lines_of),
            value=f"not {value}" if claim.value.startswith("not:") else value,
            written_at=written_at,
            elsewhere=elsewhere,
            more_places=len(places) - MAX_PLACES if len(places) > MAX_PLACES else None,
        )


def _suspected(found: Disagreement) -> bool:
    """Whether the words only suspect a disagreement: a side is a guess (an imperative of a
    verb no list names, `polarity.guessed`), or rules always and never to do things said in
    other words ("Never write raw SQL" / "Always write migrations in raw SQL": the one that
    says more may be the other's exception). A candidate, not a finding."""
    if any(UNSURE in claim.key for claim, _ in found.sides):
        return True
    actions = {claim.key for claim, _ in found.sides if claim.kind == "always-never"}
    return len(actions) > 1


def _claims_of(document: Document) -> tuple[Claim, ...]:
    """A memory's claims, but those of a thing it gives two values or more: a memory
    telling how a value changed (0.130.0, then 0.131.0, then 0.132.0) tells a story, and
    claims none of them."""
    values: dict[tuple[str, str], set[str]] = {}
    found = _read_claims(document)
    for claim in found:  # "X, not Y" says one value, and one it rules out
        said = values.setdefault((claim.kind, claim.key), set())
        said.update(() if claim.value.startswith("not:") else (claim.value,))
    return tuple(claim for claim in found if len(values[(claim.kind, claim.key)]) <= 1)


def _read_claims(document: Document) -> tuple[Claim, ...]:
    note = PurePath(document.path.rsplit(":", 1)[-1]).stem
    return claims_of(document.text, document.project_name, note)


def packed_claims(claims: tuple[Claim, ...]) -> object:
    """A memory's claims as the engine's cache keeps them (`per_file.KeptOnDisk`)."""
    return tuple(map(tuple, claims))


def unpacked_claims(held: Any) -> tuple[Claim, ...]:
    """`packed_claims`' inverse (TypeError or ValueError for what it never made: a wrong
    type at any level, a line no file has, a kind no claim is, an empty key or value)."""
    if type(held) is not tuple:
        raise TypeError("not a memory's claims")
    claims = tuple(map(Claim._make, held))
    for claim in claims:
        if not is_line(claim.line) or not only(str, claim[1:]):
            raise TypeError("not a claim")
        if claim.kind not in CLAIM_KINDS or not claim.key or not claim.value:
            raise ValueError("not a claim")
    return claims


def _line_text(document: Document, line: int, lines_of: dict[str, list[str]]) -> str:
    lines = lines_of.get(document.key)
    if lines is None:
        lines = lines_of[document.key] = text_lines(document.text)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _place(document: Document, line: int, lines_of: dict[str, list[str]]) -> MemoryPlace:
    return place_of(document, line, _line_text(document, line, lines_of))


def _why(
    first: ClaimedLine,
    second: ClaimedLine,
    newer: str | None,
    others: Sequence[ClaimedLine],
    more: int,
) -> str:
    if others:
        values = [f"{side.value}{_in_places(side)}" for side in (first, second, *others)]
        shown = ", ".join(values) + (f" and {more} more" if more else "")
        said = f"They say {len(values) + more} values: {shown}"
    else:
        said = f"One says {first.value}{_in_places(first)}, the other {second.value}"
        said += _in_places(second)
    if newer is None:
        return f"{said}: at most one is still true, and history cannot tell which is newer."
    newest = first if newer == "first" else second
    return f"{said}: at most one is still true; the line saying {newest.value} is newer."


def _in_places(side: ClaimedLine) -> str:
    count = len(side.elsewhere) + 1 + (side.more_places or 0)
    return f" (in {count} places)" if count > 1 else ""
