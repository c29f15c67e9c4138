"""Lines of two memories a session sees together that state different values for one
thing (issue 72 point 3): each kind, what is no contradiction, and which line is newer."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.fs.clock import now_ms
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.claims import claims_of
from memtab.trust.contradictions.engine import MAX_PLACES, MAX_VALUES, ContradictionsEngine
from memtab.trust.contradictions.records import Contradiction, ContradictionsReport
from support.seeded_memories import memory

DAY_MS = 24 * 60 * 60 * 1000


def pairs(*documents: Document) -> list[Contradiction]:
    times = {d.key: d.modified_ms for d in documents}
    engine = ContradictionsEngine(Home(Path("/nowhere")), line_time=lambda d, _: times[d.key])
    return engine.pairs_of(documents)


def note(*lines: str) -> str:
    return "# Notes\n\n" + "".join(f"- {line}\n" for line in lines)


@pytest.mark.parametrize(
    ("one", "other", "kind", "values"),
    [
        ("The API runs on port 8080.", "The API listens on 9000.", "port", ("8080", "9000")),
        ("We use Postgres 16.", "The project is on Postgres 15.", "version", ("16", "15")),
        # a word after a three-part version names no count of it (fresh14's Quarto)
        ("Quarto 1.6.39 renders the docs.", "The docs render with Quarto 1.5.57.", "version",
         ("1.6.39", "1.5.57")),
        ("Run the api tests with `pnpm test --filter api`.", "`make test-api` runs the api tests.",
         "command", ("pnpm test --filter api", "make test-api")),
        ("The fixtures live in `tests/fixtures/`.", "`spec/fixtures` holds the fixtures.", "path",
         ("tests/fixtures", "spec/fixtures")),
        ("Use pnpm, not npm.", "We switched from pnpm to yarn.", "tool", ("pnpm", "yarn")),
        ("Always squash-merge pull requests.", "Never squash-merge pull requests.",
         "always-never", ("always", "never")),
        # one thing, one value each (issue 83): a branch, an address, a number
        ("Default branch is `trunk`.", "The default branch is `main`.", "value",
         ("trunk", "main")),
        ("Staging is at https://staging.acme.dev (VPN needed).",
         "Staging lives at https://acme-staging.dev.", "value",
         ("staging.acme.dev", "acme-staging.dev")),
        ("The line length is 88 (the ruff default).", "The line length is 100 in this repo.",
         "value", ("88", "100")),
    ],
)  # fmt: skip
def test_each_kind_of_contradiction(
    one: str, other: str, kind: str, values: tuple[str, str]
) -> None:
    [found] = pairs(
        memory("global", "mine.md", note(one), modified_ms=1000),
        memory(
            "project:acme-api", "ours.md", note("Ask Priya about billing.", other), modified_ms=2000
        ),
    )
    assert found.kind == kind
    assert (found.first.value, found.second.value) == values
    assert (found.first.place.line, found.second.place.line) == (3, 4)
    assert found.newer == "second"
    assert f"the line saying {values[1]} is newer" in found.why


@pytest.mark.parametrize(
    "other",
    [
        "The API used to run on port 3000.",  # what was
        "The API runs on 3000 or 3001, depending on the profile.",  # alternatives
        "Run the api tests with `pnpm test --filter api` or `make test-api`.",
        "Run the api tests with `pnpm test --filter api --watch`.",  # the same, more precise
        "The fixtures for the web app live in `web/fixtures`.",  # another thing
        "Run the new api tests with `vitest run api`.",  # new ones: other tests
        "Use `npm ci` in the Dockerfile.",  # a command, not a choice of tool
        "Prettier printWidth is 100.",  # another thing's number
        "Ticket: PW-1519.",  # an identifier, no value of a thing
        "The line length is 100 for `docs/` and 88 elsewhere.",  # two values, two places
    ],
)
def test_no_contradiction(other: str) -> None:
    mine = note(
        "The API runs on port 8080.",
        "Run the api tests with `pnpm test --filter api`.",
        "The fixtures live in `tests/fixtures/`.",
        "Use pnpm, not npm.",
        "The line length is 88.",
        "Ticket: PW-1432.",
    )
    assert (
        pairs(memory("global", "mine.md", mine), memory("project:acme-api", "o.md", note(other)))
        == []
    )


def test_a_version_a_part_stays_on_is_that_part_s() -> None:
    """ "The cache alone stays on DuckDB 1.0.0" is the cache's version, not the one global
    memory gives local work (fresh14's false contradiction, untuned)."""
    assert (
        pairs(
            memory("global", "duckdb.md", note("DuckDB 1.1.3 for local work.")),
            memory("project:acme-api", "cache.md", note("The cache alone stays on DuckDB 1.0.0.")),
        )
        == []
    )


def test_memories_no_session_sees_together_never_contradict() -> None:
    assert (
        pairs(
            memory("project:acme-api", "a.md", note("The API runs on port 8080.")),
            memory("project:ledger", "b.md", note("The API runs on port 9000.")),
        )
        == []
    )
    [found] = pairs(
        memory("workspace:acme-api", "a.md", note("The API runs on port 8080.")),
        memory("claude:acme-api", "b.md", note("The API runs on port 9000.")),
    )
    assert {found.first.place.agent, found.second.place.agent} == {"mux", "claude-code"}


def test_one_memory_telling_a_story_is_no_contradiction() -> None:
    story = note("The API runs on port 8080.", "The API listens on 9000.")
    assert pairs(memory("global", "story.md", story)) == []


def test_a_paragraph_s_other_sentences_hedge_nothing() -> None:
    text = "# x\n\nAsk in #platform when staging is down. The API runs on port 8080. Thanks.\n"
    assert [(c.kind, c.shown, c.value) for c in claims_of(text)] == [("port", "API's port", "8080")]


def test_a_tool_named_in_a_comparison_is_no_choice_of_it() -> None:
    """The demo's "Use `uv pip` inside existing venvs; it is much faster than pip." says
    to use uv's pip, not pip: it disagrees with no "Use uv" of another memory."""
    said = claims_of("- Use `uv pip` inside existing venvs; it is much faster than pip.\n")
    assert [claim for claim in said if claim.kind == "tool"] == []
    [claim] = claims_of("- Use pip, never conda.\n")[:1]
    assert claim.value == "pip"


def test_a_thing_said_many_ways_is_one_contradiction_its_values_listed_to_a_bound() -> None:
    """40 global memories stating 30 ports and 5 of a project stating the first five again:
    one contradiction — the API's port — whose sides are its 30 values (one a value,
    however many memories say it: 8000-8009 in three or two), the first ten listed, the
    first two the first said and the first it disagrees with."""
    ports = [
        memory("global", f"a{i:02d}.md", note(f"The API runs on port {8000 + i % 30}."))
        for i in range(40)
    ]
    ports += [
        memory("project:api", f"b{i:02d}.md", note(f"The API runs on port {8000 + i}."))
        for i in range(5)
    ]
    [found] = pairs(*ports)
    assert (found.first.value, found.second.value) == ("8000", "8001")
    assert [side.value for side in found.others] == [str(8002 + i) for i in range(8)]
    assert found.more_values == 20
    assert [p.path for p in found.first.places] == [
        "/memories/global/a00.md",
        "/memories/global/a30.md",
        "/memories/project/b00.md",
    ]
    assert [p.path for p in found.second.places][-1] == "/memories/project/b01.md"
    assert found.why.startswith("They say 30 values: 8000 (in 3 places), 8001 (in 3 places)")
    assert "and 20 more" in found.why


def _many(count: int) -> list[Document]:
    """`count` memories in global and as many in a project, each stating one port of each
    of four things, every value another (a memory giving a thing two values tells a story,
    and claims none)."""
    things = ["The API", "The admin UI", "Grafana", "The docs site"]

    def lines(port: int) -> list[str]:
        return [f"{thing} runs on port {port + 7_000 * i}." for i, thing in enumerate(things)]

    return [
        *(memory("global", f"one{n:04d}.md", note(*lines(10_000 + n))) for n in range(count)),
        *(
            memory("project:api", f"other{n:04d}.md", note(*lines(11_000 + n)))
            for n in range(count)
        ),
    ]


def test_memories_disagreeing_on_every_line_give_one_contradiction_a_thing() -> None:
    """1,300 memories a side stating a port each for four things (issue 81 point 12: 9,953
    pairs, 8.9 MB of JSON): four contradictions, each place listed at most `MAX_PLACES`
    times a value, its other values counted."""
    found = pairs(*_many(650))
    assert sorted(c.about for c in found) == [
        "API's port",
        "Grafana's port",
        "admin UI's port",
        "docs site's port",
    ]
    for contradiction in found:
        assert len(contradiction.others) == MAX_VALUES - 2
        assert contradiction.more_values == 1300 - MAX_VALUES
    report = ContradictionsReport(contradictions=tuple(found))
    assert len(json.dumps(report.to_json())) < 100_000


def test_the_search_stops_at_its_time_bound_and_says_so(tmp_path: Path) -> None:
    """A clock past the bound at the first look: nothing more is compared, and the
    report says the answer was cut."""
    ticks = iter(range(0, 10_000, 3))
    engine = ContradictionsEngine(
        Home(tmp_path), line_time=lambda d, _: 0, clock=lambda: float(next(ticks))
    )
    memories = _many(650)
    cut = engine.pairs_of(memories)
    assert "Compared for 5 s and stopped" in engine.cut
    assert len(cut) < 4
    engine.time_bound = 1e9
    assert len(engine.pairs_of(memories)) == 4 and engine.cut == ""


def test_copies_of_each_side_are_one_contradiction_with_every_place() -> None:
    """A port said in 20 memories of a project and another in 20 more (a team's copies,
    an agent's import of another's): one contradiction, not 400 pairs, each side listing
    its places newest first, the newer side by its newest place; a copy no session sees
    with the other side (another project's) is not listed."""
    ones = [
        memory(
            "project:acme-api", f"api{i:02d}.md", note("The API runs on port 8080."), modified_ms=i
        )
        for i in range(20)
    ]
    others = [
        memory(
            "project:acme-api",
            f"copy{i:02d}.md",
            note("Ask Priya about billing.", "The API listens on 9000."),
            modified_ms=100 + (i * 7) % 20,
        )
        for i in range(20)
    ]
    elsewhere = memory("project:ledger", "copy.md", note("The API listens on 9000."))
    [found] = pairs(*ones, *others, elsewhere)
    assert (found.first.value, found.second.value) == ("8080", "9000")
    assert len(found.first.places) == 20 and len(found.second.places) == 20
    assert {p.path for p in found.second.places} == {d.path for d in others}
    assert found.first.place.path == "/memories/project/api19.md"  # the newest place
    assert found.first.written_at == 19
    assert [s.written_at for s in found.first.elsewhere] == list(range(18, -1, -1))
    assert found.second.written_at == 119 and found.second.place.line == 4
    assert found.newer == "second"
    assert "One says 8080 (in 20 places), the other 9000 (in 20 places)" in found.why
    # A copy no other memory is seen with is no contradiction at all.
    assert pairs(ones[0], elsewhere) == []


def test_which_is_newer_holds_once_history_has_seen_both_files(tmp_path: Path) -> None:
    """Files that were there before Memtab, first recorded at one moment (as the window
    records a home it opens): the newer side is still the line its file held first."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    old, new = home.global_root / "old.md", home.global_root / "new.md"
    old.write_text("# Ports\n\n- The API runs on port 8000.\n")
    new.write_text("# Service\n\n- The API listens on port 8080.\n")
    today = now_ms() // 1000 * 1000
    os.utime(old, ns=(0, (today - 30 * DAY_MS) * 1_000_000))
    os.utime(new, ns=(0, (today - DAY_MS) * 1_000_000))
    assert record_external(MemoryStore(home)).problems == []
    [found] = ContradictionsEngine(home, sources=False).find().contradictions
    newer = found.first if found.newer == "first" else found.second
    assert (newer.value, newer.written_at) == ("8080", today - DAY_MS)
    assert "the line saying 8080 is newer" in found.why


def test_a_side_said_in_many_memories_blames_only_the_newest_places() -> None:
    """A port said in 200 memories against another in one: each place's line is blamed
    only while it may be among the `MAX_PLACES` newest (a line is written no later than its
    file last changed), the newest listed and every other one counted."""
    said = [
        memory("project:api", f"a{n:03d}.md", note("The API runs on port 8080."), modified_ms=n)
        for n in range(200)
    ]
    other = memory("global", "b.md", note("The API runs on port 9000."), modified_ms=10_000)
    blamed: list[str] = []

    def line_time(document: Document, line: int) -> int:
        blamed.append(document.key)
        return document.modified_ms

    engine = ContradictionsEngine(Home(Path("/nowhere")), line_time=line_time)
    [found] = engine.pairs_of([*said, other])
    side = found.first if found.first.value == "8080" else found.second
    assert [p.path for p in (side.place, *(s.place for s in side.elsewhere))][:3] == [
        "/memories/project/a199.md",
        "/memories/project/a198.md",
        "/memories/project/a197.md",
    ]
    assert 1 + len(side.elsewhere) + (side.more_places or 0) == 200
    assert len(blamed) <= 2 * MAX_PLACES
