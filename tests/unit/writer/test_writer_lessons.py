"""The lessons task (issue 82): a model asked by JSON schema — a small model on this
machine — is shown a digest of the transcript and answers with lessons, each quoting its
evidence; code checks each and writes the kept ones into the notes file itself."""

from __future__ import annotations

import json

import pytest

from memtab.llm.types import ModelReply, ToolCall, UserMessage
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore, NotFoundError
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.trust.rails import HOLDS_A_SECRET, IN_THE_FIRST_PERSON
from memtab.writer.config import WriterSettings
from memtab.writer.job.run import run_writer
from memtab.writer.lessons.digest import ANSWER_CHARS, digest_of
from memtab.writer.lessons.judge import (
    HOLDS_A_REDACTION,
    NAMES_NOTHING,
    NO_ERROR,
    NO_EVIDENCE,
    NO_WORKING_COMMAND,
    NOT_ALONE,
    NOT_THE_USERS,
    ONE_OFF,
    SAYS_MORE,
    TOO_MANY,
    UNRUN_COMMAND,
    Lesson,
    lesson_note,
    why_refused,
)
from memtab.writer.offline.notes import COMMANDS, Note
from memtab.writer.prompts import lessons_prompt
from support.scripted_provider import ScriptedProvider

from .events import answer, bash, calls, shell, user
from .local_model import NOTES, LocalModel, lesson, lessons_alone, notes, record


def session() -> list[TranscriptEvent]:
    return [
        user("Always use bun, never npm. <private>the key is hunter2</private> Run the suite now."),
        bash("ls -la src"),
        bash("bun run lint", ok=False, output="error: Unknown rule 'no-foo' in .eslintrc"),
        calls(shell("bun install"), shell("bun run lint", output="0 problems")),
        bash("bun test", output="12 pass"),
        answer("The suite passes. The entry point is src/main.ts; the preload is src/preload.ts."),
    ]


def test_the_digest_holds_the_users_words_the_commands_and_how_each_ended() -> None:
    digest = digest_of(session())
    assert digest.said == ("Always use bun, never npm. Run the suite now.",)
    assert digest.rules == ("Always use bun, never npm.",)
    assert digest.worked == ("bun install", "bun run lint", "bun test")
    assert (
        digest.failed[0]
        == "`bun run lint`: failed with `error: Unknown rule 'no-foo' in .eslintrc`"
    )
    assert "ls -la" not in digest.text  # looking around is no lesson
    assert "hunter2" not in digest.text and "private" not in digest.text
    assert '- "The suite passes. The entry point is src/main.ts;' in digest.text
    assert digest.text.startswith('What the user wrote (oldest first):\n- "Always use bun')


def test_a_digest_past_its_size_drops_the_oldest_of_its_longest_list() -> None:
    events = [answer(f"Answer number {n} says src/file{n}.ts holds part {n}.") for n in range(8)]
    whole = digest_of(events)
    cut = digest_of(events, len(whole.text) - 10)
    assert len(cut.text) <= len(whole.text) - 10
    assert cut.answers == whole.answers[1:]


@pytest.mark.parametrize(
    ("kind", "text", "evidence", "why"),
    [
        ("command", "`bun test` runs the test suite.", "`bun test`: worked", None),
        ("fact", "The entry point is src/main.ts.", "The entry point is src/main.ts", None),
        ("preference", "Use bun, never npm.", "Always use bun, never npm.", None),
        ("pitfall", "`bun run lint` failing on no-foo is fixed by `bun install`.",
         "Unknown rule 'no-foo'", None),
        ("fact", "The entry point is src/app.ts.", "The entry point is src/app.ts",
         f"{SAYS_MORE}: src/app.ts"),
        ("fact", "The preload script is src/preload.ts.", "`bun test`: worked", None),
        ("command", "`npm test` runs the tests.", "`bun test`: worked", UNRUN_COMMAND),
        ("command", "Run the tests before pushing.", "`bun test`: worked", NO_WORKING_COMMAND),
        ("preference", "Run the suite before each commit.", "Run the suite now.", ONE_OFF),
        ("preference", "The entry point is src/main.ts.", "The entry point is src/main.ts",
         NOT_THE_USERS),
        ("pitfall", "`bun test` passes with 12 tests.", "`bun test`: worked", NO_ERROR),
        ("fact", "The suite passes.", "The suite passes.", NAMES_NOTHING),
        ("fact", "That is src/preload.ts.", "the preload is src/preload.ts", NOT_ALONE),
        ("fact", "The key is [REDACTED_SECRET] in src/main.ts.", "src/main.ts", HOLDS_A_REDACTION),
    ],
)  # fmt: skip
def test_each_lesson_is_checked_against_the_digest(
    kind: str, text: str, evidence: str, why: str | None
) -> None:
    assert why_refused(Lesson(kind, text, evidence), digest_of(session())) == why


