"""Model servers running on this machine: Ollama, LM Studio, a llama.cpp server, vLLM."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from memtab.fs.jsonfile import parse_json
from memtab.fs.records import NotWritten, Record, computed
from memtab.llm.endpoints import is_loopback_host
from memtab.llm.settings import ProviderSettings
from memtab.llm.speed import timings_of
from memtab.llm.types import Timings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_TIMEOUT_S = 0.6
MAX_RESPONSE_BYTES = 2 * 1024 * 1024  # a model list; more is not a model server
MAX_MODELS = 500
# A request ends within this many timeouts in all, however slowly a server drips its
# headers or body (each read alone would wait `timeout` again, for ever).
REQUEST_DEADLINE_TIMEOUTS = 3
MAX_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ServerKind:
    """A kind of local model server and where it listens by default."""

    name: str  # what the CLI calls it: `memtab settings use-local ollama`
    title: str
    port: int
    native_models_path: str | None = None  # a listing of its own API, tried first


KNOWN_SERVERS: tuple[ServerKind, ...] = (
    ServerKind("ollama", "Ollama", 11434, native_models_path="/api/tags"),
    ServerKind("lmstudio", "LM Studio", 1234),
    ServerKind("llamacpp", "llama.cpp server", 8080),
    ServerKind("vllm", "vLLM", 8000),
)


def _base_url(server: LocalServer) -> str:
    host = f"[{server.host}]" if ":" in server.host else server.host
    return f"http://{host}:{server.port}/v1"


class LocalServer(Record, write_only=True):
    """A model server that answered (`memtab models --local --json`, docs/formats.md §13)."""

    kind: str
    title: str
    host: Annotated[str, NotWritten]
    base_url: str = computed(_base_url)
    """Its OpenAI-compatible API, as Memtab's "openai" provider takes it."""
    port: int
    models: tuple[str, ...]


class LocalServerError(ValueError):
    """A request the probe refuses (a host that is not this machine); for the user."""


def find_local_servers(
    kinds: Sequence[ServerKind] = KNOWN_SERVERS,
    *,
    host: str = DEFAULT_HOST,
    timeout: float = DEFAULT_TIMEOUT_S,
    cancel: threading.Event | None = None,
) -> list[LocalServer]:
    """The model servers answering on `host` (loopback only), in the order of `kinds`: every port
    asked at once, each giving up after `timeout` s; a port whose answer is not a model list left
    out. LocalServerError for a host that is not this machine."""
    if not is_loopback_host(host):
        raise LocalServerError(f"{host} is not this machine: only loopback addresses are asked")
    if not 0 < timeout <= MAX_TIMEOUT_S:  # NaN too
        raise LocalServerError(f"the timeout must be more than 0 and at most {MAX_TIMEOUT_S:g} s")
    if not kinds or (cancel is not None and cancel.is_set()):
        return []
    found: dict[int, LocalServer] = {}
    pool = ThreadPoolExecutor(max_workers=len(kinds), thread_name_prefix="local-servers")
    try:
        futures: dict[Future[LocalServer | None], int] = {
            pool.submit(_probe, kind, host, timeout): index for index, kind in enumerate(kinds)
        }
        pending = set(futures)
        while pending and not (cancel is not None and cancel.is_set()):
            done, pending = wait(pending, timeout=0.05, return_when=FIRST_COMPLETED)
            for future in done:
                server = future.result()
                if server is not None:
                    found[futures[future]] = server
    finally:
        pool.shutdown(wait=False, cancel_futures=True)  # a cancelled probe is not waited for
    return [found[index] for index in sorted(found)]


def find_server(name: str, servers: Sequence[LocalServer]) -> LocalServer | None:
    """The server of a kind (`ollama`), or at a port (`11434`), among those found."""
    wanted = name.strip().lower()
    return next((s for s in servers if wanted in (s.kind, str(s.port), s.title.lower())), None)


def choose_model(server: LocalServer, wanted: str | None) -> str:
    """The model of `server` to use: `wanted` as listed, or the one listed model whose
    name it starts (`qwen2.5-coder` → `qwen2.5-coder:7b`); with none wanted, the only
    model served. LocalServerError, naming the models, when that is not one model."""
    served = ", ".join(server.models) or "none"
    if wanted is None:
        if len(server.models) == 1:
            return server.models[0]
        raise LocalServerError(f"{server.title} serves {served}: name one with --model")
    if wanted in server.models:
        return wanted
    matches = [model for model in server.models if model.split(":", 1)[0] == wanted]
    if len(matches) == 1:
        return matches[0]
    raise LocalServerError(f"{server.title} does not serve {wanted!r}; it serves {served}")


