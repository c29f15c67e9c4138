"""A writer run on a model server on this machine sized to its measured speed (issue 95): the
lessons task when it fits the time, else the notes code proposes judged by number — as many
as the time reads, the rest said to be left out — else no request; the run's limit there the
dream's 5 minutes. Time is a driven clock; the server's speed is as its replies said."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from memtab.llm.pace import (
    BUSY_SLOWDOWN,
    SAFETY_SHARE,
    estimated_tokens,
    instruction_tokens,
)
from memtab.llm.speed import Speed, known_speed, remember_speed, stepped
from memtab.llm.types import ModelReply, Timings, ToolCall, UserMessage
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.config import WriterSettings
from memtab.writer.job.judge_tools import NOT_PROPOSED
from memtab.writer.job.pacing import LESSONS_REPLY_TOKENS, judge_reply_tokens
from memtab.writer.job.run import run_writer
from memtab.writer.offline.findings import Findings, WorkflowTool
from memtab.writer.offline.notes import COMMANDS, Note, not_prohibited, notes_to_propose
from memtab.writer.prompts import (
    build_judge_message,
    judge_prompt,
    judge_tool_specs,
    lessons_prompt,
)

from .events import answer, bash, calls, shell, user
from .local_model import LocalModel, forget_notes, notes

SERVER = "http://127.0.0.1:9/v1"  # nothing listens: the server says nothing of itself
SLOW = Speed(8.0, 4.0)  # the step of Qwen2.5-Coder-1.5B on one thread of this 2-core machine
FAST = Speed(2000.0, 200.0)
NOW_MS = 1_800_000_000_000
MODEL = "qwen2.5-coder-1.5b"


class LocalServerModel(LocalModel):
    """A scripted model served on this machine: its replies say how long they took."""

    base_url = SERVER
    fresh_prompt = True

    def __init__(self, replies: list[ModelReply], model: str = MODEL) -> None:
        super().__init__(replies)
        self.max_tokens = 2048
        self.caps: list[int] = []
        self.schemas: list[Any] = []
        self._model = model

    @property
    def model(self) -> str:
        return self._model

    def complete(self, system: str, messages: Any, tools: Any, *, cancel: Any = None) -> Any:
        self.caps.append(self.max_tokens)
        self.schemas.append([tool.input_schema for tool in tools])
        return super().complete(system, messages, tools, cancel=cancel)


def clock() -> int:
    return NOW_MS


def session() -> list[TranscriptEvent]:
    return [
        user("Always use pnpm, never npm. Never push to main without asking me first."),
        bash("pnpm run build", ok=False, output="Error: Cannot find module 'vite'"),
        calls(shell("pnpm install"), shell("pnpm run build", output="built in 2.1s")),
        bash("pnpm test", output="Tests 42 passed"),
        user("From now on, always run pnpm lint before you tell me something is done."),
        bash("pnpm lint", output="0 problems"),
        answer("Done: lint is clean, the build works and the 42 tests pass."),
    ]


def keep(*numbers: object) -> ModelReply:
    call = ToolCall("k1", "keep_notes", {"keep": list(numbers)})
    return ModelReply("", (call,), "tool_use", timings=Timings(900, 100.0, 12, 2.5))


def shown_notes(model: LocalServerModel) -> list[str]:
    first = model.messages[0][0]
    assert isinstance(first, UserMessage)
    return [line for line in first.text.splitlines() if line[:1].isdigit()]


def judging_seconds(notes_shown: list[tuple[str, str]], speed: Speed) -> float:
    """What the judging request showing `notes_shown` takes, planned as the run plans it."""
    message = build_judge_message(workspace="w", project="", notes=notes_shown)
    tokens = instruction_tokens(judge_prompt(), judge_tool_specs()) + estimated_tokens(message)
    read, write = speed.prompt_per_s / BUSY_SLOWDOWN, speed.output_per_s / BUSY_SLOWDOWN
    return tokens / read + judge_reply_tokens(len(notes_shown)) / write


def test_a_slow_server_judges_the_proposed_notes_and_the_kept_ones_are_written(
    home: Home, workspace: Workspace
) -> None:
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    model = LocalServerModel([keep(1, 3, 99, 0, "x")])
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, session(), model, settings=settings, clock=clock)
    # 300 s, the dream's, on a server on this machine: the lessons task does not fit in it
    assert result.outcome == "wrote" and model.calls == 1
    assert model.systems == [judge_prompt()] and model.tools == [["keep_notes"]]
    shown = shown_notes(model)
    assert len(shown) >= 3 and shown[0] == "1. Always use pnpm, never npm."
    written = notes(home, workspace)
    assert "- Always use pnpm, never npm." in written
    # every shown rule the user stated is written, the one it did not keep too
    assert all(line.split(". ", 1)[1] in written for line in shown[:3])
    assert result.refused == (("99 (and 2 more)", NOT_PROPOSED),)  # named together
    # a server asked by schema may write only the numbers shown, each list no longer
    keep_schema = model.schemas[0][0]["properties"]["keep"]
    assert keep_schema["maxItems"] == keep_schema["items"]["maximum"] == len(shown)
    assert result.plan is not None and result.plan.startswith(
        f"judged {len(shown)} of the {len(shown)} proposed notes: the lessons task"
    )
    # every request is read whole on this server: its instructions are in the reply's cap
    assert model.caps[0] < 2048
    assert result.trace_path is not None
    dump = json.loads(result.trace_path.read_text(encoding="utf-8"))
    assert dump["summary"] == result.plan and dump["timeoutMs"] == 300_000
    remembered = known_speed(SERVER, MODEL)  # its reply's 9 and 4.8 a second: the step holds
    assert remembered is not None and remembered.prompt_per_s == SLOW.prompt_per_s


def test_a_run_shows_as_many_notes_as_its_time_reads_and_says_the_rest_were_left_out(
    home: Home, workspace: Workspace
) -> None:
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    everything = LocalServerModel([keep()])
    run_writer(home, workspace, session(), everything, settings=WriterSettings(), clock=clock)
    proposed = [tuple(line.split(". ", 1)) for line in shown_notes(everything)]
    assert len(proposed) >= 3
    forget_notes(home, workspace)  # the stated rules it wrote, so the next run proposes them
    two = judging_seconds([("Directives", text) for _, text in proposed[:2]], SLOW)
    limit = two / (1 - SAFETY_SHARE) + 1  # time for two notes, not three
    model = LocalServerModel([keep()])
    result = run_writer(
        home, workspace, session(), model, settings=WriterSettings(timeout_s=limit), clock=clock
    )
    assert result.outcome == "wrote"  # the two shown are rules the user stated
    assert len(shown_notes(model)) == 2
    rest = len(proposed) - 2
    assert result.left_out_count == rest
    assert result.plan is not None and result.plan.endswith(
        f"; {rest} less sure note{'s' if rest > 1 else ''} left out"
    )
    assert result.summary().endswith(f"({rest} less sure left out)")


def test_one_session_is_asked_the_same_however_loaded_the_machine_is_between_its_runs(
    home: Home, workspace: Workspace
) -> None:
    """batch6 with Qwen2.5-Coder-1.5B: one run of a session had time for the lessons task and
    the next did not, each planned at the pace last measured. Here the first run's reply
    measured the machine busier (8.2 tokens a second read, not 12) and the second run's clock
    runs 5 s a reading slower: the second is asked what the first was, reply limit too."""
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    everything = LocalServerModel([keep()])
    run_writer(home, workspace, session(), everything, settings=WriterSettings(), clock=clock)
    proposed = [
        ("Directives", text)
        for _, text in (line.split(". ", 1) for line in shown_notes(everything))
    ]
    forget_notes(home, workspace)
    remember_speed(SERVER, MODEL, Speed(12.0, 6.0), at_ms=NOW_MS)
    limit = judging_seconds(proposed, stepped(Speed(12.0, 6.0))) / (1 - SAFETY_SHARE) + 1
    asked = []
    for read_s, tick_s in ((110.0, 0), (75.0, 5)):
        ticks = itertools.count()

        def slower(tick_s: int = tick_s, ticks: Iterator[int] = ticks) -> int:
            return NOW_MS + next(ticks) * tick_s * 1000

        call = ToolCall("k1", "keep_notes", {"keep": [1]})
        reply = ModelReply("", (call,), "tool_use", timings=Timings(900, read_s, 12, 2.5))
        model = LocalServerModel([reply])
        settings = WriterSettings(timeout_s=limit)
        result = run_writer(home, workspace, session(), model, settings=settings, clock=slower)
        shown = shown_notes(model) if model.calls else []
        asked.append((model.systems, shown, model.caps, result.plan))
        forget_notes(home, workspace)
    assert asked[0] == asked[1] and asked[0][0] == [judge_prompt()]


def test_a_run_with_no_time_for_one_note_asks_nothing_writes_the_offline_notes_and_says_so(
    home: Home, workspace: Workspace
) -> None:
    remember_speed(SERVER, MODEL, SLOW, at_ms=NOW_MS)
    model = LocalServerModel([keep(1)])
    result = run_writer(
        home, workspace, session(), model, settings=WriterSettings(timeout_s=20), clock=clock
    )
    assert model.calls == 0 and result.outcome == "wrote" and not result.timed_out
    assert result.plan is not None and result.plan.startswith("not asked: the lessons task")
    assert result.plan.endswith(
        "the model's answer was not usable (no time to ask); the offline notes were written"
    )
    assert result.left_out_count >= 3
    assert "- Always use pnpm, never npm." in notes(home, workspace)


def test_a_fast_server_or_one_of_unknown_speed_is_given_the_lessons_task(
    home: Home, workspace: Workspace
) -> None:
    remember_speed(SERVER, MODEL, FAST, at_ms=NOW_MS)
    model = LocalServerModel([ModelReply("", (ToolCall("n", "no_new_memories", {}),))])
    result = run_writer(home, workspace, session(), model, settings=WriterSettings(), clock=clock)
    assert model.systems == [lessons_prompt()] and result.plan is None
    assert result.outcome == "wrote"  # the offline notes: no new memories of the model's
    assert LESSONS_REPLY_TOKENS / (FAST.output_per_s / BUSY_SLOWDOWN) < 270
    # a server of unknown speed: nothing can be sized, the lessons task as before
    unknown = LocalServerModel(
        [ModelReply("", (ToolCall("n", "no_new_memories", {}),))], model="never-measured"
    )
    result = run_writer(home, workspace, session(), unknown, settings=WriterSettings(), clock=clock)
    assert unknown.systems == [lessons_prompt()] and unknown.caps == [2048]
    assert result.outcome == "no_new_memories" and result.plan is None  # the file says them


def test_a_command_the_user_forbade_is_never_proposed() -> None:
    """A session's user says "Never run npm in this repo." and the agent ran `npm install`
    before `pnpm install`: neither the judging task nor its notes propose `npm install`."""
    commands = ["`npm install` (install)", "`pnpm install` (install)", "`cargo build` (build)"]
    notes = [Note(COMMANDS, text) for text in (*commands, "`cargo publish`")]
    notes.append(Note("Directives", "Never run npm in this repo."))
    rules = ["Never run npm in this repo.", "Never run `cargo publish` yourself.", "Never push"]
    assert [note.text for note in not_prohibited(notes, rules)] == [
        "`pnpm install` (install)",
        "`cargo build` (build)",
        "Never run npm in this repo.",
    ]
    assert not_prohibited(notes[:1], ["Always use pnpm, never npm."]) == []


def test_a_command_carrying_a_flag_the_user_forbade_is_never_proposed() -> None:
    """ "Never deploy with `--env live` from a laptop" rules out every command carrying that flag,
    inside a quoted task too; "without `--dry-run`" asks for a flag and rules out nothing."""
    commands = [
        '`mill app.run "deploy --env live --since 2026-01-01"` (run)',
        "`mill app.run deploy --env canary` (run)",
        "`./migrate --dry-run` (migrate)",
        "`git push --no-verify` (push)",
    ]
    notes = [Note(COMMANDS, text) for text in commands]
    rules = [
        "Never deploy with `--env live` from a laptop; CI does that.",
        "Never run the migration without `--dry-run` first.",
        "Do not push passing `--no-verify`, the hooks are there for a reason.",
    ]
    assert [note.text for note in not_prohibited(notes, rules)] == commands[1:3]


def test_a_command_the_user_forbade_is_not_listed_among_a_tools_commands_that_worked() -> None:
    """The user said "Don't ever run `bin/rails db:reset`" and the agent ran it anyway: the
    note of `bin/rails`'s commands that worked names the others, never it; a tool whose every
    command is forbidden gets no note."""
    findings = Findings(
        directives=["Don't ever run `bin/rails db:reset` here.", "Never run npm in this repo."],
        tools=[
            WorkflowTool("bin/rails", ("bin/rails db:migrate", "bin/rails db:reset")),
            WorkflowTool("npm", ("npm install", "npm run lint")),
        ],
    )
    commands = [note.text for note in notes_to_propose("", findings) if note.section == COMMANDS]
    assert commands == [
        "`bin/rails` is part of this project's workflow; these worked: `bin/rails db:migrate`."
    ]
