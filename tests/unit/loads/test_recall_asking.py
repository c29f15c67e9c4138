"""`memtab recall --model`: the configured model asked as Claude Code 2.1.332 asks its own
which memories to recall, its answer read as Claude Code reads it (docs/formats.md §17.8),
against the loopback model server the llm tests use (real HTTP, both wire formats)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpOptions
from memtab.llm.openai import OpenAIProvider
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ChatProvider, ProviderError
from memtab.loads.recall.asking import (
    MAX_TOKENS,
    SYSTEM_PROMPT,
    ask_model,
    manifest_names,
    read_answer,
)
from memtab.loads.recall.engine import compute_recall
from memtab.loads.recall.records import AgentRecall, Recall
from support.agent_machine import WORKSPACE_ID, Machine
from support.fake_model_server import FakeModelServer

KEY = "sk-ant-test-SECRET-0123456789abcdefghij"
FAST = HttpOptions(timeout_s=5.0, connect_timeout_s=2.0, max_retries=1, backoff_base_s=0.001)
PROMPT = "move the Riverpod providers of the editor screen into their own file"
STATE = "notes-flutter-state.md"
SYNC = "project_sync-protocol.md"


def anthropic(server: FakeModelServer) -> ProviderSettings:
    return ProviderSettings("anthropic", "claude-test", server.anthropic_base_url, api_key=KEY)


def maker(settings: ProviderSettings, limit: int) -> ChatProvider:
    if settings.provider == "anthropic":
        return AnthropicProvider(settings.model, KEY, settings.base_url, limit, options=FAST)
    return OpenAIProvider(settings.model, None, settings.base_url, limit, options=FAST)


def write(memory: Path, name: str, text: str, age_hours: float) -> None:
    path = memory / name
    path.write_text(text, encoding="utf-8")
    moment = time.time() - 3600 * age_hours
    os.utime(path, (moment, moment))


def recall(machine: Machine, prompt: str = PROMPT) -> Recall:
    memory = machine.claude_memory
    for path in memory.iterdir():
        if path.name != "MEMORY.md":
            path.unlink()
    write(memory, STATE, "# Flutter state\n\nWe use Riverpod 2 with code generation.\n", 1)
    sync = "---\ndescription: Offline edits merge per field\ntype: project\n---\n\nHLC.\n"
    write(memory, SYNC, sync, 2)
    return compute_recall(
        machine.home,
        prompt,
        workspace_id=WORKSPACE_ID,
        agents=("claude", "codex"),
        context=machine.context(CLAUDE_MEMORY_STORES='["/team-store"]'),
    )


def claude(result: Recall) -> AgentRecall:
    return next(agent for agent in result.agents if agent.agent == "claude")


def test_the_model_is_sent_claude_codes_request_and_its_pick_is_read_as_claude_code_reads_it(
    machine: Machine, fake_model_server: FakeModelServer
) -> None:
    words = recall(machine)
    fake_model_server.add_anthropic_reply(
        '{"selected_memories": ["[project] notes-flutter-state.md", "nowhere.md"]}',
        usage=(412, 17),
    )
    asked = ask_model(words, anthropic(fake_model_server), make=maker)
    (request,) = fake_model_server.requests
    body = request.body
    assert body["system"] == SYSTEM_PROMPT
    assert body["max_tokens"] == 2560
    texts = [block["text"] for message in body["messages"] for block in message["content"]]
    sent = claude(words).sent
    assert sent is not None and texts == [sent, f"Select memories relevant to:\n{PROMPT}"]
    assert "tools" not in body
    pick = claude(asked).model_pick
    assert pick is not None
    assert pick.model == "fake-model"  # the model the server says answered
    assert pick.provider.startswith("anthropic · claude-test · http://127.0.0.1")
    assert KEY not in pick.provider
    assert pick.picks == (STATE,)  # its `[project] ` taken off, as Claude Code does
    assert pick.not_listed == ("nowhere.md",)
    assert (pick.input_tokens, pick.output_tokens, pick.problem) == (412, 17, None)
    words_picked = [f.name for f in claude(words).files if f.verdict == "recalled"]
    assert pick.agreement == (1.0 if words_picked == [STATE] else 0.0)
    codex = next(agent for agent in asked.agents if agent.agent == "codex")
    assert codex.model_pick is None
    assert codex.notes[-1].startswith("Codex asks no model apart")
    out = asked.to_json()["agents"][0]["modelPick"]
    assert out["notListed"] == ["nowhere.md"] and out["inputTokens"] == 412


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("I would pick the Flutter note.", "is not a JSON object"),
        ('{"memories": ["notes-flutter-state.md"]}', "is not a JSON object"),
        ("", "it was empty"),
        ("[1, 2, 3]", "is not a JSON object"),
        ('{"selected_memories": "notes-flutter-state.md"', "is not a JSON object"),
    ],
)
def test_an_answer_that_is_no_selection_is_said_never_raised(
    machine: Machine, fake_model_server: FakeModelServer, answer: str, problem: str
) -> None:
    fake_model_server.add_anthropic_reply(answer)
    pick = claude(ask_model(recall(machine), anthropic(fake_model_server), make=maker)).model_pick
    assert pick is not None and pick.picks == () and pick.problem is not None
    assert problem in pick.problem


def test_an_answer_in_a_code_fence_or_a_sentence_is_read_and_a_cut_one_is_not(
    machine: Machine, fake_model_server: FakeModelServer
) -> None:
    names = manifest_names(claude(recall(machine)).sent or "")
    assert names == {STATE, SYNC}
    fenced = '```json\n{"selected_memories": ["notes-flutter-state.md"]}\n```'
    assert read_answer(fenced, names).picks == (STATE,)
    spoken = 'Here: {"selected_memories": ["project_sync-protocol.md", 7]} — done.'
    assert read_answer(spoken, names).picks == (SYNC,)
    fake_model_server.add_anthropic_reply(
        '{"selected_memories": ["notes-fl', stop_reason="max_tokens"
    )
    pick = claude(ask_model(recall(machine), anthropic(fake_model_server), make=maker)).model_pick
    assert pick is not None and pick.problem == "The answer was cut at its 2,560-token limit"


def test_a_failed_call_is_the_picks_problem_and_names_no_key(
    machine: Machine, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_error(401)
    pick = claude(ask_model(recall(machine), anthropic(fake_model_server), make=maker)).model_pick
    assert pick is not None and pick.picks == ()
    assert pick.problem is not None and "401" in pick.problem and KEY not in pick.problem
    assert json.dumps(pick.to_json()).count(KEY) == 0


def test_an_openai_compatible_model_is_sent_the_same_request(
    machine: Machine, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply('{"selected_memories": ["notes-flutter-state.md"]}')
    settings = ProviderSettings("openai", "local-model", fake_model_server.openai_base_url)
    words = recall(machine)
    pick = claude(ask_model(words, settings, make=maker)).model_pick
    assert pick is not None and pick.picks == (STATE,)
    (request,) = fake_model_server.requests
    messages = request.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "user"]
    assert messages[0]["content"] == SYSTEM_PROMPT
    assert messages[1]["content"] == claude(words).sent
    assert request.body["max_tokens"] == MAX_TOKENS  # as every model request of Memtab's


def test_no_model_is_asked_offline_for_one_word_or_without_topics(
    machine: Machine, fake_model_server: FakeModelServer
) -> None:
    with pytest.raises(ProviderError, match="No model is configured"):
        ask_model(recall(machine), ProviderSettings("offline", "offline", ""), make=maker)
    one_word = ask_model(recall(machine, "Riverpod"), anthropic(fake_model_server), make=maker)
    assert claude(one_word).model_pick is None
    assert claude(one_word).notes[-1] == (
        "No model asked: Claude Code asks none for a prompt of one word"
    )
    assert fake_model_server.requests == []
