"""Candidates apart, never one click (issue 94 point 2), without Qt: what the words only
suspect is never counted in the room, said apart as a panel away; the user's model asked
about one (the judge, through the trust job) confirms it — a finding it judged — or
dismisses it, left apart with its reason; no model set, nothing is asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.ops import OpResult
from memtab.components.jobs import JobContext
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.compare import Judged, compared_places, finding_key, with_verdicts
from memtab.components.trust.room import RoomFacts, headline, room_sections
from memtab.fs.atomic import atomic_write_text
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.trust.contradictions.records import ClaimedLine, Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.judging import asking
from memtab.trust.records import MemoryPlace
from memtab.trust.report import TrustReport
from support.memory_home import PROJECT, make_home
from support.pair_models import PairsModel, by_words

COPY = DuplicateGroup(
    kind="copy",
    similarity=1.0,
    why="The same text in two memories",
    members=(
        MemoryPlace(path="/memories/global/a.md", agent="mux", scope="global"),
        MemoryPlace(path="/memories/project/a.md", agent="mux", scope="project", project=PROJECT),
    ),
    key="copy",
)
LINT = "Run `pnpm lint` before pushing."
LINTER = "The linter runs before every push."
REWORDING = DuplicateGroup(
    kind="rule",
    similarity=0.4,
    why="The same statement in other words in mux, global and mux, project",
    members=(
        MemoryPlace(
            path="/memories/global/habits.md", agent="mux", scope="global", line=3, text=LINT
        ),
        MemoryPlace(
            path="/memories/project/ci.md",
            agent="mux",
            scope="project",
            line=3,
            text=LINTER,
            project=PROJECT,
        ),
    ),
    key="rewording",
)
TOOLS = Contradiction(
    kind="tool",
    about="the terminal multiplexer",
    first=ClaimedLine(
        place=MemoryPlace(
            path="/memories/global/t.md",
            agent="mux",
            scope="global",
            line=3,
            text="Use tmux for long jobs.",
        ),
        value="tmux",
    ),
    second=ClaimedLine(
        place=MemoryPlace(
            path="/memories/project/s.md",
            agent="mux",
            scope="project",
            line=3,
            text="Use screen there: tmux isn't installed.",
            project=PROJECT,
        ),
        value="screen",
    ),
    why="One says tmux, the other screen.",
)
SUSPECTED = TrustReport(
    duplicates=(COPY,), duplicate_candidates=(REWORDING,), contradiction_candidates=(TOOLS,)
)
SETTINGS = ProviderSettings(provider="openai", model="judge-1", base_url="http://127.0.0.1:9")


def test_candidates_are_never_counted_and_said_apart_a_panel_away() -> None:
    sections = {s.key: s for s in room_sections(RoomFacts(trust=SUSPECTED))}
    said_twice, disagreeing = sections["duplicates"], sections["contradictions"]
    assert (said_twice.count, said_twice.summary) == (1, "1 group")
    assert [item.text.split(" — ")[0] for item in said_twice.items] == ["a.md and 1 other"]
    assert said_twice.apart == ("Not counted: 1 group that might say the same — in the Trust panel")
    assert (disagreeing.count, disagreeing.items) == (0, ())
    assert disagreeing.apart == "Not counted: 1 pair that might disagree — in the Trust panel"
    assert headline(list(sections.values())) == "1 thing to look at"
    assert room_sections(RoomFacts(trust=TrustReport()))[0].apart == ""


def test_what_the_model_confirms_is_a_finding_it_judged_what_it_dismisses_stays_apart() -> None:
    key = finding_key(REWORDING)
    assert key is not None and finding_key(TOOLS) is not None
    confirmed = Judged(REWORDING, True, "both: lint before a push", "judge-1")
    dismissed = Judged(TOOLS, False, "screen only where tmux is missing", "judge-1")
    shown = with_verdicts(SUSPECTED, {key: confirmed, finding_key(TOOLS) or (): dismissed})
    assert [g.key for g in shown.duplicates] == ["copy", "rewording"]
    assert shown.duplicates[1].judged_by == "judge-1"
    assert shown.duplicates[1].reason == "both: lint before a push"
    assert shown.duplicate_candidates == ()
    [apart] = shown.contradiction_candidates
    assert (apart.judged_by, apart.reason) == ("judge-1", "screen only where tmux is missing")
    assert shown.contradictions == ()
    assert confirmed.said() == "judge-1: the same — both: lint before a push"
    assert dismissed.said() == "judge-1: no disagreement — screen only where tmux is missing"
    assert with_verdicts(SUSPECTED, {}) == SUSPECTED


def test_compare_shows_every_place_newer_side_first() -> None:
    shown = compared_places(TOOLS.replaced(newer="second"))
    assert [side.title.split("\n")[0] for side in shown.sides] == [
        f"Newer — /memories/project/s.md:3 (mux, project {PROJECT})",
        "Older — /memories/global/t.md:3 (mux, global)",
    ]
    assert compared_places(REWORDING).title == "Compare: habits.md and 1 other"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "habits.md", f"# Habits\n\n- {LINT}\n")
    atomic_write_text(home.project_root(PROJECT) / "ci.md", f"# CI\n\n- {LINTER}\n")
    return home


def test_ask_the_model_puts_the_candidate_to_the_user_s_model(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = PairsModel(by_words({(LINT, LINTER): "same"}), reason="both: lint before a push")
    monkeypatch.setattr(asking, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(trust_jobs, "resolve_provider_settings", lambda: SETTINGS)
    assert trust_jobs.configured_model(JobContext.standalone()) == "judge-1"
    judged = trust_jobs.ask_model(home, REWORDING, JobContext.standalone())
    assert judged == Judged(
        REWORDING,
        True,
        "both: lint before a push",
        "judge-1.q4",
        judged.note,  # type: ignore[union-attr]
    )
    assert provider.calls == 1  # the candidate, with the controls every judge answers alike
    [(one, other)] = provider.statements()
    assert LINT in one and LINTER in other
    assert LINT in str(provider.messages[-1]) and LINTER in str(provider.messages[-1])
    again = trust_jobs.ask_model(home, REWORDING, JobContext.standalone())
    assert isinstance(again, Judged) and again.confirmed and provider.calls == 1  # kept


def test_with_no_model_set_nothing_is_asked(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    offline = ProviderSettings(provider="offline", model="", base_url="")
    monkeypatch.setattr(trust_jobs, "resolve_provider_settings", lambda: offline)
    assert trust_jobs.configured_model(JobContext.standalone()) == ""
    refused = trust_jobs.ask_model(home, REWORDING, JobContext.standalone())
    assert isinstance(refused, OpResult) and refused.error == "no model is set (File → Settings)"
