"""Lines of two memories a session sees together that state different values for one
thing (issue 72 point 3): each kind, what is no contradiction, and which line is newer."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.contradictions.claims import claims_of
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import Contradiction
from support.seeded_memories import memory


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
        ("Run the api tests with `pnpm test --filter api`.", "`make test-api` runs the api tests.",
         "command", ("pnpm test --filter api", "make test-api")),
        ("The fixtures live in `tests/fixtures/`.", "`spec/fixtures` holds the fixtures.", "path",
         ("tests/fixtures", "spec/fixtures")),
        ("Use pnpm, not npm.", "We switched from pnpm to yarn.", "tool", ("pnpm", "yarn")),
        ("Always squash-merge pull requests.", "Never squash-merge pull requests.",
         "always-never", ("always", "never")),
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
        "Use `npm ci` in the Dockerfile.",  # a command, not a choice of tool
    ],
)
def test_no_contradiction(other: str) -> None:
    mine = note(
        "The API runs on port 8080.",
        "Run the api tests with `pnpm test --filter api`.",
        "The fixtures live in `tests/fixtures/`.",
        "Use pnpm, not npm.",
    )
    assert (
        pairs(memory("global", "mine.md", mine), memory("project:acme-api", "o.md", note(other)))
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
    assert [(c.kind, c.key, c.value) for c in claims_of(text)] == [("port", "api", "8080")]


def test_a_tool_named_in_a_comparison_is_no_choice_of_it() -> None:
    """The demo's "Use `uv pip` inside existing venvs; it is much faster than pip." says
    to use uv's pip, not pip: it disagrees with no "Use uv" of another memory."""
    assert claims_of("- Use `uv pip` inside existing venvs; it is much faster than pip.\n") == ()
    [claim] = claims_of("- Use pip, never conda.\n")[:1]
    assert claim.value == "pip"


def test_a_line_is_told_at_most_25_times_the_first_pairs_in_order() -> None:
    """40 global memories stating 30 ports (copies of one memory say the same: no pair of
    theirs) and 5 of a project: each line in at most `MAX_PAIRS_A_LINE` pairs, the first
    ones walking the memories in order — 26 lines told 25 times, 9 told 18, 10 told 17."""
    ports = [
        memory("global", f"a{i:02d}.md", note(f"The API runs on port {8000 + i % 30}."))
        for i in range(40)
    ]
    ports += [
        memory("project:api", f"b{i:02d}.md", note(f"The API runs on port {8000 + i}."))
        for i in range(5)
    ]
    found = pairs(*ports)
    told = Counter(
        path for pair in found for path in (pair.first.place.path, pair.second.place.path)
    )
    assert len(found) == 491
    assert sorted(Counter(told.values()).items()) == [(17, 10), (18, 9), (25, 26)]
    assert all(pair.first.value != pair.second.value for pair in found)
    # Which pairs, pinned (as the walk chose them before its cheap tests came first).
    chosen = "\n".join(f"{pair.first.place.path} {pair.second.place.path}" for pair in found)
    assert hashlib.sha256(chosen.encode()).hexdigest()[:16] == "c3607e04b5079f06"