def test_a_local_model_is_given_the_digest_and_its_kept_lessons_are_written(
    home: Home, workspace: Workspace
) -> None:
    model = LocalModel(
        [
            record(
                lesson("command", "Run the tests with bun test.", "`bun test`: worked"),
                lesson("fact", "The entry point is src/main.ts.", "The entry point is src/main.ts"),
                lesson("preference", "Always run the suite.", "Run the suite now."),
                lesson("fact", "The project is a Flask app in app.py.", "a Flask app in app.py"),
                lesson("preference", "Use bun, never npm.", "Always use bun, never npm."),
            )
        ]
    )
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, session(), model, settings=settings, whole=lessons_alone())
    assert result.outcome == "wrote"
    assert notes(home, workspace).split("# Workspace notes\n", 1)[1] == (
        "\n## Directives\n\n- Always use bun, never npm.\n"
        "\n## Commands that work\n\n- Run the tests with `bun test`.\n"
        "\n## Findings\n\n- The entry point is src/main.ts.\n"
    )
    assert result.refused == (
        ("preference: Always run the suite.", ONE_OFF),
        ("fact: The project is a Flask app in app.py.", NO_EVIDENCE),
    )
    assert model.calls == 1  # one call ends the run
    assert model.tools == [["record_lessons", "no_new_memories"]]
    assert model.systems == [lessons_prompt()]
    first = model.messages[0][0]
    assert isinstance(first, UserMessage)
    sent = first.text
    assert "<digest>\nWhat the user wrote" in sent and "toolCallId" not in sent
    assert "hunter2" not in sent
    assert result.trace_path is not None
    dump = json.loads(result.trace_path.read_text(encoding="utf-8"))
    assert dump["userMessage"] == sent
    assert [entry["why"] for entry in dump["refused"]] == [ONE_OFF, NO_EVIDENCE]


def test_a_lesson_the_file_already_says_is_not_written_twice(
    home: Home, workspace: Workspace
) -> None:
    MemoryStore(home, workspace).save(
        parse_file_path(NOTES),
        "# Notes\n\n## Findings\n\n- The entry point is src/main.ts.\n",
        None,
    )
    model = LocalModel(
        [
            record(
                lesson("fact", "The entry point is src/main.ts.", "The entry point is src/main.ts"),
                lesson("fact", "The preload is src/preload.ts.", "the preload is src/preload.ts"),
            )
        ]
    )
    result = run_writer(home, workspace, session(), model, whole=lessons_alone())
    assert result.outcome == "wrote"
    assert notes(home, workspace) == (
        "# Notes\n\n## Findings\n\n- The entry point is src/main.ts.\n"
        "- The preload is src/preload.ts.\n"
    )


def test_lessons_all_refused_end_the_run_with_nothing_written_each_named(
    home: Home, workspace: Workspace
) -> None:
    many = [lesson("fact", f"File src/f{n}.ts holds {n}.", f"src/f{n}.ts") for n in range(6)]
    model = LocalModel([record(*many)])
    result = run_writer(home, workspace, session(), model, whole=lessons_alone())
    assert (result.outcome, result.after) == ("no_new_memories", "")
    assert [why for _, why in result.refused] == [NO_EVIDENCE] * 5 + [TOO_MANY]
    assert model.calls == 1


def test_a_lesson_holding_a_secret_passes_the_writers_rails_still(
    home: Home, workspace: Workspace
) -> None:
    """The model saw no secret, but may write one: the rails refuse it as they do a write."""
    secret = "sk-ant-api03-aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ"
    events = [*session(), answer(f"The API key in src/config.ts is {secret}.")]
    model = LocalModel(
        [
            record(
                lesson("fact", f"The API key in src/config.ts is {secret}.", "src/config.ts is"),
                lesson("no such kind", "x", "y"),
            )
        ]
    )
    result = run_writer(home, workspace, events, model, whole=lessons_alone())
    assert result.outcome == "no_new_memories"
    assert secret not in json.dumps(result.to_json())
    assert result.refused[0][1] == HOLDS_A_SECRET


