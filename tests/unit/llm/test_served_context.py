"""What a model server on this machine serves a model with (`served_context`): Ollama's
`/api/show` and `/api/ps` (its OpenAI-compatible API cannot ask for a context, and a
longer prompt loses its start unsaid), LM Studio's `/api/v0/models/{model}`, vLLM's
`/v1/models`; a writer run on Ollama sized to it; `memtab doctor --check-provider` says it
and how to raise it (issue 82)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.health.doctor_commands import run_doctor
from memtab.cli.main import main
from memtab.diagnostics.setup import QtCheck
from memtab.llm.local_servers import OLLAMA_DEFAULT_CONTEXT, context_tokens, served_context
from memtab.llm.openai import OpenAIProvider
from memtab.store.home import HomeLocation
from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS
from memtab.writer.job.providers import window_chars
from support.demo_homes import copied_demo_home
from support.fake_model_server import FakeModelServer

MODEL = "qwen2.5-coder:1.5b"


def ollama(
    server: FakeModelServer,
    *,
    most: int | None = 32768,
    num_ctx: int | None = None,
    loaded: int | None = None,
) -> None:
    """`server` answers as Ollama serving MODEL."""
    info: dict[str, Any] = {"general.architecture": "qwen2"}
    if most is not None:
        info["qwen2.context_length"] = most
    parameters = 'stop "<|im_end|>"' + (
        f"\nnum_ctx                        {num_ctx}" * bool(num_ctx)
    )
    server.routes["/api/show"] = {"parameters": parameters, "model_info": info}
    running = [{"name": MODEL, "model": MODEL, "context_length": loaded}] if loaded else []
    server.routes["/api/ps"] = {"models": running}


def test_ollama_s_loaded_model_is_what_a_request_gets(fake_model_server: FakeModelServer) -> None:
    ollama(fake_model_server, loaded=4096, num_ctx=8192)
    served = served_context(fake_model_server.openai_base_url, MODEL)
    assert served is not None
    assert (served.server, served.tokens, served.model_tokens) == ("Ollama", 4096, 32768)
    assert served.source == "Ollama's loaded model"
    assert "OLLAMA_CONTEXT_LENGTH=32768" in (served.raise_hint or "")
    assert "cannot ask for more" in (served.raise_hint or "")
    assert fake_model_server.requests == []  # none of them a request of the model's


def test_ollama_s_model_num_ctx_or_its_default_when_not_loaded(
    fake_model_server: FakeModelServer,
) -> None:
    base = fake_model_server.openai_base_url
    ollama(fake_model_server, num_ctx=8192)
    assert context_tokens(base, MODEL) == 8192
    ollama(fake_model_server)
    served = served_context(base, MODEL)
    assert served is not None and served.tokens == OLLAMA_DEFAULT_CONTEXT
    assert "not loaded" in served.source
    ollama(fake_model_server, most=2048)  # a model smaller than the default: all it takes
    served = served_context(base, MODEL)
    assert served is not None and (served.tokens, served.raise_hint) == (2048, None)
    ollama(fake_model_server, most=None, loaded=1 << 40)  # nonsense is not a context
    assert context_tokens(base, MODEL) == OLLAMA_DEFAULT_CONTEXT


def test_lm_studio_and_vllm_say_theirs(fake_model_server: FakeModelServer) -> None:
    base = fake_model_server.openai_base_url
    fake_model_server.routes[f"/api/v0/models/{MODEL.replace(':', '%3A')}"] = {
        "id": MODEL,
        "state": "loaded",
        "max_context_length": 32768,
        "loaded_context_length": 8192,
    }
    served = served_context(base, MODEL)
    assert served is not None and (served.server, served.tokens) == ("LM Studio", 8192)
    assert "--context-length" in (served.raise_hint or "")
    fake_model_server.routes.clear()
    fake_model_server.routes["/version"] = {"version": "0.9.2"}
    fake_model_server.routes["/v1/models"] = {"data": [{"id": MODEL, "max_model_len": 12288}]}
    served = served_context(base, MODEL)
    assert served is not None and (served.server, served.tokens) == ("vLLM", 12288)
    assert context_tokens(base, "another-model") is None


def test_a_writer_run_on_ollama_is_sized_to_what_it_serves(
    fake_model_server: FakeModelServer, openai: OpenAIProvider
) -> None:
    assert window_chars(openai) == DEFAULT_MAX_JSON_CHARS  # a server that says nothing
    fake_model_server.routes["/api/show"] = {"model_info": {"general.architecture": "x"}}
    fake_model_server.routes["/api/ps"] = {
        "models": [{"name": openai.model, "context_length": 16384}]
    }
    assert window_chars(openai) == (16384 - openai.max_tokens - 4096) * 3


@pytest.fixture
def _qt_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    def fine() -> QtCheck:
        return QtCheck(pyside6="6.9.0", qt="6.9.1")

    monkeypatch.setattr("memtab.cli.health.doctor_commands.run_qt_check", fine)


@pytest.mark.usefixtures("_qt_loads")
def test_doctor_check_provider_says_the_context_and_how_to_raise_it(
    fake_model_server: FakeModelServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = copied_demo_home(tmp_path / "demo").root
    monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
    monkeypatch.setenv("MEMTAB_MODEL", MODEL)
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.openai_base_url)
    ollama(fake_model_server, loaded=4096)
    assert run_doctor(HomeLocation(home, "--home")).to_json()["provider"].get("context") is None
    fake_model_server.add_openai_reply(tool_calls=[("report_ready", {"status": "ready"})])
    data = run_doctor(HomeLocation(home, "--home"), check_connection=True).to_json()
    assert data["provider"]["context"] == {
        "server": "Ollama",
        "tokens": 4096,
        "modelTokens": 32768,
        "source": "Ollama's loaded model",
        "raiseHint": "Ollama's OpenAI-compatible API cannot ask for more: start Ollama with "
        "OLLAMA_CONTEXT_LENGTH=32768 (a model whose Modelfile sets num_ctx keeps its own: "
        "raise PARAMETER num_ctx there)",
    }
    [warning] = [f for f in data["findings"] if f["check"] == "provider"]
    assert warning["level"] == "warning"
    assert warning["message"].startswith("Ollama gives each request 4,096 tokens")

    fake_model_server.add_openai_reply(tool_calls=[("report_ready", {"status": "ready"})])
    main(["doctor", "--home", str(home), "--check-provider"])
    [line] = [line for line in capsys.readouterr().out.splitlines() if "Context:" in line]
    assert "4,096 tokens a request (Ollama's loaded model; the model takes 32,768)" in line
    assert "OLLAMA_CONTEXT_LENGTH=32768" in line
    assert json.dumps(data).count("OLLAMA_CONTEXT_LENGTH") == 2  # the fact and the finding
