"""What needs you, without Qt (issue 72 point 7): the room's sections in order, each
counted in words, its first items leading to their files and lines, the rest a panel
away."""

from __future__ import annotations

from memtab.check.records import Finding
from memtab.components.trust.room import (
    SHOWN,
    ChangedFile,
    RoomFacts,
    Target,
    headline,
    room_sections,
)
from memtab.trust.contradictions.records import ClaimedLine, Contradiction, SaidAt
from memtab.trust.leaks.records import Leak
from memtab.trust.records import MemoryPlace
from memtab.trust.report import TrustReport


def _leak(index: int) -> Leak:
    place = MemoryPlace(
        path=f"/memories/global/web-{index}.md", agent="mux", scope="global", line=3, text="x"
    )
    return Leak(
        kind="project-in-global",
        place=place,
        names="/src/web",
        belongs="project /src/web's memory",
        belongs_to="/src/web",
        why="Global memory is loaded by every session.",
    )


def _finding(kind: str, path: str, line: int | None, message: str) -> Finding:
    return Finding(
        kind=kind, path=path, agent="mux", scope="workspace", line=line, message=message, why="w"
    )


def test_the_sections_say_what_needs_you_in_order() -> None:
    changed = [
        ChangedFile("Claude Code", "/h/memory/global/a.md", 10),
        ChangedFile("mux", "/h/memory/global/b.md", 30),
        ChangedFile("Claude Code", "/h/memory/global/c.md", 20),
    ]
    findings = [
        _finding("missing-path", "/memories/workspace/dev.md", 6, "`src/x.py` is not there"),
        _finding("project-missing", "/src/gone", None, "The project /src/gone is not on this disk"),
    ]
    report = TrustReport(leaks=tuple(_leak(i) for i in range(SHOWN + 2)))
    sections = room_sections(RoomFacts(changed=changed, inbox=2, findings=findings, trust=report))
    assert [s.key for s in sections] == [
        "changed",
        "inbox",
        "stale",
        "duplicates",
        "contradictions",
        "leaks",
    ]
    changed_section = sections[0]
    assert changed_section.summary == "mux 1, Claude Code 2"
    assert [i.text for i in changed_section.items] == [
        "b.md — mux",
        "c.md — Claude Code",
        "a.md — Claude Code",
    ]
    assert changed_section.items[0].target == Target(physical="/h/memory/global/b.md")
    stale = sections[2]
    assert stale.summary == "2 lines in 2 files"
    assert stale.items[0].target == Target(path="/memories/workspace/dev.md", line=6)
    assert stale.items[1].target == Target(panel="check")  # a project: the Check panel
    leaks = sections[-1]
    assert leaks.count == SHOWN + 2 and len(leaks.items) == SHOWN
    assert leaks.more == "2 more in the Trust panel"
    assert leaks.items[0].text.startswith("web-0.md:3 names /src/web — belongs in project")
    assert leaks.items[0].target == Target(path="/memories/global/web-0.md", line=3)
    assert headline(sections) == f"{3 + 2 + 2 + SHOWN + 2} things to look at"


def test_nothing_to_look_at_is_said_so() -> None:
    sections = room_sections(RoomFacts(changed=[], inbox=0, findings=[], trust=TrustReport()))
    assert headline(sections) == "Nothing needs you: every agent's memory is in order."
    assert all(not s.items for s in sections)
    assert headline(()) == "Looking at the memory…"
    unknown = room_sections(RoomFacts(inbox=2, trust_status="Looking…"))
    assert headline(unknown) == "2 things to look at so far, still looking…"
    assert headline(room_sections(RoomFacts(inbox=0, trust_status="Looking…"))) == (
        "Looking at the memory…"
    )


def test_while_the_memory_is_being_read_the_sections_say_so() -> None:
    sections = room_sections(RoomFacts(trust_status="Looking…", check_status="Not checked yet."))
    assert [(s.key, s.summary) for s in sections] == [
        ("stale", "Not checked yet."),
        ("duplicates", "Looking…"),
        ("contradictions", "Looking…"),
        ("leaks", "Looking…"),
    ]


def _side(value: str, *names: str, at: int) -> ClaimedLine:
    def place(name: str) -> MemoryPlace:
        return MemoryPlace(path=f"/memories/global/{name}", agent="mux", scope="global", line=3)

    elsewhere = tuple(SaidAt(place=place(name), written_at=at - 1) for name in names[1:])
    return ClaimedLine(place=place(names[0]), value=value, written_at=at, elsewhere=elsewhere)


def test_a_disagreement_said_in_many_places_is_counted_once() -> None:
    """Copies of each side (an import, a rule in three projects) are one disagreement: the
    count says disagreements, the row each side's newest place and how many more, the tip
    every place."""
    found = Contradiction(
        kind="port",
        about="API's port",
        first=_side("8080", "a.md", "b.md", "c.md", at=10),
        second=_side("9000", "d.md", "e.md", at=20),
        newer="second",
        why="One says 8080 (in 3 places), the other 9000 (in 2 places).",
    )
    [section] = [
        s
        for s in room_sections(RoomFacts(trust=TrustReport(contradictions=(found,))))
        if s.key == "contradictions"
    ]
    assert (section.count, section.summary) == (1, "1 disagreement")
    [item] = section.items
    assert item.text == "API's port: 9000 (d.md:3 and 1 more) vs 8080 (a.md:3 and 2 more)"
    assert item.target == Target(path="/memories/global/d.md", line=3)
    assert item.tip.splitlines()[1:] == [
        "9000:",
        "    d.md:3 (mux, global)",
        "    e.md:3 (mux, global)",
        "8080:",
        "    a.md:3 (mux, global)",
        "    b.md:3 (mux, global)",
        "    c.md:3 (mux, global)",
    ]


def test_a_thing_said_many_ways_names_how_many_other_values() -> None:
    """The API's port said four ways, one listed past the two sides and one counted: the
    row says how many other values, the tip lists each listed value's places."""
    found = Contradiction(
        kind="port",
        about="API's port",
        first=_side("8080", "a.md", at=10),
        second=_side("9000", "d.md", at=20),
        newer="second",
        others=(_side("3000", "f.md", at=5),),
        more_values=1,
    )
    [item] = next(
        s
        for s in room_sections(RoomFacts(trust=TrustReport(contradictions=(found,))))
        if s.key == "contradictions"
    ).items
    assert item.text.endswith("vs 8080 (a.md:3) and 2 other values")
    assert item.tip.splitlines()[-2:] == ["3000:", "    f.md:3 (mux, global)"]
