"""`memtab duplicates` with a model (issue 94): what structure proves (a copy, the same line) is
not asked; a group in other words is asked pair by pair, a pair dismissed taking no other
member with it; the wider net asks memories a session sees together first, then the most
alike, whatever the offline readers think of a pair — the model decides — and the pairs it
confirms that share a statement are one group."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.cli.main import main
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judging import asking
from memtab.trust.judging.duplicates import judge_duplicates, wider_duplicates
from memtab.trust.judging.net import candidates, sentences_of
from support.memory_home import PROJECT, make_home
from support.pair_models import PairsModel, by_words
from support.seeded_memories import memory
from unit.trust.test_judge import SETTINGS, judge_of, place


def _found(home: Home, documents: list[Document]) -> tuple[DuplicatesEngine, DuplicatesReport]:
    engine = DuplicatesEngine(home)
    return engine, engine.report_of(documents)


PEOPLE = (
    "- Lunch is at one.\n- The office closes at six on Fridays.\n- Standup is at ten.\n"
    "- Desks by the window are first come, first served.\n- Parking permits renew in March.\n"
    "- The coffee machine on floor two is broken.\n- Guests sign in at reception.\n"
)
TEAM = (
    "- Invoices are PDF.\n- The API team owns the gateway config.\n- Oncall rotates weekly.\n"
    "- Grafana dashboards live in the ops folder.\n- Feature flags are set in LaunchDarkly.\n"
    "- The nightly export runs at two.\n- Customer emails go through Postmark.\n"
)


def test_a_copy_or_the_same_line_in_two_memories_is_not_put_to_the_model(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    note = "# Release\n\n- Tag releases from main.\n- The changelog is generated.\n"
    engine, report = _found(
        home,
        [
            memory("global", "release.md", note),
            memory("project:api", "release.md", note),
            memory("global", "people.md", f"# People\n\n- Ask Priya about billing.\n{PEOPLE}"),
            memory("project:api", "team.md", f"# Team\n\n- ask Priya about billing!\n{TEAM}"),
        ],
    )
    assert [g.kind for g in report.groups] == ["copy", "rule"]
    provider = PairsModel(by_words({}))
    judged = judge_duplicates(report, judge_of(home, provider), engine.said)
    assert provider.calls == 0
    assert judged == report


def test_a_pair_dismissed_takes_no_other_member_of_its_group_with_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    group = DuplicateGroup(
        kind="rule",
        similarity=0.4,
        why="One rule in three memories",
        members=(
            place("global", "g.md", 3, "Run the linters before saying a change is done."),
            place("project", "p.md", 4, "Always run `just lint` before you call a change done."),
            place("project", "q.md", 5, "Run the load tests before a release."),
        ),
        key="three",
    )
    report = DuplicatesReport(groups=(group,), files_read=3)
    provider = PairsModel(by_words({("linters", "just lint"): "same"}))
    judged = judge_duplicates(report, judge_of(home, provider), {})
    [kept] = judged.groups
    assert [m.path for m in kept.members] == ["/memories/global/g.md", "/memories/project/p.md"]
    assert kept.judged_by == "judge-1.q4"
    [gone] = judged.dismissed
    assert [m.path for m in gone.members] == ["/memories/global/g.md", "/memories/project/q.md"]
    assert gone.reason.startswith("judged")


API_DEPLOY = "Staging deploys wait for a green pipeline and the release captain."
WEB_DEPLOY = "Staging deploys never wait for the release captain, only for a green pipeline."
CAPTAIN = "The release captain is picked on Monday."


def test_the_wider_net_asks_memories_seen_together_first_then_the_most_alike(
    tmp_path: Path,
) -> None:
    """Two projects' memories are never loaded together: their pair, however alike, comes
    after the pairs a session sees together."""
    home = Home(tmp_path / "home")
    engine, report = _found(
        home,
        [
            memory("project:api", "deploy.md", f"# Deploy\n\n- {API_DEPLOY}\n"),
            memory("project:web", "deploy.md", f"# Deploy\n\n- {WEB_DEPLOY}\n"),
            memory("global", "captain.md", f"# Captain\n\n- {CAPTAIN}\n"),
        ],
    )
    assert report.groups == ()
    wider = wider_duplicates(report, engine.read)
    assert [(c.together, c.one.text, c.other.text) for c in wider] == [
        (True, CAPTAIN, API_DEPLOY),
        (True, CAPTAIN, WEB_DEPLOY),
        (False, API_DEPLOY, WEB_DEPLOY),
    ]
    assert wider[2].similarity > wider[0].similarity


BACKUPS = (
    "Nightly backups of the orders database go to the cold bucket.",
    "The orders database backups run nightly into the cold bucket.",
    "Backups of the orders database land nightly in the cold bucket.",
    "Nightly, the orders database is backed up to the cold bucket.",
)
CURATOR = "A reviewed record is never re-matched automatically."
MATCHER = "Once a curator has looked at a record, the matcher leaves it alone."


def test_the_wider_net_asks_each_statement_s_nearest_before_another_s_further_ones() -> None:
    """Four rewordings of one topic make six pairs far more alike than a rewording of another
    said in few common words: each statement's nearest partner comes before the topic's
    further pairs, so a net of four holds the other rewording."""
    documents = [
        memory("global", f"backups-{n}.md", f"# Backups\n\n- {line}\n")
        for n, line in enumerate(BACKUPS)
    ]
    documents += [
        memory("global", "review.md", f"# Review\n\n- {CURATOR}\n"),
        memory("global", "matching.md", f"# Matching\n\n- {MATCHER}\n"),
    ]
    read = [(d, sentences_of(d)) for d in documents]
    every = candidates(read, apart=lambda one, other: False, most=100)
    [weak] = [c for c in every if c.one.text in (CURATOR, MATCHER)]
    assert len(every) == 7 and all(weak.similarity < c.similarity for c in every if c != weak)
    net = candidates(read, apart=lambda one, other: False, most=4)
    assert {CURATOR, MATCHER} in [{c.one.text, c.other.text} for c in net]


SQUASH_NEVER = "Never squash-merge pull requests here."
SQUASH_ALWAYS = "Always squash-merge pull requests; the title becomes the commit."
SESSIONS = "Tracking sessions expire after 15 minutes of no subscription (Redis TTL)."
REDIS = "tracking session entries in Redis live 15 min"


def test_the_model_decides_the_pairs_the_readers_think_disagree(tmp_path: Path) -> None:
    """The readers think "15 minutes" and "15 min" name different values, and that two opposite
    rules are no duplicate: both pairs are asked all the same, and the model's verdicts stand."""
    home = Home(tmp_path / "home")
    engine, report = _found(
        home,
        [
            memory("global", "git.md", f"# Git\n\n- {SQUASH_NEVER}\n"),
            memory("project:api", "git.md", f"# Git\n\n- {SQUASH_ALWAYS}\n"),
            memory("project:api", "ws.md", f"# Websockets\n\n- {SESSIONS}\n"),
            memory("global", "redis.md", f"# Redis\n\n- {REDIS}\n"),
        ],
    )
    assert report.groups == ()
    provider = PairsModel(
        by_words({("Never squash", "Always squash"): "conflict", ("15 minutes", "15 min"): "same"})
    )
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert {
        frozenset((one.split(") ", 1)[1], other.split(") ", 1)[1]))
        for one, other in provider.statements()
    } >= {
        frozenset((SQUASH_NEVER, SQUASH_ALWAYS)),
        frozenset((SESSIONS, REDIS)),
    }
    # The two notes, a candidate of whole notes (each its one line), confirmed as one group:
    # the same pair of lines in the net is theirs, not a second group.
    [group] = judged.groups
    assert {m.path for m in group.members} == {
        "/memories/project/ws.md",
        "/memories/global/redis.md",
    }
    assert (group.kind, group.judged_by) == ("reworded", "judge-1.q4")
    assert group.why.startswith("The same note in other words: ")  # no longer "Might be"


