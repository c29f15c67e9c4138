"""The transcript a writer run shows a model fits the model's context when the server on
this machine says it (llama.cpp's `GET /props`): a llama-server started with `-c 16384`
refused every run on a long session when the window was a fixed 80,000 characters
(issue 82); a server that says nothing, or nonsense, gets the fixed window."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.llm.local_servers import context_tokens
from memtab.llm.openai import OpenAIProvider
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS
from memtab.writer.job.providers import read_for_run, window_chars
from memtab.writer.job.run import run_writer
from support.fake_model_server import FakeModelServer

from .helpers import conversation, write_chat


def _props(n_ctx: object) -> dict[str, Any]:
    return {"default_generation_settings": {"n_ctx": n_ctx, "params": {}}, "total_slots": 1}


def test_a_local_server_s_context_is_read_from_its_props(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.props = _props(16384)
    assert context_tokens(fake_model_server.openai_base_url) == 16384
    assert fake_model_server.requests == []  # not a request of the model's


@pytest.mark.parametrize(
    "props",
    [None, [], {"n_ctx": 4096}, _props("16384"), _props(True), _props(10**12), _props(-1)],
)
def test_a_server_that_says_nothing_or_nonsense_gets_the_fixed_window(
    fake_model_server: FakeModelServer, openai: OpenAIProvider, props: object
) -> None:
    fake_model_server.props = props
    assert context_tokens(fake_model_server.openai_base_url) is None
    assert window_chars(openai) == DEFAULT_MAX_JSON_CHARS


def test_a_remote_server_is_never_asked() -> None:
    assert context_tokens("https://api.openai.com/v1") is None
    assert context_tokens("http://example.invalid:8080/v1") is None


def test_a_run_shows_the_model_what_fits_its_context(
    fake_model_server: FakeModelServer,
    openai: OpenAIProvider,
    home: Home,
    workspace: Workspace,
    tmp_path: Path,
) -> None:
    fake_model_server.props = _props(16384)
    chat = tmp_path / "chat.jsonl"
    write_chat(chat, conversation(400))  # far more than 16,384 tokens of JSON
    events, _ = read_for_run(openai, chat, "mux")
    window = (16384 - openai.max_tokens - 4096) * 3
    assert window_chars(openai) == window
    assert events.budget.max_json_chars == window
    assert len(events.budget.json_text()) <= window < DEFAULT_MAX_JSON_CHARS
    fake_model_server.add_openai_reply(tool_calls=[("no_new_memories", {})])
    result = run_writer(home, workspace, events, openai)  # the window as read, not resized
    assert result.outcome == "no_new_memories" and result.ok
    [request] = fake_model_server.requests
    assert len(json.dumps(request.body)) < window + 40_000  # the instructions and tools


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"tool loop stopped at step 1: .*context")
@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: .*context")
def test_a_request_past_the_context_says_which_setting_helps(
    fake_model_server: FakeModelServer,
    openai: OpenAIProvider,
    home: Home,
    workspace: Workspace,
    tmp_path: Path,
) -> None:
    said = "request (21219 tokens) exceeds the available context size (16384 tokens)"
    fake_model_server.add_error(400, {"error": {"code": 400, "message": said}})
    chat = tmp_path / "chat.jsonl"
    write_chat(chat, conversation(2))
    events, _ = read_for_run(openai, chat, "mux")
    result = run_writer(home, workspace, events, openai)
    assert not result.ok
    assert said in (result.error or "") and "llama.cpp's -c" in (result.error or "")
