"""What needs the user, without Qt: the room shown with no file open and the trust panel's rows
— each section (agents' changes, Inbox, stale, duplicates, contradictions, leaks) its count and
first `SHOWN` items."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar

from memtab.check.records import Finding
from memtab.components.check.check import KIND_WORDS
from memtab.humanize import plural
from memtab.trust.contradictions.records import ClaimedLine, Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import AGENT_NAMES, where_in_words
from memtab.trust.records import MemoryPlace
from memtab.trust.report import CONTRADICTION_CANDIDATES, DUPLICATE_CANDIDATES, TrustReport

_Found = TypeVar("_Found")

SHOWN = 4  # Items a section of the room lists (the rest are in its panel).

SectionKey = Literal["changed", "inbox", "stale", "duplicates", "contradictions", "leaks"]
PANEL_OF: Mapping[SectionKey, str] = {
    "changed": "",
    "inbox": "inbox",
    "stale": "check",
    "duplicates": "trust",
    "contradictions": "trust",
    "leaks": "trust",
}
"""The panel that lists a section's every item ("": none, its items are all shown)."""
TRUST_TITLES: Mapping[SectionKey, str] = {
    "duplicates": "Said twice",
    "contradictions": "Disagreeing",
    "leaks": "In the wrong place",
}
"""The trust engines' sections, in the room's order."""
CANDIDATE_TITLES: Mapping[SectionKey, str] = {
    "duplicates": DUPLICATE_CANDIDATES,
    "contradictions": CONTRADICTION_CANDIDATES,
}
"""What the words only suspect (a report's candidates), each kind apart from the findings:
never counted, never acted on in one click."""


@dataclass(frozen=True)
class Target:
    """Where an item leads: a memory file (`path` or `physical`) at a line, or a `panel`."""

    path: str = ""
    line: int | None = None
    workspace: str | None = None
    project: str | None = None
    physical: str = ""
    panel: str = ""


@dataclass(frozen=True)
class RoomItem:
    """One line of a section: what it says, its tooltip, and where it leads."""

    text: str
    tip: str
    target: Target


@dataclass(frozen=True)
class RoomSection:
    """One section of the room."""

    key: SectionKey
    title: str
    count: int
    summary: str
    items: tuple[RoomItem, ...] = ()
    more: str = ""  # What the section does not list, and where it is ("" when it lists everything).
    known: bool = True  # False while its count is not known yet (the summary says why).
    apart: str = ""
    """What the section does not count — candidates, in the Trust panel — in words ("")."""


@dataclass(frozen=True)
class ChangedFile:
    """A badged file: who changed it since the user last opened it, and when."""

    who: str
    physical: str
    at_ms: int


@dataclass(frozen=True)
class RoomFacts:
    """What the room is made of: each part None until first known."""

    changed: Sequence[ChangedFile] | None = None
    inbox: int | None = None
    findings: Sequence[Finding] | None = None
    trust: TrustReport | None = None
    trust_status: str = ""
    check_status: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)


def place_target(place: MemoryPlace) -> Target:
    return Target(place.path, place.line, place.workspace, place.project)


def _line(place: MemoryPlace) -> str:
    name = place.path.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return f"{name}:{place.line}" if place.line is not None else name


