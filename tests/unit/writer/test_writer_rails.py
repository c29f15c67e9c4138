"""The writer's rails between a model and the notes file (issue 82): a refused line is left
out and named — in the model's answer, the run's result and summary, the dump — never
silently dropped; what the rails keep is written; a write that changes nothing is no
write."""

from __future__ import annotations

import json

import pytest

from memtab.llm.types import ModelReply, ToolCall, ToolResultsMessage
from memtab.llm.written.calls import calls_in_text
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.trust.rails import PUTS_WORDS_IN_THE_USERS_MOUTH, RESTATES_INSTRUCTIONS, SAYS_NOTHING
from memtab.writer.config import WriterSettings
from memtab.writer.job.rails import (
    COPIES_DOCUMENT,
    COPIES_OUTPUT,
    IS_DATA,
    NEVER_RAN,
    UNSTATED_RULE,
)
from memtab.writer.job.run import load_writer_events, run_writer
from memtab.writer.prompts import tool_specs
from support.recorded_replies import Replay, fixture_transcript, recorded
from support.scripted_provider import ScriptedProvider

from .events import answer, bash, calls, tool, user

TODOWRITE = "daaain-claude-code-log__test__test_data__todowrite_examples.jsonl"
TOOLS = tool_specs()
CODEX_LOCALPUSH = (
    "madshn-localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__"
    "rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl"
)
MUX_REPLAY = "coder-mux__src__node__services__replay__fixtures__replay-session__chat.jsonl"
NOTES = "/memories/workspace/notes.md"


def session() -> list[TranscriptEvent]:
    """The user asks once to run the suite, and states one standing rule."""
    return [
        user("Always use bun, never npm. Run the suite now."),
        bash("bun test", output="12 pass"),
        answer("The suite passes."),
    ]


def write(new: str, old: str = "") -> ModelReply:
    return ModelReply("", (ToolCall("w", "memory_write", {"old_string": old, "new_string": new}),))


def notes(home: Home, workspace: Workspace) -> str:
    return MemoryStore(home, workspace).read(parse_file_path(NOTES)).content


def test_refused_lines_are_left_out_and_named_everywhere_the_rest_is_written(
    home: Home, workspace: Workspace
) -> None:
    draft = (
        "## Directives\n- Always use bun, never npm\n- Always run the suite before committing\n"
        "## Preferences\n- The user prefers small commits\n"
        "## Commands that work\n- `bun test` runs the suite\n- `bun run lint`\n"
        "## Notes\n- Each note must stand on its own: name the file, command, API or setting\n"
    )
    model = ScriptedProvider([write(draft)])
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, session(), model, settings=settings)
    assert result.outcome == "wrote"
    assert notes(home, workspace) == (
        "## Directives\n- Always use bun, never npm\n"
        "## Commands that work\n- `bun test` runs the suite\n"
    )
    assert result.refused == (
        ("- Always run the suite before committing", UNSTATED_RULE),
        ("- The user prefers small commits", PUTS_WORDS_IN_THE_USERS_MOUTH),
        ("- `bun run lint`", NEVER_RAN),
        (
            "- Each note must stand on its own: name the file, command, API or setting",
            RESTATES_INSTRUCTIONS,
        ),
    )
    assert result.summary().endswith(
        f"; 4 lines refused: “- Always run the suite before committing” ({UNSTATED_RULE})"
    )
    assert json.loads(json.dumps(result.to_json()))["refused"][0] == {
        "line": "- Always run the suite before committing",
        "why": UNSTATED_RULE,
    }
    assert result.trace_path is not None
    dump = json.loads(result.trace_path.read_text(encoding="utf-8"))
    assert [entry["why"] for entry in dump["refused"]] == [why for _, why in result.refused]
    assert model.calls == 1  # the run stopped at the write: the policy was met


def test_a_refused_private_key_is_named_hidden_though_no_line_of_it_is_a_secret_alone(
    home: Home, workspace: Workspace
) -> None:
    key = "Private-Lines: 1\nAAAAIGxvbmdzZWNyZXRrZXltYXRlcmlhbA=="
    draft = f"## Notes\n- `bun test` runs the suite\n{key}\nPrivate-MAC: 0123abcd\n"
    result = run_writer(home, workspace, session(), ScriptedProvider([write(draft)]))

    named = "\n".join(line for line, _ in result.refused)
    assert result.refused and "AAAAIGxvbmdz" not in named and "Private-Lines" not in named
    assert "AAAAIGxvbmdz" not in notes(home, workspace)