def settings_for(server: LocalServer, model: str) -> ProviderSettings:
    """Provider settings that send the writer's and the consolidator's requests to a local
    server (its OpenAI-compatible API, no key)."""
    return ProviderSettings("openai", model, server.base_url)


def _probe(kind: ServerKind, host: str, timeout: float) -> LocalServer | None:
    paths = [kind.native_models_path] if kind.native_models_path else []
    for path in [*paths, "/v1/models"]:
        models = _model_names(_get_json(host, kind.port, path, timeout))
        if models is not None:
            return LocalServer(
                kind=kind.name, title=kind.title, host=host, port=kind.port, models=models
            )
    return None


OLLAMA_DEFAULT_CONTEXT = 4096
"""The context Ollama serves a model with when neither the model nor a loaded copy says:
its default without a large GPU (2,048 before 0.6; `OLLAMA_CONTEXT_LENGTH` sets it)."""


class ServedContext(Record, write_only=True):
    """The context, in tokens, a server on this machine gives each request of a model
    (`memtab doctor`'s `provider.context`, docs/formats.md §13): `tokens`, what the model
    itself takes when the server says (`modelTokens`), where it was read and, when it
    could be larger, how to raise it (`raiseHint`)."""

    server: str
    tokens: int
    model_tokens: int | None
    source: str
    raise_hint: str | None


def context_tokens(
    base_url: str, model: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
) -> int | None:
    """The context, in tokens, of each request of `model` to the server at `base_url`
    when it is on this machine and says so (`served_context`), else None."""
    served = served_context(base_url, model, timeout)
    return served.tokens if served is not None else None


def served_context(
    base_url: str, model: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
) -> ServedContext | None:
    """What a model server on this machine serves `model` with (llama.cpp's /props, Ollama's
    /api/show and /api/ps, LM Studio's /api/v0/models, vLLM's /v1/models); None for a remote
    server or one that says nothing usable. Blocking: call it off the GUI thread."""
    address = _local_address(base_url)
    if address is None:
        return None
    host, port = address
    found = _llamacpp_context(host, port, timeout)
    if found is None and model:
        for read in (_ollama_context, _lmstudio_context, _vllm_context):
            found = read(host, port, model, timeout)
            if found is not None:
                break
    return found


def _tokens(value: object) -> int | None:
    """A context size a server said, when it is one."""
    if isinstance(value, int) and not isinstance(value, bool) and 256 <= value <= 10_000_000:
        return value
    return None


def _llamacpp_context(host: str, port: int, timeout: float) -> ServedContext | None:
    props = _get_json(host, port, "/props", timeout)
    settings = props.get("default_generation_settings") if isinstance(props, dict) else None
    tokens = _tokens(settings.get("n_ctx")) if isinstance(settings, dict) else None
    if tokens is None:
        return None
    return ServedContext(
        server="llama.cpp server",
        tokens=tokens,
        model_tokens=None,
        source="llama.cpp's /props",
        raise_hint="start llama-server with a larger -c (--ctx-size)",
    )


def _ollama_name(name: str) -> str:
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