def _quote(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def duplicate_item(group: DuplicateGroup) -> RoomItem:
    first = group.members[0]
    others = len(group.members) - 1
    text = f"{_line(first)} and {plural(others, 'other')} — {group.why}"
    tip = "\n".join(f"{_line(m)} ({where_in_words(m)})" for m in group.members)
    return RoomItem(_quote(text, 110), tip, place_target(first))


def contradiction_item(found: Contradiction) -> RoomItem:
    """One disagreement, the newer side first, each at its newest place (and how many
    more places say it: copies are one side); the tip lists every place."""
    newer, older = found.second, found.first
    if found.newer == "first":
        newer, older = found.first, found.second
    text = f"{found.about}: {newer.value} ({_said_in(newer)}) vs {older.value} ({_said_in(older)})"
    values = len(found.others) + (found.more_values or 0)
    if values:
        text = f"{text} and {plural(values, 'other value')}"
    tip = found.why or text
    if newer.elsewhere or older.elsewhere or found.others:
        for side in (newer, older, *found.others):
            tip += f"\n{side.value}:" + "".join(
                f"\n    {_line(place)} ({where_in_words(place)})" for place in side.places
            )
    return RoomItem(_quote(text, 110), tip, place_target(newer.place))


def _said_in(side: ClaimedLine) -> str:
    count = len(side.elsewhere) + (side.more_places or 0)
    more = f" and {count} more" if count else ""
    return f"{_line(side.place)}{more}"


def leak_item(leak: Leak) -> RoomItem:
    """One leak at its first place (and how many more: lines naming the same project,
    Codex's copies); the tip lists every place."""
    more = f" and {len(leak.elsewhere)} more" if leak.elsewhere else ""
    text = f"{_line(leak.place)}{more} names {leak.names} — belongs in {leak.belongs}"
    tip = leak.why + "".join(
        f"\n    {_line(place)} ({where_in_words(place)})" for place in leak.elsewhere
    )
    return RoomItem(_quote(text, 110), tip, place_target(leak.place))


def finding_item(finding: Finding) -> RoomItem:
    place = MemoryPlace(
        path=finding.path,
        agent=finding.agent,
        scope=finding.scope,
        line=finding.line,
        project=finding.project,
        workspace=finding.workspace,
    )
    kind = KIND_WORDS.get(finding.kind, finding.kind)
    if finding.kind == "project-missing":  # about a project, not a file: its panel shows it
        return RoomItem(_quote(finding.message, 110), finding.why, Target(panel="check"))
    return RoomItem(
        _quote(f"{_line(place)} — {kind}: {finding.message}", 110),
        finding.why,
        place_target(place),
    )


def _changed(files: Sequence[ChangedFile]) -> RoomSection:
    newest = sorted(files, key=lambda f: -f.at_ms)
    by_who = Counter(file.who for file in newest)  # in the order first seen
    summary = ", ".join(f"{who} {count}" for who, count in by_who.items())
    items = tuple(
        RoomItem(
            f"{file.physical.rsplit('/', 1)[-1]} — {file.who}",
            f"{file.who} changed {file.physical} since you last opened it",
            Target(physical=file.physical),
        )
        for file in newest
    )
    return _section("changed", "Changed since you last looked", summary, items)


def _section(key: SectionKey, title: str, summary: str, items: Sequence[RoomItem]) -> RoomSection:
    shown = tuple(items[:SHOWN])
    more = ""
    if len(items) > SHOWN:
        panel = PANEL_OF[key]
        more = f"{len(items) - SHOWN} more" + (f" in the {panel.title()} panel" if panel else "")
    return RoomSection(key, title, len(items), summary, shown, more)


def _counted(
    key: SectionKey, found: Sequence[_Found], item: Callable[[_Found], RoomItem], *noun: str
) -> RoomSection:
    """A trust section: an item for each thing `found`, counted in `noun` (and its plural)
    when there are any."""
    summary = plural(len(found), *noun) if found else ""
    return _section(key, TRUST_TITLES[key], summary, [item(one) for one in found])


def _apart(count: int, noun: str, might: str) -> str:
    """Candidates in words: not counted, a panel away ("" when there are none)."""
    if not count:
        return ""
    return f"Not counted: {plural(count, noun)} that might {might} — in the Trust panel"


def room_sections(facts: RoomFacts) -> tuple[RoomSection, ...]:
    """The room's sections, in order: each known part's."""
    sections: list[RoomSection] = []
    if facts.changed is not None:
        sections.append(_changed(facts.changed))
    if (inbox := facts.inbox) is not None:
        summary = plural(inbox, "proposed memory", "proposed memories") if inbox else ""
        review = RoomItem("Review them in the Inbox", "", Target(panel="inbox"))
        waiting = (review,) if inbox else ()
        sections.append(RoomSection("inbox", "Waiting in the Inbox", inbox, summary, waiting))
    if facts.findings is not None:
        findings = sorted(facts.findings, key=lambda f: (f.path, f.line or 0))
        files = len({f.path for f in findings})
        summary = f"{plural(len(findings), 'line')} in {plural(files, 'file')}" if findings else ""
        items = [finding_item(f) for f in findings]
        sections.append(_section("stale", "No longer true of the code", summary, items))
    elif facts.check_status:
        sections.append(
            RoomSection("stale", "No longer true of the code", 0, facts.check_status, known=False)
        )
    report = facts.trust
    if report is not None:
        duplicates = _counted("duplicates", report.duplicates, duplicate_item, "group")
        contradictions = _counted(
            "contradictions", report.contradictions, contradiction_item, "disagreement"
        )
        sections += [
            replace(
                duplicates, apart=_apart(len(report.duplicate_candidates), "group", "say the same")
            ),
            replace(
                contradictions,
                apart=_apart(len(report.contradiction_candidates), "pair", "disagree"),
            ),
            _counted("leaks", report.leaks, leak_item, "memory", "memories"),
        ]
    elif facts.trust_status:
        sections += [
            RoomSection(key, title, 0, facts.trust_status, known=False)
            for key, title in TRUST_TITLES.items()
        ]
    return tuple(sections)


def headline(sections: Sequence[RoomSection]) -> str:
    """The room's first line: how many things need the user, or that nothing does."""
    count = sum(s.count for s in sections)
    if not sections or (count == 0 and not all(s.known for s in sections)):
        return "Looking at the memory…"
    if count == 0:
        return "Nothing needs you: every agent's memory is in order."
    if not all(s.known for s in sections):
        return f"{plural(count, 'thing')} to look at so far, still looking…"
    return f"{plural(count, 'thing')} to look at"


def agent_name(who: str) -> str:
    """A badge's label as the room names it ("claude code" → "Claude Code")."""
    return next((name for name in AGENT_NAMES.values() if name.lower() == who.lower()), who)
