"""What the writer sends a model, dumps and writes (issue 82): `<private>` blocks and secrets
never leave the machine, the memory file is shown redacted and a write of what the model
saw keeps the file's secrets, and a secret a model writes back never reaches the file."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolCall,
    ToolResultsMessage,
    UserMessage,
)
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.trust.rails import HOLDS_A_SECRET
from memtab.writer.config import WriterSettings
from memtab.writer.job.run import load_writer_events, run_writer
from support.scripted_provider import ScriptedProvider

SESSION = (
    Path(__file__).resolve().parents[2]
    / "fixtures/shared/claude-code"
    / "thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl"
)
NOTES = "/memories/workspace/notes.md"
# What Qwen2.5-Coder-1.5B meant to write of this session before its text was redacted
# (its reply was cut at 1024 tokens; these are its first lines, issue 82).
DRAFT = (
    "## Directives\n- always run typecheck\n- the schema password is hunter2\n"
    "## Commands that work\n- `bun test`\n"
)


def sent_text(messages: list[Message]) -> str:
    parts: list[str] = []
    for message in messages:
        if isinstance(message, UserMessage):
            parts.append(message.text)
        elif isinstance(message, AssistantMessage):
            parts += [message.text, *(json.dumps(c.arguments) for c in message.tool_calls)]
        elif isinstance(message, ToolResultsMessage):
            parts += [result.content for result in message.results]
    return "\n".join(parts)


def write(old: str, new: str) -> ModelReply:
    call = ToolCall("w1", "memory_write", {"old_string": old, "new_string": new})
    return ModelReply("", (call,))


def test_private_blocks_and_secrets_never_reach_the_model_the_dump_or_the_notes(
    home: Home, workspace: Workspace
) -> None:
    model = ScriptedProvider([write("", DRAFT)])
    events = load_writer_events(SESSION)
    settings = WriterSettings(dump_successful_runs=True)
    result = run_writer(home, workspace, events, model, settings=settings)
    assert result.outcome == "wrote"
    sent = sent_text(model.messages[0]) + "\n".join(model.systems)
    for secret in ("sk-test-12345", "hunter2", "my API key is"):
        assert secret not in sent
    assert result.trace_path is not None
    dump = result.trace_path.read_text(encoding="utf-8")
    assert "hunter2" not in dump and "sk-test-12345" not in dump
    notes = MemoryStore(home, workspace).read(parse_file_path(NOTES)).content
    assert "hunter2" not in notes and "`bun test`" in notes


def test_the_memory_file_is_shown_redacted_and_a_write_of_what_was_shown_keeps_its_secret(
    home: Home, workspace: Workspace
) -> None:
    store = MemoryStore(home, workspace)
    secret_line = "- staging DB password: hunter22x (ask Ana before rotating)"
    store.create_file(parse_file_path(NOTES), f"# Notes\n{secret_line}\n")
    shown_line = "- staging DB password: [REDACTED_SECRET] (ask Ana before rotating)"
    model = ScriptedProvider([write(shown_line, f"{shown_line}\n- Run the tests with `bun test`")])
    result = run_writer(home, workspace, [], model)
    assert result.outcome == "wrote", result.error
    assert "hunter22x" not in sent_text(model.messages[0])
    assert shown_line in sent_text(model.messages[0])
    notes = store.read(parse_file_path(NOTES)).content
    assert notes == f"# Notes\n{secret_line}\n- Run the tests with `bun test`\n"


def test_a_private_block_the_model_writes_back_is_refused_and_named(
    home: Home, workspace: Workspace
) -> None:
    # What Qwen2.5-Coder-1.5B wrote of this session when it was sent in clear (issue 82).
    line = "- <private>the schema password is hunter2</private>"
    model = ScriptedProvider([write("", f"## Commands that work\n- `bun test`\n{line}\n")])
    result = run_writer(home, workspace, load_writer_events(SESSION), model)
    assert result.outcome == "wrote", result.error
    notes = MemoryStore(home, workspace).read(parse_file_path(NOTES)).content
    assert notes == "## Commands that work\n- `bun test`\n"
    assert result.refused == (("- [REDACTED_SECRET]", HOLDS_A_SECRET),)  # named redacted
