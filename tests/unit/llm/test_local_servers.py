"""Local model servers: found on loopback ports (fake servers here), listed, and chosen."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from memtab.cli.main import main
from memtab.fs.config.settings_file import settings_path
from memtab.llm.local_servers import (
    LocalServer,
    LocalServerError,
    ServerKind,
    choose_model,
    find_local_servers,
    find_server,
)
from memtab.llm.settings import resolve_provider_settings
from memtab.writer.config import WriterSettings, save_writer_settings


def _at_once() -> None:
    """Answer at once (the default of `_serve`)."""


class _Handler(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, object]] = {}
    before_reply: ClassVar[Callable[[], None]] = staticmethod(_at_once)

    def do_GET(self) -> None:
        self.before_reply()
        if self.path not in self.routes:
            self.send_error(404)
            return
        body = json.dumps(self.routes[self.path]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _serve(routes: dict[str, object], before_reply: Callable[[], None] = _at_once) -> Iterator[int]:
    """A server on a free loopback port answering `routes`; each request first calls
    `before_reply` (on the server's thread for that request)."""
    handler = type(
        "Handler", (_Handler,), {"routes": routes, "before_reply": staticmethod(before_reply)}
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # A short poll, so shutdown() (at the end of each test) returns at once.
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def ollama() -> Iterator[int]:
    yield from _serve({"/api/tags": {"models": [{"name": "qwen2.5-coder:7b"}, {"name": "llama3"}]}})


@pytest.fixture
def openai_like() -> Iterator[int]:
    yield from _serve({"/v1/models": {"object": "list", "data": [{"id": "local-model"}]}})


@pytest.fixture
def web_page() -> Iterator[int]:
    """A server that is not a model server (a dev web server on a usual port)."""
    yield from _serve({"/v1/models": ["not", "a", "model", "list"], "/": "<html>"})


@pytest.fixture
def free_port() -> int:
    with ThreadingHTTPServer(("127.0.0.1", 0), _Handler) as server:
        return int(server.server_address[1])  # closed again: nothing listens there


def test_servers_answering_like_model_servers_are_found_in_order(
    ollama: int, openai_like: int, web_page: int, free_port: int
) -> None:
    kinds = [
        ServerKind("ollama", "Ollama", ollama, native_models_path="/api/tags"),
        ServerKind("llamacpp", "llama.cpp server", web_page),
        ServerKind("lmstudio", "LM Studio", openai_like),
        ServerKind("vllm", "vLLM", free_port),
    ]
    servers = find_local_servers(kinds, timeout=2)
    assert servers == [
        LocalServer(
            kind="ollama",
            title="Ollama",
            host="127.0.0.1",
            port=ollama,
            models=("qwen2.5-coder:7b", "llama3"),
        ),
        LocalServer(
            kind="lmstudio",
            title="LM Studio",
            host="127.0.0.1",
            port=openai_like,
            models=("local-model",),
        ),
    ]
    assert servers[0].base_url == f"http://127.0.0.1:{ollama}/v1"
    assert find_server("ollama", servers) is servers[0]
    assert find_server(str(openai_like), servers) is servers[1]
    assert find_server("vllm", servers) is None


def test_ports_are_asked_at_once() -> None:
    # Each server answers only once both were asked: one after the other, neither would.
    both_asked = threading.Barrier(2, timeout=10)
    servers = [_serve({"/v1/models": {"data": [{"id": "m"}]}}, both_asked.wait) for _ in "ab"]
    try:
        kinds = [ServerKind(f"k{n}", f"K{n}", next(server)) for n, server in enumerate(servers)]
        assert len(find_local_servers(kinds, timeout=20)) == 2
    finally:
        for server in servers:
            server.close()


def test_a_cancel_stops_the_wait() -> None:
    asked = threading.Semaphore(0)
    answer = threading.Event()  # the servers answer only at the end of the test

    def hold() -> None:
        asked.release()
        answer.wait(10)

    servers = [_serve({"/v1/models": {"data": [{"id": "m"}]}}, hold) for _ in "ab"]
    try:
        kinds = [ServerKind(f"k{n}", f"K{n}", next(server)) for n, server in enumerate(servers)]
        cancel = threading.Event()

        def cancel_once_both_asked() -> None:
            if asked.acquire(timeout=10) and asked.acquire(timeout=10):
                cancel.set()

        threading.Thread(target=cancel_once_both_asked, daemon=True).start()
        # Waiting for the answers would find both servers (within 10 s).
        assert find_local_servers(kinds, timeout=20, cancel=cancel) == []
    finally:
        answer.set()
        for server in servers:
            server.close()


def test_only_this_machine_is_ever_asked() -> None:
    with pytest.raises(LocalServerError, match="not this machine"):
        find_local_servers(host="192.168.1.20")


def test_the_model_is_chosen_by_its_name_or_the_name_before_its_tag() -> None:
    server = LocalServer(
        kind="ollama",
        title="Ollama",
        host="127.0.0.1",
        port=11434,
        models=("qwen2.5-coder:7b", "llama3"),
    )
    assert choose_model(server, "qwen2.5-coder") == "qwen2.5-coder:7b"
    assert choose_model(server, "llama3") == "llama3"
    with pytest.raises(LocalServerError, match=re.escape("serves qwen2.5-coder:7b, llama3")):
        choose_model(server, None)
    with pytest.raises(LocalServerError, match="does not serve 'mistral'"):
        choose_model(server, "mistral")
    single = LocalServer(kind="vllm", title="vLLM", host="127.0.0.1", port=8000, models=("only",))
    assert choose_model(single, None) == "only"


def test_the_cli_lists_local_servers_and_switches_the_writer_to_one(
    ollama: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--local", "--json", "--port", f"ollama={ollama}"]) == 0
    listed = json.loads(capsys.readouterr().out)
    ollama_entry = next(entry for entry in listed["local"] if entry["kind"] == "ollama")
    assert ollama_entry["models"] == ["qwen2.5-coder:7b", "llama3"]
    assert listed["configured"]["provider"] == "offline"

    argv = ["settings", "use-local", "ollama", "--model", "qwen2.5-coder"]
    assert main([*argv, "--port", f"ollama={ollama}"]) == 0
    out = capsys.readouterr().out
    assert "qwen2.5-coder:7b" in out
    # The writer's default run limit is the dream's on a model here: nothing to say of it.
    assert "A writer run stops after" not in out
    settings = resolve_provider_settings()
    assert (settings.provider, settings.model) == ("openai", "qwen2.5-coder:7b")
    assert settings.base_url == f"http://127.0.0.1:{ollama}/v1"
    assert settings.api_key is None
    assert "api_key" not in json.loads(Path(settings_path()).read_text())

    assert main(["settings", "use-offline"]) == 0
    assert resolve_provider_settings().provider == "offline"
    # a limit the user set short for a model on a CPU: said, not changed
    save_writer_settings(WriterSettings(timeout_s=60))
    assert main([*argv, "--port", f"ollama={ollama}"]) == 0
    assert (
        "A writer run stops after 60 s (writer.timeout_s in settings.json); a model on this "
        "machine may need minutes: raise it, up to 900 s." in capsys.readouterr().out
    )
    assert main(["settings", "use-offline"]) == 0


def test_the_cli_says_what_to_do_when_no_server_answers(
    free_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["settings", "use-local", "ollama", "--port", f"ollama={free_port}"])
    assert code != 0
    assert "No ollama server answers on this machine" in capsys.readouterr().err
    assert main(["settings", "use-local", "ollama", "--port", "ollama=x"]) != 0