def test_a_model_not_asked_by_schema_edits_the_file_with_the_memory_tools(
    home: Home, workspace: Workspace
) -> None:
    model = ScriptedProvider([ModelReply("", (ToolCall("n", "no_new_memories", {}),))])
    result = run_writer(home, workspace, session(), model)
    assert result.outcome == "no_new_memories"
    first = model.messages[0][0]
    assert isinstance(first, UserMessage) and "<transcript-events>" in first.text
    assert model.systems[0] != lessons_prompt()


def test_a_lesson_the_writers_rails_refuse_leaves_no_file_behind(
    home: Home, workspace: Workspace
) -> None:
    events = [*session(), answer("I moved the entry point to src/main.ts.")]
    model = LocalModel(
        [record(lesson("fact", "I moved the entry point to src/main.ts.", "I moved the entry"))]
    )
    result = run_writer(home, workspace, events, model, whole=lessons_alone())
    assert (result.outcome, result.after) == ("no_new_memories", "")
    assert result.refused == (("- I moved the entry point to src/main.ts.", IN_THE_FIRST_PERSON),)
    with pytest.raises(NotFoundError):
        notes(home, workspace)


def test_a_lesson_worded_as_the_prompts_example_is_no_copy_of_the_instructions(
    home: Home, workspace: Workspace
) -> None:
    """The example's "`mix test` runs the test suite." is no instruction: a note of the same
    shape on the session's own command is the note wanted."""
    model = LocalModel(
        [record(lesson("command", "`bun test` runs the test suite.", "`bun test`: worked"))]
    )
    result = run_writer(home, workspace, session(), model, whole=lessons_alone())
    assert (result.outcome, result.refused) == ("wrote", ())
    assert notes(home, workspace).endswith(
        "## Commands that work\n\n- `bun test` runs the test suite.\n"
    )


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("Run the tests with bun test.", "Run the tests with `bun test`."),
        ("`bun test`: worked", "`bun test` (tests)"),  # a copy of its digest line
        ("bun install works.", "`bun install` (install)"),
    ],
)
def test_a_command_lesson_is_written_with_its_command_as_code(text: str, note: str) -> None:
    digest = digest_of(session())
    assert lesson_note(Lesson("command", text, "worked"), digest) == Note(COMMANDS, note)


def test_a_command_that_worked_is_evidence_enough_for_its_lesson() -> None:
    """The 1.5B quoted the agent's "Running the suite now." for "Run `bun test` to execute
    tests.": the command's having worked says it."""
    kept = Lesson("command", "Run `bun test` to execute tests.", "Running the suite now.")
    events = [*session(), answer("Running the suite now.")]
    assert why_refused(kept, digest_of(events)) is None


def test_a_lesson_naming_the_file_its_evidence_names_is_about_it() -> None:
    """In the window, the 1.5B quoted "That is src/preload.ts." (the answer to "And the
    preload script?") for "The preload script lives in src/preload.ts."."""
    events = [user("And the preload script?"), answer("That is src/preload.ts.")]
    kept = Lesson("fact", "The preload script lives in src/preload.ts.", "That is src/preload.ts.")
    assert why_refused(kept, digest_of(events)) is None
    other = Lesson("fact", "The preload script lives in src/preload.ts.", "the preload script")
    assert why_refused(other, digest_of(events)) is None  # its words, the user's
    off = Lesson("fact", "Deploys go through the staging cluster in k8s/prod.yaml.", "That is")
    assert why_refused(off, digest_of(events)) == NO_EVIDENCE


def test_an_answer_too_long_is_shown_to_its_last_whole_sentence() -> None:
    told = "The map tiles come from HarbourMap on port 5180. " * 5
    cut = "When the token is missing the map falls back to the static tiles bundled with it."
    digest = digest_of([user("Why is the map blank?"), answer(told + cut)])

    shown = next(line for line in digest.text.splitlines() if "HarbourMap" in line)
    assert len(told) < ANSWER_CHARS < len(told + cut)
    assert shown.endswith('on port 5180. …"') and "falls back" not in shown
