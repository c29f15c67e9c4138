"""The user's standing rules judged by the model, in the user's words (issue 95): on a slow
server the judging task shows the model, after the notes code proposes, the sentences the user
typed that the offline directive reader did not take for rules, a known rule and a known
non-rule among them; a controlled answer's rules are written as the user typed them, a model
failing a control is not used for rules and the run says so. Time is a driven clock; the
server's speed is as its replies said."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from memtab.llm.speed import remember_speed
from memtab.llm.types import ModelReply, Timings, ToolCall, UserMessage
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.config import WriterSettings
from memtab.writer.job.rules_task import (
    KNOWN_NON_RULES,
    KNOWN_RULES,
    RulesQuestion,
    rule_candidates,
)
from memtab.writer.job.run import run_writer
from memtab.writer.offline.directives import standing_rules
from memtab.writer.prompts import USER_WROTE, judge_prompt

from .events import answer, bash, user
from .local_model import notes
from .test_writer_pacing import MODEL, NOW_MS, SERVER, SLOW, LocalServerModel, clock

NO_DEPENDENCIES = "No new dependencies without asking me first."
TAILWIND = "Styling is Tailwind only."
RULES = (NO_DEPENDENCIES, TAILWIND, *KNOWN_RULES)
Reader = Callable[[str], bool]


def session() -> list[TranscriptEvent]:
    return [
        user(f"Add a dark mode toggle to the settings page. {NO_DEPENDENCIES}"),
        bash("pnpm test", output="Tests 12 passed"),
        user(f"No, we don't use styled-components here. {TAILWIND} Thanks for checking."),
        bash("pnpm lint", output="0 problems"),
        answer("Done: the toggle is in src/components/ThemeToggle.tsx and the tests pass."),
    ]


class RulesReader(LocalServerModel):
    """A slow server's model judging: it keeps the proposed notes `keep_notes` says (all or
    none) and each of the user's sentences as `reader` reads it."""

    def __init__(self, reader: Reader, *, keep_notes: bool = False) -> None:
        super().__init__([])
        self.reader = reader
        self.keep_notes = keep_notes

    def complete(self, system: str, messages: Any, tools: Any, *, cancel: Any = None) -> Any:
        kept = [
            number
            for number, text, users in numbered(messages)
            if (self.reader(text) if users else self.keep_notes)
        ]
        call = ToolCall("k1", "keep_notes", {"keep": kept})
        self.replies = [ModelReply("", (call,), "tool_use", timings=Timings(400, 60.0, 20, 6.0))]
        return super().complete(system, messages, tools, cancel=cancel)


def numbered(messages: list[Any]) -> list[tuple[int, str, bool]]:
    """Each numbered line of the request: its number, its text, whether the user wrote it."""
    first = messages[0]
    assert isinstance(first, UserMessage)
    lines, users = [], False
    for line in first.text.splitlines():
        users = users or line == f"## {USER_WROTE}"
        if line[:1].isdigit():
            number, text = line.split(". ", 1)
            lines.append((int(number), text, users))
    return lines


def users_sentences(messages: list[Any]) -> list[str]:
    return [text for _, text, users in numbered(messages) if users]


def run(home: Home, workspace: Workspace, reader: Reader, **settings: Any) -> Any:
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    model = RulesReader(reader)
    result = run_writer(
        home,
        workspace,
        session(),
        model,
        settings=WriterSettings(dump_successful_runs=True, **settings),
        clock=clock,
    )
    return model, result


def test_the_rules_the_directive_reader_misses_are_written_in_the_users_words(
    home: Home, workspace: Workspace
) -> None:
    model, result = run(home, workspace, lambda text: text in RULES)
    assert model.calls == 1 and model.systems == [judge_prompt()]  # one request, as before
    shown = users_sentences(model.messages[0])
    # the user's sentences, none of the agent's, a known rule and a known non-rule among them
    assert NO_DEPENDENCIES in shown and TAILWIND in shown and "Thanks for checking." in shown
    assert not any("ThemeToggle" in text for text in shown)
    assert len(set(shown) & set(KNOWN_RULES)) == 1 and len(set(shown) & set(KNOWN_NON_RULES)) == 1
    every = numbered(model.messages[0])
    schema = model.schemas[0][0]["properties"]["keep"]
    assert schema["maxItems"] == schema["items"]["maximum"] == len(every) > len(shown)
    written = notes(home, workspace)
    assert f"- {NO_DEPENDENCIES}" in written and f"- {TAILWIND}" in written
    assert not any(rule in written for rule in KNOWN_RULES)  # a control is never written
    assert "dark mode" not in written  # the request of the moment is no rule
    assert "`pnpm test`" in written  # a proposed note it did not keep is written still
    assert result.outcome == "wrote" and result.plan is not None
    assert "2 kept as standing rules in their words (controls passed)" in result.plan
    dump = json.loads(result.trace_path.read_text(encoding="utf-8"))
    assert dump["summary"] == result.plan  # `memtab write --json`'s plan says it too
    kept = dump["attempts"][0]["toolExecutions"][0]["output"]["kept"]
    assert {"line": NO_DEPENDENCIES, "evidence": NO_DEPENDENCIES} in kept


