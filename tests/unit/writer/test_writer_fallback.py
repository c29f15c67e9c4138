"""A model's run never keeps less than the offline writer (issue 95): when the model gives no
usable judgement — no valid call, the time ran out, its answer failed its controls — the run
writes the offline writer's notes for the same session, through the same rails, and says so in
`memtab write --json`'s plan, the trace dump and the runs log; a model that passes its controls
judges. Time is a driven clock; the server's speed is as its replies said."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from memtab.llm.speed import Speed, remember_speed
from memtab.llm.types import ModelReply, ProviderError, Timings, ToolCall
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace, add_workspace, load_registry
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.window import NewestEvents
from memtab.writer.config import WriterSettings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run
from memtab.writer.job.rules_task import KNOWN_RULES
from memtab.writer.job.run import run_writer
from memtab.writer.prompts import lessons_prompt
from support.logfail import ExpectLog

from .events import answer, bash, calls, shell, user
from .helpers import PROJECT, WORKSPACE_ID
from .local_model import notes
from .test_writer_pacing import FAST, MODEL, NOW_MS, SERVER, SLOW, LocalServerModel, clock
from .test_writer_standing_rules import numbered

NOT_USABLE = "the model's answer was not usable ({why}); the offline notes were written"


def session() -> list[TranscriptEvent]:
    return [
        user("Always use pnpm, never npm. Thanks for the quick look at the dashboard."),
        bash("pnpm run build", ok=False, output="Error: Cannot find module 'vite'"),
        calls(shell("pnpm install"), shell("pnpm run build", output="built in 2.1s")),
        bash("pnpm test", output="Tests 42 passed"),
        user("Styling is Tailwind only."),
        answer("Done: the build works and the 42 tests pass."),
    ]


def offline_notes(tmp_path: Path) -> str:
    """What the offline writer writes for `session()` in a home of its own."""
    home = Home(tmp_path / "offline-home")
    add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID, workspace_path=PROJECT)
    workspace = load_registry(home).require_workspace(WORKSPACE_ID)
    settings = WriterSettings(offline_notes="write")
    events = NewestEvents.of(session(), 80_000, redact=True)
    provider = bind_to_run(OfflineWriterProvider(), home, workspace, events.budget, settings)
    assert run_writer(home, workspace, events, provider, settings=settings).outcome == "wrote"
    return notes(home, workspace)


def bullets(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("- ")]


def keep(*numbers: int) -> ModelReply:
    call = ToolCall("k1", "keep_notes", {"keep": list(numbers)})
    return ModelReply("", (call,), "tool_use", timings=Timings(600, 90.0, 12, 3.3))


def nonsense(speed: Speed = SLOW) -> ModelReply:
    """A reply without a call, from a server reading and writing at `speed`."""
    text = "These notes all look great to me!"
    timings = Timings(600, 600 / speed.prompt_per_s, 9, 9 / speed.output_per_s)
    return ModelReply(text, (), "stop", timings=timings)


class Judging(LocalServerModel):
    """A model that passes its controls: it keeps the first proposed note and, of the user's
    sentences, the known rule and Tailwind's."""

    def complete(self, system: str, messages: Any, tools: Any, *, cancel: Any = None) -> Any:
        rules = {*KNOWN_RULES, "Styling is Tailwind only."}
        kept = [n for n, text, users in numbered(messages) if n == 1 or (users and text in rules)]
        self.replies = [keep(*kept)]
        return super().complete(system, messages, tools, cancel=cancel)


def run(
    home: Home, workspace: Workspace, model: LocalServerModel, speed: Speed = SLOW
) -> tuple[str, object]:
    remember_speed(SERVER, MODEL, speed, at_ms=NOW_MS)
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, session(), model, settings=settings, clock=clock)
    return notes(home, workspace), result