def _ollama_context(host: str, port: int, model: str, timeout: float) -> ServedContext | None:
    show = _get_json(host, port, "/api/show", timeout, body={"model": model})
    if not isinstance(show, dict) or not isinstance(show.get("model_info"), dict):
        return None
    info = show["model_info"]
    arch = info.get("general.architecture")
    most = _tokens(info.get(f"{arch}.context_length")) if isinstance(arch, str) else None
    parameters = show.get("parameters")
    set_in_model = None
    for line in parameters.splitlines() if isinstance(parameters, str) else []:
        words = line.split()
        if len(words) == 2 and words[0] == "num_ctx" and words[1].isdigit() and len(words[1]) < 10:
            set_in_model = _tokens(int(words[1]))
    running = _get_json(host, port, "/api/ps", timeout)
    loaded = None
    for entry in running.get("models", []) if isinstance(running, dict) else []:
        names = [entry.get(key) for key in ("name", "model")] if isinstance(entry, dict) else []
        if _ollama_name(model) in [_ollama_name(n) for n in names if isinstance(n, str)]:
            loaded = _tokens(entry.get("context_length"))
    if loaded is not None:
        tokens, source = loaded, "Ollama's loaded model"
    elif set_in_model is not None:
        tokens, source = set_in_model, "the num_ctx of Ollama's model"
    else:
        tokens, source = OLLAMA_DEFAULT_CONTEXT, "Ollama's default; the model is not loaded"
    if most is not None:
        tokens = min(tokens, most)
    hint = (
        None
        if most is not None and tokens >= most
        else "Ollama's OpenAI-compatible API cannot ask for more: start Ollama with "
        f"OLLAMA_CONTEXT_LENGTH={most or 32768} (a model whose Modelfile sets num_ctx keeps "
        "its own: raise PARAMETER num_ctx there)"
    )
    return ServedContext(
        server="Ollama", tokens=tokens, model_tokens=most, source=source, raise_hint=hint
    )


def _lmstudio_context(host: str, port: int, model: str, timeout: float) -> ServedContext | None:
    about = _get_json(host, port, f"/api/v0/models/{quote(model, safe='')}", timeout)
    if not isinstance(about, dict):
        return None
    most = _tokens(about.get("max_context_length"))
    tokens = _tokens(about.get("loaded_context_length"))
    if tokens is None:  # not loaded: LM Studio loads it with the context it was set to
        return None
    full = most is not None and tokens >= most
    return ServedContext(
        server="LM Studio",
        tokens=tokens,
        model_tokens=most,
        source="LM Studio's loaded model",
        raise_hint=None
        if full
        else f"load the model with a larger context length (lms load {model} --context-length N)",
    )