@pytest.mark.parametrize(
    ("reader", "why"),
    [
        (lambda text: True, "kept the known non-rule"),
        (lambda text: text in (NO_DEPENDENCIES, TAILWIND), "left out the known rule"),
    ],
)
def test_a_model_failing_a_control_is_not_used_and_the_offline_notes_are_written(
    home: Home, workspace: Workspace, reader: Reader, why: str
) -> None:
    _, result = run(home, workspace, reader)
    assert NO_DEPENDENCIES not in result.after and TAILWIND not in result.after
    assert "`pnpm test`" in result.after  # the offline writer's note, which it did not keep
    assert result.plan is not None and result.plan.endswith(
        f"the model's answer was not usable (controls failed: {why}); "
        "the offline notes were written"
    )


def test_the_question_is_the_same_for_the_same_session_and_holds_no_question() -> None:
    sentences = rule_candidates(
        [
            user(
                "Can you check the build? I will look at the logs later. "
                "Commit messages follow conventional commits."
            )
        ]
    )
    texts = [sentence.text for sentence in sentences]
    assert texts == [
        "I will look at the logs later.",
        "Commit messages follow conventional commits.",
    ]
    first, again = RulesQuestion(tuple(sentences)), RulesQuestion(tuple(sentences))
    assert first.shown == again.shown and len(first.shown) == 4
    assert first.shown[first.known_rule - 1] in KNOWN_RULES
    assert first.shown[first.known_non_rule - 1] in KNOWN_NON_RULES
    # a directive the offline reader found is not asked: its note stands
    assert rule_candidates([user("Always use pnpm, never npm.")]) == []
    verdict = first.verdict([first.known_rule, first.shown.index(texts[1]) + 1])
    assert verdict.passed and [sentence.text for sentence in verdict.kept] == [texts[1]]
    assert verdict.notes() == {note: texts[1] for note in verdict.notes()} and [
        note.text for note in verdict.notes()
    ] == [texts[1]]


def test_what_does_not_fit_the_run_is_left_out_and_said(home: Home, workspace: Workspace) -> None:
    names = ["".join(chr(97 + (n * 7 + k) % 26) for k in range(6)) for n in range(30)]
    many = [user(f"Rename the {name} handler and move it to {name}.go.") for name in names]
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    model = RulesReader(lambda text: text in RULES)
    settings = WriterSettings(timeout_s=200)
    result = run_writer(home, workspace, many, model, settings=settings, clock=clock)
    shown = users_sentences(model.messages[0])
    asked = len(rule_candidates(many))
    assert 2 < len(shown) < asked + 2  # some of the user's sentences, and the two controls
    assert result.plan is not None
    assert f"judged 0 of the 0 proposed notes and {len(shown) - 2} of the user's {asked}" in (
        result.plan
    )


def test_a_rule_the_user_stated_is_written_whatever_the_model_keeps(
    home: Home, workspace: Workspace
) -> None:
    """The directive reader found "Never run npm in this repo." in the user's line: a model
    keeping none of the proposed notes does not drop it (1.5B models drop stated rules)."""
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    model = RulesReader(lambda text: text in KNOWN_RULES)  # passes its controls, keeps no note
    events = [user(f"Never run npm in this repo. {NO_DEPENDENCIES}"), *session()[1:]]
    result = run_writer(home, workspace, events, model, settings=WriterSettings(), clock=clock)
    shown = [text for _, text, users in numbered(model.messages[0]) if not users]
    assert any("Never run npm in this repo." in text for text in shown)  # proposed, then
    written = notes(home, workspace)
    assert "- Never run npm in this repo." in written  # kept though the model did not pick it
    assert "`pnpm test`" in written  # and every other note the offline writer keeps
    assert result.outcome == "wrote" and result.fallback is None


def test_a_sentence_taken_back_at_once_is_neither_asked_nor_a_line_to_restate() -> None:
    said = (
        "Use f32 for all the rope math. Actually scratch that, ignore what I said — the joint "
        "takes f64 here. Commit messages follow conventional commits."
    )
    texts = [sentence.text for sentence in rule_candidates([user(said)])]
    assert "Use f32 for all the rope math." not in texts
    assert "Commit messages follow conventional commits." in texts
    assert standing_rules([said]).withdrawn == ["Use f32 for all the rope math."]
