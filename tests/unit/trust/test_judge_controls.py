"""A model is trusted to judge only when it answers two control pairs of each question as
every judge must (issue 83, `wider.CONTROLS`): one to dismiss, one to confirm (an obvious
rewording, an obvious always/never opposite). One that fails either may not dismiss what the
offline engines found — those stay as the offline engine judged them, and the report says
why once — nor is it asked the wider net; one that passes both judges as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.llm.types import ModelReply
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import ContradictionsReport
from memtab.trust.duplicates.engine import DuplicatesEngine, Found
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judge import judge_contradictions, judge_duplicates, wider_duplicates
from support.scripted_provider import ScriptedProvider
from support.seeded_memories import memory
from unit.trust.test_judge import CONTRADICT_OK, SAME_OK, contradicting_home, judge_of, reply
from unit.trust.test_judge_wider import TIMESTAMPTZ, UTC

SAME_FAILED = {
    "confirms-the-pair-to-dismiss": (
        [reply("same", "both: port 8000")],
        "called two statements about different things the same",
    ),
    "dismisses-the-rewording": (
        [SAME_OK[0], reply("different", "one says every time")],
        "did not call an obvious rewording the same",
    ),
    "answers-no-verdict": (
        [ModelReply("They all look fine to me.")],
        "could not answer a control pair",
    ),
}
CONTRADICT_FAILED = {
    "confirms-the-pair-to-dismiss": (
        [reply("contradiction", "always against never")],
        "called two rules about different things a contradiction",
    ),
    "dismisses-the-opposite": (
        [CONTRADICT_OK[0], reply("compatible", "both about tabs")],
        "did not call an always/never opposite a contradiction",
    ),
}
NOT_USED = "its dismissals were not used (2 findings as the offline engine judged them): the model"


def _found(found: Found) -> list[DuplicateGroup]:
    """What the words only suspect (issue 94: the candidates), as the groups a judge is given."""
    return found.candidates


def _duplicates(home: Home) -> tuple[DuplicatesEngine, DuplicatesReport]:
    documents = [
        memory("global", "a.md", "# A\n\n- Use pnpm, not npm.\n- Deploys go out on Tuesdays.\n"),
        memory("project:api", "b.md", "# B\n\n- Prefer pnpm over npm in this repo.\n"),
        memory("global", "c.md", "# C\n\n- Ask Priya about billing.\n- Lunch is at one.\n"),
        memory("project:api", "d.md", "# D\n\n- Ask Priya about billing.\n- Invoices are PDF.\n"),
    ]
    engine = DuplicatesEngine(home)
    return engine, DuplicatesReport(groups=tuple(_found(engine.found_in(documents))), files_read=4)


def _contradictions(home: Home) -> ContradictionsReport:
    documents = [
        memory("global", "a.md", "# A\n\n- The API runs on port 8000.\n- Deploy with Helm.\n"),
        memory("project:api", "b.md", "# B\n\n- The API runs on port 8080.\n"),
        memory("project:api", "c.md", "# C\n\n- Deploy with Kustomize.\n"),
    ]
    engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
    return ContradictionsReport(contradictions=tuple(engine.pairs_of(documents)))


@pytest.mark.parametrize("failed", SAME_FAILED.values(), ids=SAME_FAILED.keys())
def test_a_model_that_fails_a_control_does_not_dismiss_duplicates_and_the_report_says_why(
    tmp_path: Path, failed: tuple[list[ModelReply], str]
) -> None:
    answers, why = failed
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home)
    assert [g.kind for g in report.groups] == ["reworded", "rule"]
    dismissing = [reply("different", "not the same")] * 2
    provider = ScriptedProvider([*answers, *dismissing])
    judged = judge_duplicates(report, judge_of(home, provider), engine.said)
    assert judged.groups == report.groups and judged.dismissed == ()
    assert {g.judged_by for g in judged.groups} == {"offline"}
    assert provider.calls == len(answers)  # no finding is put to it
    assert f"; {NOT_USED} {why} (a control pair every judge answers alike)" in judged.judged
    assert judged.judged.count("not used") == 1


@pytest.mark.parametrize("failed", CONTRADICT_FAILED.values(), ids=CONTRADICT_FAILED.keys())
def test_a_model_that_fails_a_control_does_not_dismiss_contradictions_and_says_why(
    tmp_path: Path, failed: tuple[list[ModelReply], str]
) -> None:
    answers, why = failed
    home = Home(tmp_path / "home")
    report = _contradictions(home)
    assert len(report.contradictions) == 2
    provider = ScriptedProvider([*answers, *[reply("compatible", "fine together")] * 2])
    judged = judge_contradictions(report, judge_of(home, provider))
    assert judged.contradictions == report.contradictions and judged.dismissed == ()
    assert provider.calls == len(answers)
    assert f"; {NOT_USED} {why} (a control pair every judge answers alike)" in judged.judged


def test_a_model_that_passes_both_controls_dismisses_as_before_and_they_are_asked_once(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    report = _contradictions(home)
    provider = ScriptedProvider(
        [
            *CONTRADICT_OK,
            reply("contradiction", "two ports for one API"),
            reply("compatible", "two tools for two jobs"),
        ]
    )
    judge = judge_of(home, provider)
    judged = judge_contradictions(report, judge)
    judge.close()
    [kept] = judged.contradictions
    [dismissed] = judged.dismissed
    assert (kept.reason, dismissed.reason) == ("two ports for one API", "two tools for two jobs")
    dismiss, confirm = [m[0].text for m in provider.messages[:2]]  # type: ignore[union-attr]
    assert "1. Always run the unit tests before pushing.\n2. Never run the load tests" in dismiss
    assert "1. Always use tabs for indentation.\n2. Never use tabs for indentation." in confirm
    assert judged.judged == "Judged by judge-1: 4 asked, 0 answered before."
    # The controls' answers are kept as every answer is: the next run asks nothing.
    again = ScriptedProvider([])
    assert judge_contradictions(report, judge_of(home, again)).dismissed == judged.dismissed
    assert again.calls == 0


def test_a_model_that_dismisses_the_rewording_is_not_asked_the_wider_net(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    engine = DuplicatesEngine(home)
    documents = [
        memory("global", "g.md", f"# G\n\n- {UTC}\n"),
        memory("project:api", "p.md", f"# P\n\n- {TIMESTAMPTZ}\n"),
    ]
    report = DuplicatesReport(groups=tuple(_found(engine.found_in(documents))), files_read=2)
    provider = ScriptedProvider(
        [SAME_OK[0], reply("different", "one says every time"), *[reply("same", "UTC")] * 2]
    )
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert (judged.groups, provider.calls) == ((), 2)
    assert "1 pair the offline engine did not confirm left unasked: the model did not call an " in (
        judged.judged
    )


def test_the_command_keeps_the_offline_findings_of_a_model_that_fails_a_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = ScriptedProvider(
        [reply("contradiction", "always against never"), reply("compatible", "a narrower case")]
    )
    argv = contradicting_home(tmp_path, monkeypatch, provider)
    assert main([*argv, "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    [found] = answer["contradictions"]
    assert found["judgedBy"] == "offline" and "dismissed" not in answer
    assert (
        "its dismissals were not used (1 finding as the offline engine judged it)"
        in (answer["judged"])
    )
    assert main(argv) == 1
    assert "the model called two rules about different things a contradiction" in (
        capsys.readouterr().out
    )
    assert provider.calls == 1
