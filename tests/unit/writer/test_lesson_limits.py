"""What a hostile model's `record_lessons` cannot do (issue 95, round 7): write control or
bidirectional characters into notes, keep more than five lessons by any path, or make the run
refuse its lessons one by one in quadratic time."""

from __future__ import annotations

import json

import pytest

from memtab.llm.types import ModelReply, ToolCall
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.job.run import run_writer
from memtab.writer.lessons.digest import digest_of
from memtab.writer.lessons.judge import MOST_LESSONS, TOO_MANY

from .events import answer, bash, user
from .local_model import LocalModel, lesson, lessons_alone, notes, record

HIDDEN = ("\x1b[31m", "\x1b]0;pwned\x07", "\x07", "\x00", "\u202e", "\u200b", "\u2066", "\ufeff")
CONTROLS = "\x1b\x07\x00\u202e\u200b\u2066\ufeff"


def session() -> list[TranscriptEvent]:
    return [
        user("Split the parser into parts."),
        bash("bun test", output="12 pass"),
        *(answer(f"File src/part{n}.ts holds part {n}.") for n in range(8)),
    ]


def facts(count: int, start: int = 0) -> list[dict[str, str]]:
    return [
        lesson("fact", f"File src/part{n % 8}.ts holds part {n % 8}.", f"src/part{n % 8}.ts")
        for n in range(start, start + count)
    ]


def test_no_control_or_bidirectional_character_reaches_the_notes(
    home: Home, workspace: Workspace
) -> None:
    planted = "".join(HIDDEN)
    model = LocalModel(
        [record(lesson("fact", f"File src/part1.ts{planted} holds part 1.", "src/part1.ts"))]
    )
    result = run_writer(home, workspace, session(), model)
    assert result.outcome == "wrote"
    written = notes(home, workspace)
    assert written.endswith("## Findings\n\n- File src/part1.ts holds part 1.\n")
    assert not any(char in written for char in CONTROLS) and "pwned" not in written


def test_the_digest_sends_no_escape_sequence_from_an_agents_answer() -> None:
    events = [
        user(f"Run the suite{HIDDEN[3]} please."),
        answer(f"{HIDDEN[0]}All 12 tests pass{HIDDEN[1]}; the runner is src/run.ts.{HIDDEN[4]}"),
    ]
    text = digest_of(events).text
    assert '- "All 12 tests pass; the runner is src/run.ts."' in text
    assert not any(char in text for char in "\x1b\x07\x00\u202e")


def test_two_calls_of_five_keep_five_lessons_in_all(home: Home, workspace: Workspace) -> None:
    """The limit holds over every call of the run, not one call at a time."""
    calls = tuple(
        ToolCall(f"c{index}", "record_lessons", {"lessons": facts(5, start=index * 5)})
        for index in range(2)
    )
    model = LocalModel([ModelReply("", calls, "tool_use")])
    result = run_writer(home, workspace, session(), model, whole=lessons_alone())
    bullets = [line for line in notes(home, workspace).splitlines() if line.startswith("- ")]
    assert len(bullets) == MOST_LESSONS
    assert [why for _, why in result.refused] == [TOO_MANY]
    assert result.refused[0][0].endswith("(and 4 more)")


def test_forty_thousand_lessons_in_one_call_are_refused_as_one(
    home: Home, workspace: Workspace
) -> None:
    """Round 7: 40,000 lessons in one native call were refused one by one, each looked up in
    the list of those refused before it (69–87 s against the run's 20 s). Past the limit they
    are named together, so the run's result, its dump and `--json` stay small."""
    model = LocalModel([record(*facts(40_000))])
    result = run_writer(home, workspace, session(), model)
    assert result.outcome == "wrote"
    assert len(result.refused) == 1
    assert result.refused[0] == ("fact: File src/part5.ts holds part 5. (and 39994 more)", TOO_MANY)
    assert len(notes(home, workspace).splitlines()) < 20
    assert len(json.dumps(result.to_json())) < 20_000


@pytest.mark.parametrize("count", [MOST_LESSONS, MOST_LESSONS + 1])
def test_the_limit_counts_lessons_not_calls(home: Home, workspace: Workspace, count: int) -> None:
    model = LocalModel([record(*facts(count))])
    result = run_writer(home, workspace, session(), model)
    assert len([why for _, why in result.refused if why == TOO_MANY]) == count - MOST_LESSONS
