"""With a model, the model judges a wider net (issue 83): the pairs of statements the offline
engines did not confirm are put to it, most alike first, at most `MAX_QUESTIONS` new
questions a run (what is left unasked is said); what it confirms is shown as judged by it,
what it dismisses is not shown; a pair whose polarity or values the offline readers know
disagree is never a duplicate, whatever the model says; an answer that is no verdict leaves
the offline result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.cli.main import main
from memtab.fs.atomic import atomic_write_text
from memtab.llm.types import ModelReply
from memtab.store.home import Home
from memtab.trust import judge as judging
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import ContradictionsReport
from memtab.trust.duplicates.engine import DuplicatesEngine, Found
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judge import (
    judge_contradictions,
    judge_duplicates,
    wider_contradictions,
    wider_duplicates,
)
from memtab.trust.wider import candidates
from support.memory_home import PROJECT, make_home
from support.scripted_provider import ScriptedProvider
from support.seeded_memories import memory
from unit.trust.test_judge import CONTRADICT_OK, SAME_OK, SETTINGS, judge_of, reply

UTC = "Timestamps are stored in UTC, converted only in the UI."
TIMESTAMPTZ = "All DB timestamps are timestamptz in UTC; the frontend converts them to local time."
SQUASH_NEVER = "Never squash-merge pull requests here."
SQUASH_ALWAYS = "Always squash-merge pull requests; the title becomes the commit."
EMOJI = "Never put emojis in commit messages."
GITMOJI = "Always start the commit message with a gitmoji."
GITMOJI_EMOJI = "Always start the commit message with a gitmoji emoji."
DONE_BEFORE = "Never say a change is done before the linters pass."
LINT_BEFORE = "Always run the linters before saying a change is done."
MERGE_MAIN = "Don't rebase onto main here. We merge main into the branch before review."
REBASE_MAIN = "Always rebase the branch on main before review."


def _found(found: Found) -> list[DuplicateGroup]:
    """What the words only suspect (issue 94: the candidates), as the groups a judge is given."""
    return found.candidates


def _notes(*pairs: tuple[str, str]) -> list[Document]:
    """Each pair's first statement in global memory, its second in a project's."""
    documents = []
    for number, (one, other) in enumerate(pairs):
        documents.append(memory("global", f"g{number}.md", f"# G{number}\n\n- {one}\n"))
        documents.append(memory("project:api", f"p{number}.md", f"# P{number}\n\n- {other}\n"))
    return documents


def _duplicates(home: Home, documents: list[Document]) -> tuple[DuplicatesEngine, DuplicatesReport]:
    engine = DuplicatesEngine(home)
    report = DuplicatesReport(
        groups=tuple(_found(engine.found_in(documents))), files_read=len(documents)
    )
    return engine, report


def test_a_pair_the_words_did_not_confirm_is_asked_and_shown_judged_when_the_model_confirms(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ)))
    assert report.groups == ()  # the offline engine alone finds nothing
    provider = ScriptedProvider(
        [
            *SAME_OK,
            *SAME_OK,
            reply("same", "both: timestamps in UTC, converted for display"),
            reply("same", "neither says more than the other"),
        ]
    )
    judge = judge_of(home, provider)
    judged = judge_duplicates(report, judge, engine.said, wider_duplicates(report, engine.read))
    judge.close()
    [group] = judged.groups
    assert (group.kind, group.judged_by) == ("rule", "judge-1.q4")
    assert group.reason == "both: timestamps in UTC, converted for display"
    assert [(m.path, m.line) for m in group.members] == [
        ("/memories/global/g0.md", 3),
        ("/memories/project/p0.md", 3),
    ]
    assert "as the model judged it" in group.why
    control, *_, asked, then = [m[0].text for m in provider.messages]  # type: ignore[union-attr]
    assert "The docs site's dev server runs on port 8000." in control
    # Each statement with its file's scope; the same, then nothing more in either.
    assert (
        f"1. (global memory, read in every project) {UTC}\n2. (project memory of project api) "
        in asked
    )
    assert "either could be deleted and nothing would be lost" in asked
    assert "Does either statement say something the other does not say" in then
    assert judged.judged.startswith(
        "Judged by judge-1: 6 asked, 0 answered before; of 1 pair the offline engine did not "
        "confirm, 1 confirmed; 6 questions took"
    )


@pytest.mark.parametrize(
    "answers",
    [
        [reply("different", "one is about the database only")],
        [reply("same", "both: UTC"), reply("differ", "only one names the database")],
    ],
    ids=["different", "same-but-one-says-more"],
)
def test_a_pair_the_model_dismisses_is_not_shown(tmp_path: Path, answers: list[ModelReply]) -> None:
    """Dismissed: not the same, or the same but one says what the other does not (a small
    model says "same" too easily)."""
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ)))
    provider = ScriptedProvider([*SAME_OK, *SAME_OK, *answers])
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert (judged.groups, judged.dismissed, provider.calls) == ((), (), 4 + len(answers))
    assert "of 1 pair the offline engine did not confirm, 0 confirmed" in judged.judged


def test_a_pair_of_opposite_rules_is_never_asked_nor_grouped(tmp_path: Path) -> None:
    """The offline readers know the polarities (or values) disagree — of the statements, or
    of their lines ("We merge main into the branch" follows "Don't rebase onto main"): a
    model saying "same" is never asked, so never heard."""
    home = Home(tmp_path / "home")
    pairs = ((SQUASH_NEVER, SQUASH_ALWAYS), (EMOJI, GITMOJI_EMOJI), (MERGE_MAIN, REBASE_MAIN))
    engine, report = _duplicates(home, _notes(*pairs))
    assert report.groups == ()
    found = candidates(engine.read, apart=lambda one, other: False)
    assert [(c.one.text, c.how) for c in found] == [
        ("We merge main into the branch before review.", "value"),  # its line's rule
        (SQUASH_NEVER, "value"),
        (EMOJI, "polarity"),  # no emojis / always a gitmoji emoji: opposite rules
        ("Don't rebase onto main here.", "value"),
    ]
    provider = ScriptedProvider([reply("same", "both about squash merges")] * 4)
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert (judged.groups, provider.calls, judged.judged) == ((), 0, "")


def test_the_budget_of_questions_leaves_the_rest_unasked_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    monkeypatch.setattr(judging, "MAX_QUESTIONS", 2)
    release = (
        "Release notes are drafted by the release captain.",
        "The release captain is picked in the Monday meeting.",
    )
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ), release))
    wider = wider_duplicates(report, engine.read)
    assert [c.one.text for c in wider] == [UTC, release[0]]  # the most alike first
    provider = ScriptedProvider(
        [*SAME_OK, *SAME_OK, reply("same", "timestamps in UTC"), reply("same", "no more")]
    )
    judge = judge_of(home, provider)
    judged = judge_duplicates(report, judge, engine.said, wider)
    judge.close()
    assert provider.calls == 6 and [g.reason for g in judged.groups] == ["timestamps in UTC"]
    assert "1 pair left unasked (at most 2 new questions a run: the next run asks them)" in (
        judged.judged
    )
    # The next run asks what was left (the answer kept is free).
    again = ScriptedProvider([reply("different", "a captain's two jobs")])
    judged = judge_duplicates(report, judge_of(home, again), engine.said, wider)
    assert again.calls == 1 and [g.reason for g in judged.groups] == ["timestamps in UTC"]
    assert "unasked" not in judged.judged


@pytest.mark.parametrize(
    "answer",
    [ModelReply("They look alike to me."), reply("maybe", "hard to say")],
    ids=["no-json", "no-verdict"],
)
def test_an_answer_that_is_no_verdict_leaves_the_offline_result(
    tmp_path: Path, answer: ModelReply
) -> None:
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ)))
    judged = judge_duplicates(
        report,
        judge_of(home, ScriptedProvider([*SAME_OK, *SAME_OK, answer])),
        engine.said,
        wider_duplicates(report, engine.read),
    )
    assert judged.groups == report.groups == ()
    assert "1 not judged (the offline engine's finding stands)" in judged.judged


def test_opposite_rules_the_claims_missed_are_asked_as_a_contradiction_with_the_fact_given(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    documents = _notes((EMOJI, GITMOJI), (UTC, TIMESTAMPTZ), (DONE_BEFORE, LINT_BEFORE))
    engine = ContradictionsEngine(home, line_time=lambda document, line: 0)
    report = ContradictionsReport(contradictions=tuple(engine.pairs_of(documents)))
    assert report.contradictions == ()
    wider = wider_contradictions(report, engine.compared)
    # UTC: nothing against; "never say done before the linters pass" requires the linters
    assert [(c.one.text, c.how) for c in wider] == [(EMOJI, "polarity")]
    provider = ScriptedProvider(
        [*CONTRADICT_OK, *CONTRADICT_OK, reply("contradiction", "no emojis against a gitmoji")]
    )
    judged = judge_contradictions(report, judge_of(home, provider), wider, engine.contradiction_of)
    [found] = judged.contradictions
    assert (found.kind, found.judged_by, found.reason) == (
        "always-never",
        "judge-1.q4",
        "no emojis against a gitmoji",
    )
    assert (found.first.place.path, found.second.place.path) == (
        "/memories/global/g0.md",
        "/memories/project/p0.md",
    )
    assert (found.first.value, found.second.value) == ("never", "always")
    *_, asked = [messages[0].text for messages in provider.messages]  # type: ignore[union-attr]
    assert "A fact you may not overrule: the first says never" in asked
    dismissing = ScriptedProvider(
        [*CONTRADICT_OK, *CONTRADICT_OK, reply("compatible", "emojis and gitmoji differ")]
    )
    home = Home(tmp_path / "other")
    judged = judge_contradictions(
        report, judge_of(home, dismissing), wider, engine.contradiction_of
    )
    assert judged.contradictions == judged.dismissed == ()


def test_the_command_judges_the_wider_net_with_a_model_and_never_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "a.md", f"# A\n\n- {UTC}\n")
    atomic_write_text(home.project_root(PROJECT) / "b.md", f"# B\n\n- {TIMESTAMPTZ}\n")
    argv = ["--home", str(home.root), "duplicates", "--no-sources", "--json"]
    status = main(argv)  # no model configured: the offline engine alone
    offline = capsys.readouterr().out
    provider = ScriptedProvider(
        [*SAME_OK, *SAME_OK, reply("same", "timestamps in UTC"), reply("same", "no more")]
    )
    monkeypatch.setattr(judging, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(
        "memtab.cli.health.trust_commands.resolve_provider_settings", lambda: SETTINGS
    )
    assert main([*argv, "--offline"]) == status
    assert capsys.readouterr().out == offline  # byte for byte
    assert provider.calls == 0
    assert main(argv) == 1
    *_, group = json.loads(capsys.readouterr().out)["groups"]
    assert (group["judgedBy"], group["reason"]) == ("judge-1.q4", "timestamps in UTC")
    assert {m["path"] for m in group["members"]} == {
        "/memories/global/a.md",
        "/memories/project/b.md",
    }
    assert main([*argv[:-1]]) == 1
    out = capsys.readouterr().out
    assert "judged by judge-1.q4: timestamps in UTC" in out and provider.calls == 6


def test_a_model_that_confirms_the_control_pair_is_not_asked_the_wider_net(
    tmp_path: Path,
) -> None:
    """Two dev servers of two services on one port are no duplicate: a model that says they
    are (a small one says "same" to nearly every pair) is not asked the wider net, and the
    report says why."""
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ)))
    provider = ScriptedProvider([reply("same", "both: port 8000"), reply("same", "UTC")])
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert (judged.groups, provider.calls) == ((), 1)
    assert judged.judged.startswith(
        "Judged by judge-1: 1 asked, 0 answered before; 1 pair the offline engine did not "
        "confirm left unasked: the model called two statements about different things the same "
        "(a control pair every judge answers alike)"
    )


class _FailsTheFindingsControl(ScriptedProvider):
    """A model that answers the wider net's controls (statements shown with their scope)
    right and calls the findings' dismiss control (the same pair, no scope) the same — as
    Qwen2.5-Coder-1.5B did on one run of the held-out half."""

    def complete(self, system, messages, tools, *, cancel=None):  # type: ignore[no-untyped-def]
        text = messages[0].text  # type: ignore[union-attr]
        super().complete(system, messages, tools, cancel=cancel)
        if "port 8000" in text and "(project memory" not in text:
            return reply("same", "both: port 8000")
        if "port 8000" in text:
            return reply("different", "two services")
        return reply("same", "the same")


def test_a_model_that_fails_the_findings_control_is_not_asked_the_wider_net(
    tmp_path: Path,
) -> None:
    """Precision first: a model that fails any control of a kind of question is not trusted
    to add findings, though it answered the wider net's own controls right."""
    home = Home(tmp_path / "home")
    engine, report = _duplicates(home, _notes((UTC, TIMESTAMPTZ)))
    provider = _FailsTheFindingsControl()
    judged = judge_duplicates(
        report, judge_of(home, provider), engine.said, wider_duplicates(report, engine.read)
    )
    assert (judged.groups, provider.calls) == ((), 1)
    assert "left unasked: the model called two statements about different things" in (judged.judged)