def test_the_model_is_told_what_was_refused_and_a_replaced_line_stays(
    home: Home, workspace: Workspace
) -> None:
    MemoryStore(home, workspace).create_file(parse_file_path(NOTES), "# Notes\n- Use bun\n")
    old = "# Notes\n- Use bun\n"
    nothing_new = ModelReply("", (ToolCall("n", "no_new_memories", {}),))
    model = ScriptedProvider(
        [write("# Notes\n- Always run the suite with bun\n", old), nothing_new]
    )
    result = run_writer(home, workspace, session(), model)
    assert notes(home, workspace) == old  # not lost to a refused line
    assert result.outcome == "no_new_memories" and model.calls == 2
    assert result.refused == (("- Always run the suite with bun", UNSTATED_RULE),)
    assert result.summary().startswith("No new memories; 1 line refused:")
    tool_results = model.messages[1][-1]
    assert isinstance(tool_results, ToolResultsMessage)
    answer = json.loads(tool_results.results[0].content)
    assert answer["refused"] == [{"line": "- Always run the suite with bun", "why": UNSTATED_RULE}]
    assert answer["note"].startswith("Nothing was written: every line this write added")


def test_a_write_that_changes_nothing_is_no_write(home: Home, workspace: Workspace) -> None:
    # Qwen2.5-Coder 1.5B on mux's replay session and on a Codex rollout (issue 82).
    model = ScriptedProvider([write("")])
    result = run_writer(home, workspace, session(), model)
    assert result.outcome == "no_new_memories"
    assert result.summary() == "No new memories"
    assert not MemoryStore(home, workspace).physical(parse_file_path(NOTES)).exists()


def test_a_copy_of_a_file_the_agent_wrote_or_of_a_tools_output_is_refused(
    home: Home, workspace: Workspace
) -> None:
    # Qwen2.5-Coder 1.5B copied the CLAUDE.md an /init session wrote; 0.5B, a tool's output.
    document = (
        "# CLAUDE.md\n\n## Notes\n\n- This CLAUDE.md file should be updated as the project grows\n"
    )
    events = [
        user("Set up the repository notes."),
        calls(tool("Write", {"file_path": "/repo/CLAUDE.md", "content": document})),
        bash("git commit -m 'notes'", output="[main abc1234] notes\n 1 file changed"),
        answer("Done."),
    ]
    draft = (
        "## Notes\n- This CLAUDE.md file should be updated as the project grows\n- 1 file changed\n"
    )
    result = run_writer(home, workspace, events, ScriptedProvider([write(draft), write("")]))
    assert result.refused == (  # the heading they leave empty goes with them
        ("- This CLAUDE.md file should be updated as the project grows", COPIES_DOCUMENT),
        ("- 1 file changed", COPIES_OUTPUT),
    )
    assert result.outcome == "no_new_memories"


def test_a_tools_json_answer_written_as_the_notes_is_refused(
    home: Home, workspace: Workspace
) -> None:
    # What Qwen2.5-Coder 1.5B wrote on the TodoWrite session: memory_read's answer, its
    # "content" invented in the user's first person, as the whole notes file (issue 82).
    replies = recorded("writer/qwen2.5-coder-1.5b-run4.json")[TODOWRITE]
    [blob] = [call.arguments["new_string"] for call in calls_in_text(replies[-1], TOOLS, "r")]
    assert blob.startswith('{"exists": true, "content": "## Directives\\nI always prefer')
    events = load_writer_events(fixture_transcript(TODOWRITE))
    result = run_writer(home, workspace, events, Replay(list(replies)))
    assert result.refused == ((blob, IS_DATA),)
    assert result.outcome == "no_new_memories"
    assert not MemoryStore(home, workspace).physical(parse_file_path(NOTES)).exists()


@pytest.mark.parametrize(
    ("transcript", "line"),
    [
        (CODEX_LOCALPUSH, "[REDACTED_NEW_FILE_SHA]"),
        (MUX_REPLAY, "src/fixture-project/src/main.ts"),
    ],
)
def test_a_path_or_placeholder_alone_is_no_note(
    home: Home, workspace: Workspace, transcript: str, line: str
) -> None:
    # What Qwen2.5-Coder 0.5B wrote as the whole notes file of these sessions (issue 82).
    replies = recorded("writer/qwen2.5-coder-0.5b-run3.json")[transcript]
    events = load_writer_events(fixture_transcript(transcript))
    result = run_writer(home, workspace, events, Replay(list(replies)))
    assert result.refused == ((line, SAYS_NOTHING),)
    assert result.outcome == "no_new_memories"
    assert not MemoryStore(home, workspace).physical(parse_file_path(NOTES)).exists()


def test_a_heading_whose_sub_headings_all_go_goes_too(home: Home, workspace: Workspace) -> None:
    # Qwen2.5-Coder 1.5B on the edge-cases session: every line refused but `# Directives`.
    draft = (
        "# Directives\n- always test your code before running it\n\n"
        "## Commands that work\n- `multi-edit /tmp/complex_example.py`\n\n"
        "## Fixes\n- Failed to execute the `FailingTool`: Command not found\n"
    )
    nothing_new = ModelReply("", (ToolCall("n", "no_new_memories", {}),))
    result = run_writer(home, workspace, session(), ScriptedProvider([write(draft), nothing_new]))
    assert result.outcome == "no_new_memories"
    assert not MemoryStore(home, workspace).physical(parse_file_path(NOTES)).exists()
    assert [line for line, _ in result.refused] == [
        "- always test your code before running it",
        "- `multi-edit /tmp/complex_example.py`",
        "- Failed to execute the `FailingTool`: Command not found",
    ]
