"""A writer run against real HTTP providers (the fake model server): the tool policy,
compare-and-swap writes, attempts, timeouts, trace dumps and redaction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import ProviderHttpClient
from memtab.llm.openai import OpenAIProvider
from memtab.redact import REDACTED
from memtab.store.history.runs import RunsLog, trace_path
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.traces.names import trace_file_name
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.reader import read_transcript
from memtab.trust.rails import HOLDS_A_SECRET
from memtab.writer.config import DEFAULT_MEMORY_PATH, WriterSettings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.run import run_writer
from memtab.writer.prompts import reminder_prompt, system_prompt
from memtab.writer.tools import STALE_NOT_FOUND
from support.fake_model_server import (
    FakeModelServer,
    RecordedRequest,
    ScriptedResponse,
    anthropic_message,
    json_response,
    tool_messages,
    tool_result_blocks,
)
from support.memory_paths import vpath

from .helpers import ANTHROPIC_KEY, PROJECT, bash_part, mux_message, write_chat

SK_SECRET = "sk-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
BEARER_SECRET = "abcdefghij0123456789XYZtoken"
DUMP_FIELDS = {
    "schemaVersion",
    "runStartedAt",
    "workspaceId",
    "workspaceName",
    "triggerMessageId",
    "modelString",
    "timeoutMs",
    "timedOut",
    "didWriteMemory",
    "satisfiedMemoryToolPolicy",
    "projectPath",
    "workspacePath",
    "memoryPath",
    "systemPrompt",
    "existingMemory",
    "eventsSummary",
    "events",
    "userMessage",
    "attempts",
}
ATTEMPT_FIELDS = {
    "attemptIndex",
    "messages",
    "stepResults",
    "toolExecutions",
    "finishReason",
    "wrote",
    "noNewMemories",
    "aborted",
}
EXECUTION_FIELDS = {"toolName", "toolCallId", "input", "startedAt", "durationMs"}
EXISTING = "---\ndescription: Notes\n---\n\n# Notes\n\n- Use uv, not pip.\n"


@pytest.fixture
def events(home: Home, workspace: Workspace) -> list[TranscriptEvent]:
    """A short session with secrets in the user's text and in a tool's output."""
    path = home.transcript_path(workspace.id)
    write_chat(
        path,
        [
            mux_message(
                "u1",
                "user",
                f"Deploy with key {SK_SECRET}. Always run `make check` before pushing.",
                sequence=0,
            ),
            mux_message(
                "a1",
                "assistant",
                "Checked.",
                sequence=1,
                tools=[
                    bash_part(
                        "c1",
                        "curl -H 'Authorization: Bearer " + BEARER_SECRET + "' api/health",
                        ok=True,
                        output=f"Authorization: Bearer {BEARER_SECRET} ok",
                    ),
                    bash_part("c2", "make check", ok=True, output="212 passed"),
                ],
            ),
        ],
    )
    return read_transcript(path, "mux").events


@pytest.fixture
def store(home: Home, workspace: Workspace) -> MemoryStore:
    store = MemoryStore(home, workspace)
    store.create_file(vpath(DEFAULT_MEMORY_PATH), EXISTING)
    return store


def memory(store: MemoryStore) -> str:
    return store.read(vpath(DEFAULT_MEMORY_PATH)).content


def dumps(home: Home, workspace: Workspace) -> list[Path]:
    directory = home.trace_dir(workspace.id)
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


def only_dump(home: Home, workspace: Workspace) -> dict[str, Any]:
    [path] = dumps(home, workspace)
    text = path.read_text(encoding="utf-8")
    assert SK_SECRET not in text and BEARER_SECRET not in text and ANTHROPIC_KEY not in text
    dump: dict[str, Any] = json.loads(text)
    assert dump.keys() >= DUMP_FIELDS
    for attempt in dump["attempts"]:
        assert attempt.keys() >= ATTEMPT_FIELDS
        for execution in attempt["toolExecutions"]:
            assert {
                "toolName",
                "toolCallId",
                "input",
                "startedAt",
                "durationMs",
            } <= execution.keys()
            assert ("output" in execution) != ("error" in execution)
    return dump


def test_a_compare_and_swap_write_updates_the_file_in_one_model_call(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_anthropic_reply(
        tool_calls=[
            (
                "memory_write",
                {
                    "old_string": "- Use uv, not pip.\n",
                    "new_string": "- Use uv, not pip.\n- Always run `make check` before pushing.\n",
                },
            )
        ]
    )
    result = run_writer(home, workspace, events, anthropic, known_secrets=[ANTHROPIC_KEY])

    assert result.outcome == "wrote" and result.ok and result.attempts == 1
    assert memory(store) == EXISTING + "- Always run `make check` before pushing.\n"
    assert result.diff_lines()[-1] == "+- Always run `make check` before pushing."
    assert result.trigger_message_id == "a1"
    # Satisfied: no second request for a closing message.
    assert len(fake_model_server.requests) == 1
    body = fake_model_server.requests[0].body
    assert body["system"] == system_prompt()
    assert [tool["name"] for tool in body["tools"]] == [
        "memory_read",
        "memory_write",
        "no_new_memories",
    ]
    sent = json.dumps(body)
    assert "Use uv, not pip." in sent  # the current memory is in the prompt
    assert SK_SECRET not in sent and BEARER_SECRET not in sent  # events are redacted
    assert "[REDACTED_SECRET]" in sent
    # Every run leaves its trace (issue 96), which its run in the log names.
    [dump] = dumps(home, workspace)
    [run] = RunsLog(home).runs(kind="writer")
    assert result.trace_path == dump and trace_path(home, run) == dump
    only_dump(home, workspace)  # with no key in it


def test_a_stale_compare_and_swap_is_recovered_by_read_and_retry(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    concurrent = EXISTING.replace("- Use uv, not pip.", "- Use uv (never pip).")

    def write_after_someone_else_did(request: RecordedRequest) -> ScriptedResponse:
        # mux rewrites the line our model is about to replace, after the model read it.
        current = store.read(vpath(DEFAULT_MEMORY_PATH))
        store.save(vpath(DEFAULT_MEMORY_PATH), concurrent, current.sha256)
        stale_write = {"old_string": "- Use uv, not pip.\n", "new_string": "- Use uv.\n"}
        body = anthropic_message(tool_calls=[("memory_write", stale_write)], message_id="m2")
        return json_response(body, wire="anthropic")

    fake_model_server.add_anthropic_reply(tool_calls=[("memory_read", {})])
    fake_model_server.add_callback(write_after_someone_else_did)
    fake_model_server.add_anthropic_reply(tool_calls=[("memory_read", {})])
    fake_model_server.add_anthropic_reply(
        tool_calls=[
            (
                "memory_write",
                {
                    "old_string": "- Use uv (never pip).\n",
                    "new_string": "- Use uv (never pip).\n- Run `make check` first.\n",
                },
            )
        ]
    )
    result = run_writer(home, workspace, events, anthropic)

    assert result.outcome == "wrote" and result.attempts == 1
    assert memory(store) == concurrent + "- Run `make check` first.\n"
    stale = tool_result_blocks(fake_model_server.requests[2].body)[-1]
    assert stale["is_error"] is True and stale["content"] == STALE_NOT_FOUND
    reread = tool_result_blocks(fake_model_server.requests[3].body)[-1]
    assert json.loads(reread["content"]) == {"exists": True, "content": concurrent}
    fake_model_server.assert_all_used()


def test_no_new_memories_leaves_the_file_alone(
    fake_model_server: FakeModelServer,
    openai: OpenAIProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_openai_reply(tool_calls=[("no_new_memories", {})])
    result = run_writer(home, workspace, events, openai)
    assert result.outcome == "no_new_memories" and result.ok
    assert memory(store) == EXISTING and result.after == EXISTING and result.diff_lines() == []
    assert dumps(home, workspace) == [result.trace_path]  # its trace, as every run's
    assert len(fake_model_server.requests) == 1


def test_an_attempt_without_a_memory_tool_gets_a_second_one_with_a_reminder(
    fake_model_server: FakeModelServer,
    openai: OpenAIProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_openai_reply(text="The memory looks fine to me.")
    fake_model_server.add_openai_reply(
        tool_calls=[("memory_write", {"old_string": "", "new_string": "ignored"})]
    )
    fake_model_server.add_openai_reply(
        tool_calls=[
            (
                "memory_write",
                {"old_string": "- Use uv, not pip.\n", "new_string": "- Use uv, never pip.\n"},
            )
        ]
    )
    result = run_writer(home, workspace, events, openai)

    assert result.outcome == "wrote" and result.attempts == 2
    first, second, third = (request.body for request in fake_model_server.requests)
    assert reminder_prompt() not in json.dumps(first)
    user_texts = [m["content"] for m in second["messages"] if m["role"] == "user"]
    assert user_texts[-1] == reminder_prompt()
    # An empty old_string on a non-empty file is refused, and the model is told why.
    assert "old_string is empty" in tool_messages(third)[-1]["content"]
    assert memory(store) == EXISTING.replace("not pip", "never pip")
    fake_model_server.assert_all_used()


@pytest.mark.expect_log(
    "memtab.writer.job.run", "WARNING", r"Memory writer failed: timed out after"
)
def test_a_timeout_writes_a_dump_with_timed_out(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_anthropic_reply(tool_calls=[("memory_read", {})], delay=10)
    settings = WriterSettings(timeout_s=1.0)
    result = run_writer(
        home, workspace, events, anthropic, settings=settings, known_secrets=[ANTHROPIC_KEY]
    )

    assert result.outcome == "failed" and result.timed_out
    assert result.trace_path is not None and result.trace_path.is_file()
    assert result.trace_path.name == trace_file_name(result.run_started_at, "a1")
    dump = only_dump(home, workspace)
    assert dump["timedOut"] is True and dump["timeoutMs"] == 1000
    assert dump["didWriteMemory"] is False and dump["satisfiedMemoryToolPolicy"] is False
    assert dump["modelString"] == "anthropic:claude-test"
    assert dump["workspaceId"] == workspace.id and dump["projectPath"] == PROJECT
    assert dump["memoryPath"] == DEFAULT_MEMORY_PATH
    assert dump["existingMemory"] == EXISTING
    assert dump["eventsSummary"] == {"originalCount": 2, "trimmedCount": 2, "maxJsonChars": 80000}
    [attempt] = dump["attempts"]
    assert attempt["aborted"] is True and "timed out" in attempt["error"]
    assert memory(store) == EXISTING


@pytest.mark.expect_log(
    "memtab.writer.job.run", "WARNING", r"Memory writer failed: the model ended 2 attempts without"
)
def test_a_failed_write_then_no_new_memories_fails_the_policy_and_dumps(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    for _ in range(2):  # the same behaviour in both attempts
        fake_model_server.add_anthropic_reply(
            tool_calls=[
                ("memory_write", {"old_string": "not in the file", "new_string": "x"}),
                ("no_new_memories", {}),
            ]
        )
        fake_model_server.add_anthropic_reply(text="Nothing to add.")
    result = run_writer(home, workspace, events, anthropic, known_secrets=[ANTHROPIC_KEY])

    assert result.outcome == "failed" and not result.timed_out and result.attempts == 2
    assert "without a successful memory_write" in (result.error or "")
    dump = only_dump(home, workspace)
    assert dump["satisfiedMemoryToolPolicy"] is False and dump["didWriteMemory"] is False
    assert dump["timedOut"] is False
    assert [a["attemptIndex"] for a in dump["attempts"]] == [1, 2]
    for attempt in dump["attempts"]:
        assert attempt["noNewMemories"] is True and attempt["wrote"] is False
        failed_write, no_new = attempt["toolExecutions"]
        assert failed_write["toolName"] == "memory_write"
        assert failed_write["error"] == STALE_NOT_FOUND
        assert no_new == {**no_new, "toolName": "no_new_memories", "output": {"success": True}}
        assert attempt["stepResults"][-1]["text"] == "Nothing to add."
    assert dump["attempts"][1]["messages"][1] == {"role": "user", "text": reminder_prompt()}
    fake_model_server.assert_all_used()


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 400")
@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: .*HTTP 400")
def test_a_provider_error_dumps_and_never_leaks_the_key(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_error(400, {"error": {"message": f"bad key {ANTHROPIC_KEY}"}})
    result = run_writer(home, workspace, events, anthropic, known_secrets=[ANTHROPIC_KEY])
    assert result.outcome == "failed" and result.attempts == 1
    dump = only_dump(home, workspace)  # asserts the key is nowhere in it
    assert dump["attempts"][0]["finishReason"] == "error"
    assert "400" in dump["error"]


def test_secrets_never_reach_the_memory_file_or_the_dump(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    # A model that echoes a secret into memory (it cannot have seen it, but still).
    fake_model_server.add_anthropic_reply(
        tool_calls=[
            (
                "memory_write",
                {
                    "old_string": "- Use uv, not pip.\n",
                    "new_string": (
                        f"- Use uv, not pip.\n- key {SK_SECRET}, Bearer {BEARER_SECRET}\n"
                    ),
                },
            )
        ]
    )
    fake_model_server.add_anthropic_reply(tool_calls=[("no_new_memories", {})])
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, events, anthropic, settings=settings)
    # The line is refused (issue 82): nothing of it is written, and it is named redacted.
    assert result.outcome == "no_new_memories"
    text = memory(store)
    assert SK_SECRET not in text and BEARER_SECRET not in text and "- key" not in text
    assert result.refused == (
        ("- key [REDACTED_SECRET], Bearer [REDACTED_SECRET]", HOLDS_A_SECRET),
    )
    dump = only_dump(home, workspace)  # dumped because of the setting; redacted
    assert dump["satisfiedMemoryToolPolicy"] is True and dump["outcome"] == "no_new_memories"
    assert dump["refused"] == [
        {"line": "- key [REDACTED_SECRET], Bearer [REDACTED_SECRET]", "why": HOLDS_A_SECRET}
    ]
    assert SK_SECRET not in json.dumps(dump) and result.trace_path is not None


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 400")
@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: .*HTTP 400")
def test_old_dumps_beyond_the_limit_are_pruned(
    fake_model_server: FakeModelServer,
    anthropic: AnthropicProvider,
    home: Home,
    workspace: Workspace,
    store: MemoryStore,
    events: list[TranscriptEvent],
) -> None:
    directory = home.trace_dir(workspace.id)
    directory.mkdir(parents=True)
    for started in (100, 200, 300):
        (directory / f"{started}_old.json").write_text("{}")
    (directory / "notes.txt").write_text("not a dump")
    fake_model_server.add_error(400)
    settings = WriterSettings(max_dumps=2)
    result = run_writer(home, workspace, events, anthropic, settings=settings)
    assert result.trace_path is not None
    names = sorted(path.name for path in directory.iterdir())
    assert names == sorted(["300_old.json", result.trace_path.name, "notes.txt"])


def test_a_dump_hides_the_keys_memtab_holds_by_the_same_rule_as_provider_errors(
    home: Home, workspace: Workspace
) -> None:
    # A local server's short key ("ollama"), said in the conversation: hidden where it
    # stands alone, as in an error message, and a word around it stays readable.
    said = "The local key is ollama; the ollamas cluster is up. Paste x0LONGKEY0123456789y here."
    keys = ["ollama", "0LONGKEY0123456789"]  # a long key is hidden even inside a word
    events = [mux_message("u1", "user", said, sequence=0)]
    path = home.transcript_path(workspace.id)
    write_chat(path, events)
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(
        home,
        workspace,
        read_transcript(path, "mux").events,
        OfflineWriterProvider(),
        settings=settings,
        known_secrets=keys,
    )
    assert result.trace_path is not None
    [event] = json.loads(result.trace_path.read_text(encoding="utf-8"))["events"]
    hidden = "The local key is {0}; the ollamas cluster is up. Paste x{0}y here."
    assert event["text"] == hidden.format(REDACTED)
    client = ProviderHttpClient(
        provider="openai", model="m", url="http://localhost:1/v1", headers={}, secrets=keys
    )
    try:  # the same rule, the same token
        assert client.redact(said) == hidden.format(REDACTED)
    finally:
        client.close()