def _vllm_context(host: str, port: int, model: str, timeout: float) -> ServedContext | None:
    version = _get_json(host, port, "/version", timeout)  # vLLM's: its model list is asked
    if not isinstance(version, dict) or not isinstance(version.get("version"), str):
        return None
    listing = _get_json(host, port, "/v1/models", timeout)
    entries = listing.get("data") if isinstance(listing, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("id") == model:
            tokens = _tokens(entry.get("max_model_len"))
            if tokens is not None:
                return ServedContext(
                    server="vLLM",
                    tokens=tokens,
                    model_tokens=None,
                    source="vLLM's max_model_len",
                    raise_hint="start vLLM with a larger --max-model-len",
                )
    return None


PROBE_PROMPT = (
    "Memory notes of a software project, kept between sessions. Tests run with pytest from the "
    "repository root; the linter is ruff; releases are tagged by the maintainer after review. "
    "Name one tool these notes mention."
)
PROBE_OUTPUT_TOKENS = 8
PROBE_MOST_S = 30.0
"""The longest a speed probe waits (a 300 s run gives it a tenth): one thread of a busy 2-core
machine read its 58 tokens at 5.2–8.3 a second and wrote 8 at 1.7–5.0 (11–16 s, load 11–17),
and at load 9–12 took more than 20 s: a run that cannot size itself asks too much."""


def probe_speed(
    base_url: str, model: str, *, nonce: int, timeout: float = PROBE_MOST_S
) -> Timings | None:
    """How long Ollama on this machine takes to read a short prompt and write a few tokens of
    `model` (its OpenAI-compatible replies say no timings; its own API does): `nonce` starts
    the prompt, so that no cached prompt is measured. None for another server, a remote one,
    or no answer within 3 × `timeout`. A llama.cpp server is asked the same at its
    `/completion`, its prompt read whole (`cache_prompt: false`); its reply has `timings`."""
    address = _local_address(base_url)
    if address is None:
        return None
    if _ollama_context(*address, model, DEFAULT_TIMEOUT_S) is None:
        if _llamacpp_context(*address, DEFAULT_TIMEOUT_S) is None:
            return None
        llama = {
            "prompt": f"{nonce}. {PROBE_PROMPT}",
            "n_predict": PROBE_OUTPUT_TOKENS,
            "temperature": 0,
            "cache_prompt": False,
        }
        answer = _get_json(*address, "/completion", timeout, body=llama)
        return timings_of(answer) if isinstance(answer, dict) else None
    body = {
        "model": model,
        "prompt": f"{nonce}. {PROBE_PROMPT}",
        "stream": False,
        "options": {"num_predict": PROBE_OUTPUT_TOKENS, "temperature": 0},
    }
    answer = _get_json(*address, "/api/generate", timeout, body=body)
    return timings_of(answer) if isinstance(answer, dict) else None


HELD_PREFIX_CHARS = 200
"""Of the instructions, what a slot's prompt must hold to have read them."""


def holds_prompt(base_url: str, instructions: str, timeout: float = DEFAULT_TIMEOUT_S) -> bool:
    """Whether a llama.cpp server on this machine last read a prompt starting with
    `instructions` in one of its slots (`GET /slots`: each slot's last `prompt`), so that it
    reads them again from its cache. False when it says not, or nothing (a cold server,
    another server): a request is then planned to read them whole."""
    address = _local_address(base_url)
    head = instructions.strip()[:HELD_PREFIX_CHARS]
    if address is None or not head:
        return False
    slots = _get_json(*address, "/slots", timeout)
    if not isinstance(slots, list):
        return False
    return any(
        isinstance(slot, dict) and isinstance(slot.get("prompt"), str) and head in slot["prompt"]
        for slot in slots
    )


def server_busy(base_url: str, timeout: float = DEFAULT_TIMEOUT_S) -> bool | None:
    """Whether a llama.cpp server on this machine is working on a request now (`GET /slots`:
    a slot `is_processing`; its other slots share the same threads, so one busy slot slows
    every request); None when it does not say (another server, a remote one, `--no-slots`).
    A one-thread server goes on reading a prompt whose client gave up until the prompt's
    batch is read, so a request sent then waits behind it."""
    address = _local_address(base_url)
    slots = _get_json(*address, "/slots", timeout) if address is not None else None
    if not isinstance(slots, list):
        return None
    said = [slot["is_processing"] for slot in slots if isinstance(slot, dict)]
    if not said or not all(isinstance(flag, bool) for flag in said):
        return None
    return any(said)


def _local_address(base_url: str) -> tuple[str, int] | None:
    """The host and port of a plain-HTTP server on this machine; None for any other URL."""
    parts = urlsplit(base_url)
    if parts.scheme != "http" or not parts.hostname or not is_loopback_host(parts.hostname):
        return None
    try:
        return parts.hostname, parts.port or 80
    except ValueError:
        return None


def _get_json(
    host: str, port: int, path: str, timeout: float, body: Any | None = None
) -> Any | None:
    """The JSON a GET (a POST of `body` as JSON, when given) answers with status 200, else
    None (refused, timed out, not JSON, or not all there within REQUEST_DEADLINE_TIMEOUTS ×
    `timeout`)."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    deadline = threading.Timer(timeout * REQUEST_DEADLINE_TIMEOUTS, _cut, (connection,))
    deadline.daemon = True
    deadline.start()
    try:
        headers = {"Accept": "application/json"}
        if body is None:
            connection.request("GET", path, headers=headers)
        else:
            headers["Content-Type"] = "application/json"
            connection.request("POST", path, json.dumps(body).encode(), headers=headers)
        response = connection.getresponse()
        if response.status != 200:
            return None
        body = response.read(MAX_RESPONSE_BYTES + 1)
        if len(body) > MAX_RESPONSE_BYTES:
            return None
        return parse_json(body)  # never a RecursionError, however deep
    except (OSError, http.client.HTTPException, ValueError):
        return None
    finally:
        deadline.cancel()
        connection.close()


def _cut(connection: http.client.HTTPConnection) -> None:
    """End a request at its deadline: the read waiting on the socket returns at once."""
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _model_names(document: Any) -> tuple[str, ...] | None:
    """The model names of an Ollama `/api/tags` (`models[].name`) or an OpenAI
    `/v1/models` (`data[].id`) answer; None when it is neither."""
    if not isinstance(document, dict):
        return None
    for key, field in (("models", "name"), ("data", "id")):
        entries = document.get(key)
        if isinstance(entries, list):
            names = [
                entry[field]
                for entry in entries[:MAX_MODELS]
                if isinstance(entry, dict) and isinstance(entry.get(field), str) and entry[field]
            ]
            if names or not entries:
                return tuple(dict.fromkeys(names))
    return None