def test_pairs_the_model_confirms_that_share_a_statement_are_one_group(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    engine, report = _found(
        home,
        [
            memory("global", "a.md", "# A\n\n- Never commit directly to the main branch.\n"),
            memory("project:api", "b.md", "# B\n\n- Nobody pushes straight to main; open a PR.\n"),
            memory("workspace:api", "c.md", "# C\n\n- Changes reach main only through PRs.\n"),
        ],
    )
    provider = PairsModel(lambda one, other: "same")
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    [group] = judged.groups
    assert sorted(m.path for m in group.members) == [
        "/memories/global/a.md",
        "/memories/project/b.md",
        "/memories/workspace/c.md",
    ]


def test_the_command_judges_with_the_configured_model_and_never_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "a.md", f"# A\n\n- {SESSIONS}\n")
    atomic_write_text(home.project_root(PROJECT) / "b.md", f"# B\n\n- {REDIS}\n")
    argv = ["--home", str(home.root), "duplicates", "--no-sources", "--json"]
    status = main(argv)  # no model configured: the offline engine alone
    offline = capsys.readouterr().out
    provider = PairsModel(by_words({("15 minutes", "15 min"): "same"}))
    monkeypatch.setattr(asking, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(
        "memtab.cli.health.trust_report.resolve_provider_settings", lambda: SETTINGS
    )
    assert main([*argv, "--offline"]) == status
    assert capsys.readouterr().out == offline  # byte for byte
    assert provider.calls == 0
    assert main(argv) == 1
    answer = json.loads(capsys.readouterr().out)
    [group] = [g for g in answer["groups"] if g["judgedBy"] != "offline"]
    assert {m["path"] for m in group["members"]} == {
        "/memories/global/a.md",
        "/memories/project/b.md",
    }
    assert main(argv[:-1]) == 1
    out = capsys.readouterr().out
    assert "judged by judge-1.q4: judged" in out and provider.calls == 1
