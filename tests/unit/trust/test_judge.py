"""With a model, the model judges (issue 83): what the offline engines found is put to it,
confirmed or dismissed with a one-line reason, each answer kept per question and content;
a failed call or an answer that is no verdict leaves the offline engine's finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.cli.main import main
from memtab.fs.atomic import atomic_write_text
from memtab.kept.per_file import cache_file_for
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ChatProvider, ModelReply, ProviderError, Usage
from memtab.store.home import Home
from memtab.trust import judge as judging
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import ContradictionsReport
from memtab.trust.duplicates.engine import DuplicatesEngine, Found
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judge import ModelJudge, judge_contradictions, judge_duplicates
from support.memory_home import PROJECT, make_home
from support.private_modes import mode_of
from support.scripted_provider import ScriptedProvider
from support.seeded_memories import memory

SETTINGS = ProviderSettings(provider="openai", model="judge-1", base_url="http://127.0.0.1:9")


def _found(found: Found) -> list[DuplicateGroup]:
    """What the words only suspect (issue 94: the candidates), as the groups a judge is given."""
    return found.candidates


def reply(verdict: str, reason: str) -> ModelReply:
    text = f'Sure:\n```json\n{{"reason": "{reason}", "verdict": "{verdict}"}}\n```'
    return ModelReply(text, usage=Usage(120, 12), served_model="judge-1.q4")


SAME_OK = [reply("different", "two services"), reply("same", "both: tests before a push")]
"""The answers to the controls of "same" (`wider.CONTROLS`) every judge must give."""
CONTRADICT_OK = [reply("compatible", "two kinds of tests"), reply("contradiction", "tabs or not")]
"""The answers to the controls of "contradict" every judge must give."""


def judge_of(home: Home, provider: ScriptedProvider) -> ModelJudge:
    def make(settings: ProviderSettings, limit: int | None) -> ChatProvider:
        return provider

    return ModelJudge(home, SETTINGS, make=make)


def _rules() -> list[Document]:
    return [
        memory("global", "a.md", "# A\n\n- Use pnpm, not npm.\n- Deploys go out on Tuesdays.\n"),
        memory("project:api", "b.md", "# B\n\n- Prefer pnpm over npm in this repo.\n"),
        memory("global", "c.md", "# C\n\n- Ask Priya about billing.\n- Lunch is at one.\n"),
        memory("project:api", "d.md", "# D\n\n- Ask Priya about billing.\n- Invoices are PDF.\n"),
    ]


def test_the_model_confirms_and_dismisses_with_a_reason_and_is_asked_once(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    engine = DuplicatesEngine(home)
    groups = _found(engine.found_in(_rules()))
    assert [g.kind for g in groups] == ["reworded", "rule"]
    report = DuplicatesReport(groups=tuple(groups), files_read=4)
    provider = ScriptedProvider(
        [
            *SAME_OK,
            reply("different", "one person to ask, two other facts"),
            reply("Same", "both: pnpm"),
        ]
    )
    judge = judge_of(home, provider)
    judged = judge_duplicates(report, judge, engine.said)
    judge.close()
    [kept] = judged.groups
    [dismissed] = judged.dismissed
    assert (kept.kind, kept.judged_by, kept.reason) == ("rule", "judge-1.q4", "both: pnpm")
    assert (dismissed.kind, dismissed.reason) == ("reworded", "one person to ask, two other facts")
    asked = [message[0].text for message in provider.messages[2:]]  # type: ignore[union-attr]
    assert "1. Ask Priya about billing. Lunch is at one.\n2. Ask Priya" in asked[0]
    assert '"verdict": "same" or "different"' in asked[0]
    assert "1. Use pnpm, not npm.\n2. Prefer pnpm over npm in this repo." in asked[1]
    assert judged.judged == "Judged by judge-1: 4 asked, 0 answered before."
    # The next run asks nothing: each answer is kept by question and content, privately.
    again = ScriptedProvider([])
    judge = judge_of(home, again)
    assert judge_duplicates(report, judge, engine.said) == judged.replaced(
        judged="Judged by judge-1: 0 asked, 4 answered before."
    )
    assert again.calls == 0
    assert mode_of(cache_file_for(home, "judged")) == 0o600


def test_an_unreadable_answer_or_a_failed_call_leaves_the_offline_finding(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    documents = [
        memory("global", "a.md", "# A\n\n- The API runs on port 8000.\n"),
        memory("project:api", "b.md", "# B\n\n- The API runs on port 8080.\n"),
    ]
    engine = ContradictionsEngine(home, line_time=lambda d, line: 0)
    report = ContradictionsReport(contradictions=tuple(engine.pairs_of(documents)))
    for provider in (  # the controls' answers are kept after the first
        ScriptedProvider([*CONTRADICT_OK, ModelReply("I think they might both be fine.")]),
        ScriptedProvider([reply("maybe", "a verdict of neither kind")]),
        ScriptedProvider(fail=ProviderError("connection", "judge-1: connection refused")),
    ):
        judge = judge_of(home, provider)
        judged = judge_contradictions(report, judge)
        judge.close()
        assert judged.contradictions == report.contradictions
        assert judged.contradictions[0].judged_by == "offline"
        assert "1 not judged (the offline engine's finding stands)" in judged.judged
    provider = ScriptedProvider([reply("contradiction", "two ports for one API")])
    judged = judge_contradictions(report, judge_of(home, provider))
    assert judged.contradictions[0].reason == "two ports for one API"
    # A kept answer that is not what Memtab wrote is none.
    cache_file_for(home, "judged").write_bytes(b"memtab-trust\nforged")
    assert judge_of(home, ScriptedProvider([])).ask("same", ["a", "b"]) is None


def contradicting_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: ScriptedProvider
) -> list[str]:
    """`memtab contradictions`' arguments on a home of two opposite rules, `provider` the
    configured model."""
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "a.md", "# A\n\n- Never rebase on main.\n")
    atomic_write_text(home.project_root(PROJECT) / "b.md", "# B\n\n- Always rebase on main.\n")
    monkeypatch.setattr(judging, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(
        "memtab.cli.health.trust_commands.resolve_provider_settings", lambda: SETTINGS
    )
    return ["--home", str(home.root), "contradictions", "--no-sources"]


def test_the_command_asks_the_configured_model_unless_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = ScriptedProvider(
        [*CONTRADICT_OK, reply("contradiction", "never rebase against always rebase")]
    )
    argv = contradicting_home(tmp_path, monkeypatch, provider)
    assert main([*argv, "--json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["contradictions"]
    assert (found["judgedBy"], found["reason"]) == (
        "judge-1.q4",
        "never rebase against always rebase",
    )
    assert main([*argv, "--offline", "--json"]) == 1
    [found] = json.loads(capsys.readouterr().out)["contradictions"]
    assert found["judgedBy"] == "offline" and "reason" not in found
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "judged by judge-1.q4: never rebase against always rebase" in out
    assert "Judged by judge-1: 0 asked, 3 answered before." in out
    assert provider.calls == 3


def test_an_answer_is_kept_for_the_question_asked_not_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question asked in other words is asked again: what the model answered to the old
    question says nothing of the new one."""
    home = Home(tmp_path / "home")
    statements = ["Use pnpm, not npm.", "Prefer pnpm over npm in this repo."]
    judge = judge_of(home, ScriptedProvider([reply("same", "both: pnpm")]))
    assert judge.ask("same", statements) is not None
    judge.close()
    asked, confirms, dismisses = judging.QUESTIONS["same"]
    monkeypatch.setitem(judging.QUESTIONS, "same", (f"{asked} Say why.", confirms, dismisses))
    again = ScriptedProvider([reply("different", "another tool")])
    verdict = judge_of(home, again).ask("same", statements)
    assert again.calls == 1 and verdict is not None and not verdict.yes
