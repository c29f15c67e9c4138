"""The offline writer on real transcripts: it suggests by default, remembers what is worth it,
says it once, and works from the events it is given, never from its own prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.demo import demo_transcript
from memtab.llm.types import (
    AssistantMessage,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    UserMessage,
)
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.window import NewestEvents
from memtab.writer.config import DEFAULT_MEMORY_PATH, OfflineNotes, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.run import load_writer_events, run_writer
from memtab.writer.offline.notes import MAX_NOTES_PER_RUN
from memtab.writer.prompts import build_user_message, tool_specs
from memtab.writer.tools import MEMORY_READ, MEMORY_WRITE, NO_NEW_MEMORIES
from support.memory_paths import vpath

from .events import answer, bash, user

MUX_REPRO = "mux/coder-mux__tests__testdata__openai-reasoning-error-repro.jsonl"
MUX_REPLAY = "mux/coder-mux__src__node__services__replay__fixtures__replay-session__chat.jsonl"
CLAUDE_INIT = (
    "claude-code/d-kimuson-claude-code-viewer__mock-global-claude-dir__projects__sample-project__"
    "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
)
CLAUDE_EDGE = "claude-code/daaain-claude-code-log__test__test_data__edge_cases.jsonl"
CLAUDE_MEM = "claude-code/thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl"
WRITE = WriterSettings(offline_notes=OfflineNotes.WRITE)

# Per fixture with something worth remembering: the lines the memory file must hold.
EXPECTED_LINES: dict[str, list[str]] = {
    MUX_REPRO: [
        "## Commands that work",
        "- `bun run docs:build` (build)",
        "- `bun install` (install)",
    ],
    CLAUDE_MEM: ["- `bun test` (tests)"],
}
NOTHING_TO_REMEMBER = [
    MUX_REPLAY,
    CLAUDE_INIT,  # an empty repo; the only failure is a refused permission
    CLAUDE_EDGE,  # a test tool failing on purpose
    "claude-code/daaain-claude-code-log__test__test_data__representative_messages.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__dag_compact_after_rewind.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__session_b.jsonl",
    "claude-code/daaain-claude-code-log__test__test_data__todowrite_examples.jsonl",
    "claude-code/simonw-claude-code-transcripts__tests__sample_session.jsonl",
    "claude-code/ryoppippi-ccusage__apps__ccusage__test__fixtures__claude__projects__project-alpha"
    "__session-alpha__chat.jsonl",
    "codex/daaain-claude-code-log__test__test_data__codex__sessions__2026__01__02__rollout-"
    "2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
    "codex/madshn-localpush__src-tauri__tests__fixtures__codex__2026-02-23__raw__sessions__rollout-"
    "2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
]


def write_once(
    home: Home, workspace: Workspace, transcript: Path, settings: WriterSettings = WRITE
) -> WriterRunResult:
    events = load_writer_events(transcript)
    provider = bind_to_run(OfflineWriterProvider(), home, workspace, events.budget, settings)
    return run_writer(home, workspace, events, provider, settings=settings)


def memory(home: Home, workspace: Workspace) -> str:
    return MemoryStore(home, workspace).read(vpath(DEFAULT_MEMORY_PATH)).content


@pytest.mark.parametrize("fixture", sorted(EXPECTED_LINES))
def test_fixture_transcripts_give_sensible_notes_once(
    fixtures_dir: Path, home: Home, workspace: Workspace, fixture: str
) -> None:
    first = write_once(home, workspace, fixtures_dir / fixture)
    assert first.outcome == "wrote", first.error
    text = memory(home, workspace)
    lines = text.splitlines()
    for expected in EXPECTED_LINES[fixture]:
        assert expected in lines, f"missing {expected!r} in:\n{text}"
    assert text.startswith("---\ndescription: ")
    second = write_once(home, workspace, fixtures_dir / fixture)
    assert second.outcome == "no_new_memories"
    assert memory(home, workspace) == text


@pytest.mark.parametrize("fixture", NOTHING_TO_REMEMBER)
def test_fixtures_with_nothing_durable_give_no_new_memories(
    fixtures_dir: Path, home: Home, workspace: Workspace, fixture: str
) -> None:
    result = write_once(home, workspace, fixtures_dir / fixture)
    assert result.outcome == "no_new_memories"
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()


def test_a_cut_command_or_a_failed_ci_wait_is_never_written(
    fixtures_dir: Path, home: Home, workspace: Workspace
) -> None:
    write_once(home, workspace, fixtures_dir / MUX_REPRO)
    text = memory(home, workspace)
    assert "gh pr view" not in text and "…" not in text
    assert "Known failures" not in text  # an unfixed failure is not a lesson


def test_private_text_and_secrets_of_the_user_never_reach_memory(
    fixtures_dir: Path, home: Home, workspace: Workspace
) -> None:
    write_once(home, workspace, fixtures_dir / CLAUDE_MEM)
    text = memory(home, workspace)
    assert "sk-test-12345" not in text and "hunter2" not in text
    assert "MARKER" not in text  # no sidechain, reminder, caveat or compact-summary text


def test_the_demo_session_gives_directives_commands_and_the_fix(
    tmp_path: Path, home: Home, workspace: Workspace
) -> None:
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text("".join(json.dumps(m) + "\n" for m in demo_transcript(1_700_000_000_000)))
    assert write_once(home, workspace, transcript).outcome == "wrote"
    lines = memory(home, workspace).splitlines()
    assert "- Always run `make check` before you push anything." in lines
    assert "- The staging database is read-only for us." in lines
    assert "- `make check`" in lines and "- `make db-up`" in lines
    # a run of the tests picked by name (-k) is that moment's check, not a command to keep
    assert "- `pytest tests/integration -k refresh -q` (tests)" not in lines
    assert (
        "- `pytest tests/integration -k refresh -q` failed: `sqlalchemy.exc.OperationalError: "
        'connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection '
        "refused` — fixed by `make db-up`."
    ) in lines
    assert write_once(home, workspace, transcript).outcome == "no_new_memories"


def claude_line(kind: str, uuid: str, content: list[dict[str, Any]], **extra: Any) -> str:
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message |= {"id": f"msg-{uuid}", "stop_reason": extra.pop("stop", "tool_use")}
    record = {"type": kind, "uuid": uuid, "sessionId": "s1", "cwd": "/src/acme"}
    return json.dumps({**record, "message": message, **extra}) + "\n"


def test_a_claude_tool_error_and_what_fixed_it(
    tmp_path: Path, home: Home, workspace: Workspace
) -> None:
    def bash_use(call_id: str, command: str) -> dict[str, Any]:
        return {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}

    def result(call_id: str, text: str, *, error: bool = False) -> dict[str, Any]:
        return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}

    transcript = tmp_path / "session.jsonl"
    transcript.write_text(
        claude_line("user", "u1", [{"type": "text", "text": "Run the tests. I prefer npm ci."}])
        + claude_line("assistant", "a1", [bash_use("t1", "npm test")])
        + claude_line(
            "user",
            "r1",
            [result("t1", "Exit code 1\nError: Cannot find module 'vitest'", error=True)],
        )
        + claude_line("assistant", "a2", [bash_use("t2", "npm ci")])
        + claude_line("user", "r2", [result("t2", "added 312 packages")])
        + claude_line("assistant", "a3", [bash_use("t3", "npm test")])
        + claude_line("user", "r3", [result("t3", "Tests 41 passed")])
        + claude_line("assistant", "a4", [{"type": "text", "text": "Green."}], stop="end_turn")
    )
    assert write_once(home, workspace, transcript).outcome == "wrote"
    lines = memory(home, workspace).splitlines()
    assert "- I prefer npm ci." in lines
    assert "- `npm test` failed: `Error: Cannot find module 'vitest'` — fixed by `npm ci`." in lines
    assert "- `npm ci` (install)" in lines and "- `npm test` (tests)" in lines


# --- suggestions (the default) --------------------------------------------------------------


def chat(home: Home, workspace: Workspace, tmp_path: Path, text: str) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_text(
        claude_line("user", "u1", [{"type": "text", "text": text}])
        + claude_line("assistant", "a1", [{"type": "text", "text": "Ok."}], stop="end_turn")
    )
    return path


def test_with_no_model_the_writer_suggests_instead_of_writing(
    tmp_path: Path, home: Home, workspace: Workspace
) -> None:
    transcript = chat(home, workspace, tmp_path, "Utilise toujours pnpm, jamais npm.")
    settings = WriterSettings()
    first = write_once(home, workspace, transcript, settings)
    assert first.outcome == "suggested" and first.ok and first.suggested_count == 1
    assert first.summary() == "Suggested 1 memory for review"
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()
    queue = SuggestionQueue(home, workspace.id)
    [suggestion] = queue.pending()
    assert (suggestion.section, suggestion.text) == (
        "Directives",
        "Utilise toujours pnpm, jamais npm.",
    )
    assert suggestion.memory_path == DEFAULT_MEMORY_PATH
    # Suggested once: the next run over the same transcript adds nothing.
    again = write_once(home, workspace, transcript, settings)
    assert again.outcome == "no_new_memories" and again.suggested_count == 0
    assert queue.pending() == [suggestion]
    # Dismissed: never suggested again.
    queue.dismiss([suggestion.id])
    write_once(home, workspace, transcript, settings)
    assert queue.pending() == []


def test_the_run_says_what_it_suggested(home: Home, workspace: Workspace) -> None:
    events = NewestEvents.of([user("항상 pnpm을 사용하세요."), bash("pnpm test")], redact=True)
    provider = bind_to_run(
        OfflineWriterProvider(), home, workspace, events.budget, WriterSettings()
    )
    assert isinstance(provider, OfflineWriterProvider)
    result = run_writer(home, workspace, events, provider, settings=WriterSettings())
    assert result.outcome == "suggested" and result.suggested_count == 2
    assert result.to_json()["outcome"] == "suggested"
    assert [s.text for s in provider.proposed] == ["항상 pnpm을 사용하세요.", "`pnpm test` (tests)"]


def test_a_run_suggests_what_a_person_reviews_keeping_the_surest(
    home: Home, workspace: Workspace
) -> None:
    # A long session: the user's rule, then thirty project commands that worked.
    commands = [bash(f"make target-{n}") for n in range(30)]
    events = NewestEvents.of([user("Always use pnpm, never npm."), *commands], redact=True)
    provider = bind_to_run(
        OfflineWriterProvider(), home, workspace, events.budget, WriterSettings()
    )
    assert isinstance(provider, OfflineWriterProvider)
    result = run_writer(home, workspace, events, provider, settings=WriterSettings())
    assert result.suggested_count == MAX_NOTES_PER_RUN == 20
    assert result.left_out_count == 11 and result.to_json()["leftOut"] == 11
    assert result.summary() == "Suggested 20 memories for review (11 less sure left out)"
    texts = [s.text for s in provider.proposed]
    assert texts[0] == "Always use pnpm, never npm."  # the user's own words are surest
    assert texts[1:] == [f"`make target-{n}`" for n in range(19)]  # the first found


def test_the_offline_writer_sees_the_runs_own_budget_not_the_default(
    home: Home, workspace: Workspace
) -> None:
    # Over 80,000 chars (the default budget) of events after the user's directive.
    filler = [answer(f"Step {n}: " + "checked the logs again. " * 100) for n in range(60)]
    events = [user("Always use pnpm, never npm."), *filler]
    run_budget = 400_000
    newest = NewestEvents.of(events, run_budget, redact=True)
    assert newest.budget.trimmed_count == len(events) and newest.budget.json_chars > 80_000
    provider = bind_to_run(OfflineWriterProvider(), home, workspace, newest.budget, WRITE)
    assert isinstance(provider, OfflineWriterProvider)
    assert provider.events == tuple(events)  # the model is shown all of them: so is it
    run_writer(home, workspace, newest, provider, settings=WRITE, max_json_chars=run_budget)
    assert "Always use pnpm, never npm." in memory(home, workspace)


# --- structured input ----------------------------------------------------------------------


def turns(provider: OfflineWriterProvider, message: str) -> list[ToolCall]:
    """Drive the provider by hand: read (empty file), then whatever it decides."""
    specs = list(tool_specs())
    first = provider.complete("system", [UserMessage(message)], specs)
    [read] = first.tool_calls
    assert read.name == MEMORY_READ
    history = [
        UserMessage(message),
        AssistantMessage("", first.tool_calls),
        ToolResultsMessage((ToolOutcome(read.id, json.dumps({"exists": False, "content": ""})),)),
    ]
    return list(provider.complete("system", history, specs).tool_calls)


def test_the_offline_writer_uses_the_events_it_is_given_not_its_prompt() -> None:
    prompt_events = json.dumps([{"id": "x", "role": "user", "text": "Always use yarn."}])
    message = build_user_message(
        workspace="main",
        project="/src/acme",
        memory_path=DEFAULT_MEMORY_PATH,
        memory="",
        events_json=prompt_events,
        kept=1,
        total=1,
    )
    given = OfflineWriterProvider([user("Always use pnpm.")], memory_path=DEFAULT_MEMORY_PATH)
    [write] = turns(given, message)
    assert write.name == MEMORY_WRITE
    assert "Always use pnpm." in write.arguments["new_string"]
    assert "yarn" not in write.arguments["new_string"]
    # Given nothing, it finds nothing — whatever its prompt says.
    [nothing] = turns(OfflineWriterProvider(), message)
    assert nothing.name == NO_NEW_MEMORIES
