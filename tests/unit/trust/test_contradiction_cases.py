"""`memtab contradictions` on the labelled pairs of tests/support/contradiction_cases.py
(issue 83): a thing's two values found — a port of one service, a version of one product,
a tool for one job, a branch, a setting, a command, a path, a day, a language, a rule and
its opposite — and near misses, about two things, not."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from quality.stores import REAL_STORES, derived_files, real_files
from support.contradiction_cases import CASES, FILLERS, notes
from support.seeded_memories import memory

NOT_READ = {
    "| job | tool |\n|---|---|\n| types | mypy |\n| lint | ruff |",
    "Mailpit's web UI is on http://localhost:8025.",
    "## Local services\n\n- MinIO: 9000\n- the console: 9001",
    "- Elasticsearch (docker): 9200",
    "Our Storybook is served on port 6006.",
    "## Tests\n\n- `npm test`",
    "## Config\n\n- file: `config/app.toml`",
    "Seed the database: `rake db:seed`.",
}
"""Cases' first notes whose contradiction is not found, and why: a table's cells under a
header naming what its rows are ("job") are no one thing's; "Mailpit's web UI" may be a
part of Mailpit or all of it; a label and a bare number ("MinIO: 9000") may be any count;
"storybook → `pnpm storybook`" tells a change; what a heading says of the lines under it
is not read into them; "The database is seeded by `bin/seed`" says the command in the
passive."""
KINDS = sorted({case.kind for case in CASES})


def found_cases(home: Home) -> dict[int, bool]:
    """Whether a contradiction joins each case's two notes, each case read alone with a
    background of unrelated notes (one case's values are no other's): a contradiction as a
    finding or a candidate, a near miss as a finding."""
    made = notes()
    background = [
        memory("global", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n") for i, line in enumerate(FILLERS)
    ]
    found = {}
    for number in range(len(CASES)):
        pair = [memory(place, name, text) for place, name, case, text in made if case == number]
        engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
        shown = engine.found_in([*pair, *background])
        listed = [*shown.contradictions]  # a near miss read as a candidate is the model's
        if CASES[number].expected == "contradiction":
            listed += shown.candidates
        found[number] = any(
            {d.path for d in pair}
            <= {p.path for side in (c.first, c.second, *c.others) for p in side.places}
            for c in listed
        )
    return found


@pytest.fixture(scope="module")
def found() -> dict[int, bool]:
    return found_cases(Home(Path("/nowhere")))


def _of_kind(found: dict[int, bool], kind: str) -> tuple[list[str], list[str]]:
    """(the kind's contradictions missed, its near misses flagged), each by its notes."""
    missed, flagged = [], []
    for number, case in enumerate(CASES):
        if case.kind != kind or case.one in NOT_READ:
            continue
        if case.expected == "contradiction" and not found[number]:
            missed.append(f"{case.one} | {case.other}")
        if case.expected == "neither" and found[number]:
            flagged.append(f"{case.one} | {case.other}")
    return missed, flagged


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_s_contradictions_found_and_near_misses_not(
    found: dict[int, bool], kind: str
) -> None:
    assert _of_kind(found, kind) == ([], [])


def test_what_is_not_read_is_still_not_found(found: dict[int, bool]) -> None:
    """The cases `NOT_READ` names are missed (when one is found, it leaves the list)."""
    assert [found[n] for n, case in enumerate(CASES) if case.one in NOT_READ] == [False] * len(
        NOT_READ
    )


def test_the_real_stores_contradict_nothing() -> None:
    """Three real people's stores (Codex's, Claude Code's, loki-mode's), every Markdown
    file read as one global memory so each is seen with each: no contradiction — Codex's
    "-> treat npm as the preferred…" and "managed by npm instead of manual updates" choose
    npm, never drop it."""
    documents = [
        memory("global", f"{store.folder}-{name.replace('/', '-')}", text)
        for store in REAL_STORES
        for name, text in [
            *((n, data.decode("utf-8", "replace")) for n, data in real_files(store).items()),
            *derived_files(store).items(),
        ]
        if name.endswith(".md")
    ]
    engine = ContradictionsEngine(Home(Path("/nowhere")), line_time=lambda d, line: 0)
    assert len(documents) >= 11
    assert engine.pairs_of(documents) == []
