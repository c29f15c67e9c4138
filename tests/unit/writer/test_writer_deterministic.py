"""The same session gives the same notes (issue 95): every request of the writer asks for
temperature 0, on each wire. llama.cpp's server samples at 0.8 when asked none — a note one
run, none the next — and at temperature 0 still answers a prompt it read partly from its cache
otherwise than one it read whole (seen: Qwen2.5-Coder-1.5B, the same session twice, other
notes), so a server on this machine is asked to read the prompt whole. The fake server here
samples as such a server does: asked otherwise, its reply changes from one request to the
next."""

from __future__ import annotations

import itertools
from pathlib import Path

from memtab.llm.settings import ProviderSettings
from memtab.llm.types import UserMessage, close_provider
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.writer.job.providers import create_writer_provider
from memtab.writer.job.run import run_writer
from support.fake_model_server import (
    FakeModelServer,
    RecordedRequest,
    ScriptedResponse,
    anthropic_message,
    json_response,
    openai_completion,
)

from .events import answer, bash, user
from .helpers import ANTHROPIC_KEY, PROJECT, WORKSPACE_ID

SESSION = [
    user("Always run `bun test` before you push."),
    bash("bun test", output="12 pass"),
    answer("The suite passes; the entry point is src/main.ts."),
]
KEPT = {"kind": "fact", "lesson": "The entry point is src/main.ts.", "evidence": "entry point"}
SAMPLED = [
    {"kind": "fact", "lesson": "The suite passes; the entry point is src/main.ts.", "evidence": ""},
    {"kind": "command", "lesson": "`bun test` runs the suite.", "evidence": "bun test"},
]


def sampling(server: FakeModelServer, wire: str, runs: int) -> list[object]:
    """Script `runs` replies that are the same at temperature 0 and sampled otherwise; the
    temperatures asked, in order."""
    asked: list[object] = []
    draws = itertools.cycle(SAMPLED)

    def respond(request: RecordedRequest) -> ScriptedResponse:
        temperature = request.body.get("temperature")
        asked.append(temperature)
        whole = wire == "anthropic" or request.body.get("cache_prompt") is False
        chosen = KEPT if temperature == 0 and whole else next(draws)
        if wire == "openai":
            call = ("record_lessons", {"lessons": [chosen]})
            return json_response(openai_completion("", [call]), wire="openai")
        note = f"# Notes\n\n- {chosen['lesson']}\n"
        write = ("memory_write", {"old_string": "", "new_string": note})
        return json_response(anthropic_message("", [write]), wire="anthropic")

    for _ in range(runs):
        server.add_callback(respond)
    return asked


def run_twice(server: FakeModelServer, tmp_path: Path, settings: ProviderSettings) -> list[str]:
    written = []
    for run in range(2):
        home = Home(tmp_path / f"home{run}")
        add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID, workspace_path=PROJECT)
        workspace = load_registry(home).require_workspace(WORKSPACE_ID)
        provider = create_writer_provider(settings)
        try:
            result = run_writer(home, workspace, SESSION, provider)
        finally:
            close_provider(provider)
        assert result.outcome == "wrote", result.error
        written.append(result.after)
    return written


def test_a_local_server_is_asked_at_temperature_0_to_read_it_whole_and_gives_the_same_notes(
    fake_model_server: FakeModelServer, tmp_path: Path
) -> None:
    asked = sampling(fake_model_server, "openai", runs=2)
    settings = ProviderSettings("openai", "qwen", fake_model_server.openai_base_url)
    first, second = run_twice(fake_model_server, tmp_path, settings)
    assert asked == [0.0, 0.0]
    assert first == second and first.endswith("- The entry point is src/main.ts.\n")


def test_anthropic_is_asked_at_temperature_0_and_gives_the_same_notes_twice(
    fake_model_server: FakeModelServer, tmp_path: Path
) -> None:
    asked = sampling(fake_model_server, "anthropic", runs=2)
    settings = ProviderSettings(
        "anthropic", "claude-test", fake_model_server.anthropic_base_url, api_key=ANTHROPIC_KEY
    )
    first, second = run_twice(fake_model_server, tmp_path, settings)
    assert asked == [0.0, 0.0]
    assert first == second


def test_only_a_server_on_this_machine_is_asked_to_read_the_prompt_whole() -> None:
    local = create_writer_provider(ProviderSettings("openai", "qwen", "http://127.0.0.1:9/v1"))
    remote = create_writer_provider(
        ProviderSettings("openai", "gpt", "https://api.openai.com/v1", api_key="sk-test-x")
    )
    try:
        for provider, asked in ((local, False), (remote, None)):
            body = provider.build_request("", [UserMessage("hi")], [])  # type: ignore[attr-defined]
            assert body.get("cache_prompt", None) is asked and body["temperature"] == 0.0
    finally:
        close_provider(local)
        close_provider(remote)