@pytest.mark.parametrize(
    ("replies", "fail", "why", "speed"),
    [
        ([nonsense(FAST), nonsense(FAST)], None, "no valid call", FAST),
        ([nonsense()], None, "no time for another request", SLOW),  # the nudge does not fit
        ([], ProviderError("timeout", "no reply within 300 s"), "timed out", SLOW),
        ([keep(1, 2, 3, 4, 5, 6, 7, 8)], None, "controls failed: kept the known non-rule", SLOW),
        ([keep(2)], None, "controls failed: left out the known rule", SLOW),
    ],
)
def test_a_model_without_a_usable_answer_writes_the_offline_notes_and_says_so(
    home: Home,
    workspace: Workspace,
    tmp_path: Path,
    replies: list[ModelReply],
    fail: ProviderError | None,
    why: str,
    speed: Speed,
    expect_log: ExpectLog,
) -> None:
    if fail is not None:
        expect_log("memtab.llm.loop", "WARNING", "no reply within")
    model = LocalServerModel(replies)
    model.fail = fail
    written, result = run(home, workspace, model, speed)
    assert written == offline_notes(tmp_path)  # not one note fewer than offline
    assert "- Always use pnpm, never npm." in written and "`pnpm test`" in written
    assert result.outcome == "wrote" and result.ok  # type: ignore[attr-defined]
    says = NOT_USABLE.format(why=why)
    assert result.fallback == says  # type: ignore[attr-defined]
    assert result.plan is not None and result.plan.endswith(says)  # type: ignore[attr-defined]
    assert result.to_json()["fallback"] == says  # type: ignore[attr-defined]
    dump = json.loads(result.trace_path.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    assert dump["summary"].endswith(says) and dump["didWriteMemory"] is True
    [logged] = RunsLog(home).runs(kind="writer")
    assert logged.summary is not None and logged.summary.endswith(says)


def test_a_model_passing_its_controls_judges_and_nothing_falls_back(
    home: Home, workspace: Workspace, tmp_path: Path
) -> None:
    written, result = run(home, workspace, Judging([]))
    assert "- Always use pnpm, never npm." in written and "- Styling is Tailwind only." in written
    assert "`pnpm test`" in written  # a proposal it left out is written still
    offline = bullets(offline_notes(tmp_path))
    assert [line for line in bullets(written) if line not in offline] == [
        "- Styling is Tailwind only."  # what the answer adds
    ]
    assert result.fallback is None and "not usable" not in (result.plan or "")  # type: ignore[attr-defined]
    assert "fallback" not in result.to_json()  # type: ignore[attr-defined]


def nothing_useful() -> ModelReply:
    return ModelReply("", (ToolCall("n", "no_new_memories", {}),), "tool_use")


def refused_lessons() -> ModelReply:
    unsaid = {"kind": "fact", "lesson": "The app is a Flask app in app.py.", "evidence": "Flask"}
    return ModelReply("", (ToolCall("l", "record_lessons", {"lessons": [unsaid]}),), "tool_use")


def one_lesson() -> ModelReply:
    said = {"kind": "fact", "lesson": "Styling is Tailwind only.", "evidence": "Tailwind only"}
    return ModelReply("", (ToolCall("l", "record_lessons", {"lessons": [said]}),), "tool_use")


@pytest.mark.parametrize(
    ("reply", "added"),
    [
        (nothing_useful(), []),
        (refused_lessons(), []),
        (one_lesson(), ["- Styling is Tailwind only."]),
    ],
)
def test_a_usable_lessons_answer_adds_to_the_offline_notes_and_drops_none(
    home: Home, workspace: Workspace, tmp_path: Path, reply: ModelReply, added: list[str]
) -> None:
    """A server fast enough for the lessons task, answering it with nothing, with only lessons
    the checks refuse, or with one lesson: every offline note is written, the user's stated rule
    in their words among them (a 1.5B model's usable answer recorded nothing)."""
    remember_speed(SERVER, MODEL, FAST, at_ms=NOW_MS)
    model = LocalServerModel([reply])
    result = run_writer(home, workspace, session(), model, settings=WriterSettings(), clock=clock)
    assert model.systems == [lessons_prompt()]
    written = notes(home, workspace)
    offline = bullets(offline_notes(tmp_path))
    assert "- Always use pnpm, never npm." in offline and "- Always use pnpm, never npm." in written
    assert [line for line in offline if line not in bullets(written)] == []  # none dropped
    assert [line for line in bullets(written) if line not in offline] == added
    assert result.outcome == "wrote" and result.fallback is None


@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: cancelled")
def test_a_cancelled_run_writes_nothing(home: Home, workspace: Workspace) -> None:
    cancel = threading.Event()
    cancel.set()
    model = LocalServerModel([])
    model.fail = ProviderError("cancelled", "cancelled by the user")
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    settings = WriterSettings()
    result = run_writer(
        home, workspace, session(), model, settings=settings, cancel=cancel, clock=clock
    )
    assert result.outcome == "failed" and result.after == "" and result.fallback is None
