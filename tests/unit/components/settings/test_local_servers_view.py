"""Settings → Model → Local model servers without Qt: the box's line before, during and
after a search, and each server's row."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.settings.model_form import (
    FOUND,
    NO_MODEL,
    before_search,
    kinds_named,
    search_failed,
    searched,
    searching,
    server_row,
)


@dataclass(frozen=True)
class Kind:
    title: str
    port: int


@dataclass(frozen=True)
class Server:
    title: str
    port: int
    base_url: str
    models: tuple[str, ...]


OLLAMA = Kind("Ollama", 11434)
KINDS = (OLLAMA, Kind("LM Studio", 1234), Kind("vLLM", 8000))


def test_the_boxs_line_names_the_servers_it_asks() -> None:
    assert kinds_named(KINDS) == "Ollama (11434), LM Studio (1234) or vLLM (8000)"
    assert kinds_named((OLLAMA,)) == "Ollama (11434)"
    assert before_search((OLLAMA,)).startswith("Running Ollama (11434) here? Find it")
    assert searching((OLLAMA,)) == "Asking Ollama (11434) on this machine…"
    assert searched((OLLAMA,), ()) == (
        "None of Ollama (11434) answered on this machine. Start one, then look again."
    )
    server = Server("Ollama", 11434, "http://127.0.0.1:11434/v1", ("llama3",))
    assert searched((OLLAMA,), (server,)) == FOUND
    assert search_failed("refused") == "Could not look for local servers: refused"


def test_a_server_with_no_model_loaded_cannot_be_used() -> None:
    loaded = server_row(Server("Ollama", 11434, "http://127.0.0.1:11434/v1", ("llama3", "qwen")))
    assert (loaded.name, loaded.name_tip) == ("Ollama · port 11434", "http://127.0.0.1:11434/v1")
    assert loaded.models == ("llama3", "qwen") and loaded.usable
    assert (
        loaded.use_tip == "Use this model at http://127.0.0.1:11434/v1 (OpenAI-compatible, no key)"
    )
    empty = server_row(Server("vLLM", 8000, "http://127.0.0.1:8000/v1", ()))
    assert empty.models == (NO_MODEL,) and not empty.usable
    assert (empty.models_name, empty.use_name) == ("vLLM models", "Use vLLM")
