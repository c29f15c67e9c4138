"""A loopback model server for tests: real HTTP on 127.0.0.1, scripted replies, both wire formats.

The real httpx2 transport runs against it; nothing is monkeypatched. Script replies in the
order the client will ask for them, run the code under test, then assert on
`server.requests`::

    def test_consolidation(fake_model_server):
        fake_model_server.add_anthropic_reply(tool_calls=[("memory", {"command": "view"})])
        fake_model_server.add_anthropic_reply(text="no changes needed")
        provider = AnthropicProvider("claude-x", "sk-test", fake_model_server.anthropic_base_url)
        ...
        [result] = tool_result_blocks(fake_model_server.requests[1].body)

A request the script does not cover gets HTTP 500 "no scripted reply" so the test fails loudly.
A scripted reply for one wire format answered to the other format's path is a 500 too.
`delay=` holds a reply back; closing the server releases every held request at once, so
teardown never hangs on a client that gave up waiting. A test of a cancel or a timeout
waits for the request to arrive (`wait_for_requests`) instead of sleeping, and checks that
the client gave up before the reply went out (`replies_sent`) instead of timing it.

Also usable without pytest: `with FakeModelServer() as server: ...`. Loaded by tests/conftest.py
as a plugin, which provides the `fake_model_server` fixture.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal

import pytest

Wire = Literal["anthropic", "openai"]
# ("name", arguments) or ("name", arguments, "call id"); OpenAI arguments may be a raw string.
ToolCallSpec = tuple[str, Any] | tuple[str, Any, str]

ANTHROPIC_PATH = "/v1/messages"
OPENAI_PATH = "/v1/chat/completions"
_WIRE_PATHS: dict[Wire, str] = {"anthropic": ANTHROPIC_PATH, "openai": OPENAI_PATH}


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it. Header names are lower-cased."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # the parsed JSON body, or None when it was not JSON
    raw_body: bytes


@dataclass
class ScriptedResponse:
    """One scripted answer: status, body, headers, an optional delay and wire-format check.

    `respond`, when set, builds the answer from the request instead (for replies that
    depend on what the client sent).
    """

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    wire: Wire | None = None
    respond: Callable[[RecordedRequest], ScriptedResponse] | None = None


# --- wire-format reply builders (also handy inside `add_callback` responders) -------------------


def anthropic_message(
    text: str = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    usage: tuple[int, int] | None = (10, 5),
    stop_reason: str | None = None,
    message_id: str = "msg_fake",
) -> dict[str, Any]:
    """An Anthropic Messages reply body. Tool calls without an id get `toolu_<id>_<n>`."""
    content: list[dict[str, Any]] = []
    if text:
        content.append({"type": "text", "text": text})
    for index, spec in enumerate(tool_calls):
        name, arguments = spec[0], spec[1]
        call_id = spec[2] if len(spec) > 2 else f"toolu_{message_id}_{index}"
        content.append({"type": "tool_use", "id": call_id, "name": name, "input": arguments})
    body: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": "fake-model",
        "content": content,
        "stop_reason": stop_reason or ("tool_use" if tool_calls else "end_turn"),
        "stop_sequence": None,
    }
    if usage is not None:
        body["usage"] = {"input_tokens": usage[0], "output_tokens": usage[1]}
    return body


def openai_completion(
    text: str | None = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    usage: tuple[int, int] | None = (10, 5),
    finish_reason: str | None = None,
    completion_id: str = "chatcmpl-fake",
    with_ids: bool = True,
) -> dict[str, Any]:
    """A Chat Completions reply body. Arguments given as a dict are JSON-encoded; a string
    is sent as-is (so tests can send malformed JSON). `text=None` sends `content: null`;
    `with_ids=False` omits the tool call ids as some local servers do."""
    calls: list[dict[str, Any]] = []
    for index, spec in enumerate(tool_calls):
        name, arguments = spec[0], spec[1]
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": raw}}
        if with_ids:
            call["id"] = spec[2] if len(spec) > 2 else f"call_{completion_id}_{index}"
        calls.append(call)
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = calls
    body: dict[str, Any] = {
        "id": completion_id,
        "object": "chat.completion",
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
    }
    if usage is not None:
        body["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": usage[0] + usage[1],
        }
    return body


def json_response(
    payload: Any,
    status: int = 200,
    *,
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
    wire: Wire | None = None,
) -> ScriptedResponse:
    """A scripted JSON answer."""
    return ScriptedResponse(
        status=status,
        body=json.dumps(payload).encode(),
        headers=dict(headers or {}),
        delay_s=delay,
        wire=wire,
    )


_INFO_PATHS = (
    "/props",
    "/slots",
    "/completion",
    "/api/show",
    "/api/ps",
    "/api/v0/models/",
    "/version",
)


class _Server(ThreadingHTTPServer):
    # Handler threads are joined on close; held (delayed) requests are released first.
    daemon_threads = False
    block_on_close = True

    def __init__(self, owner: FakeModelServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.owner = owner


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"  # one request per connection: no idle keep-alive threads
    timeout = 10  # a client that never finishes sending cannot hold a thread forever

    def do_POST(self) -> None:
        if not self.server.owner._answer_info(self):
            self.server.owner._serve(self)

    def do_GET(self) -> None:
        if not self.server.owner._answer_info(self):
            self.server.owner._serve(self)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests assert on `requests`, not on stderr."""


class FakeModelServer:
    """A scripted Anthropic/OpenAI-compatible model server on 127.0.0.1 (a free port)."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.routes: dict[str, Any] = {}
        """What a server's own API answers at a path, GET or POST, never a request of the
        script: llama.cpp's /props, /slots and /completion, Ollama's /api/show and /api/ps,
        LM Studio's /api/v0/models/{model}, vLLM's /version (404 unless set), and /v1/models
        when set."""
        self._script: deque[ScriptedResponse] = deque()
        self._always: ScriptedResponse | None = None
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)  # notified on each request
        self._closing = threading.Event()
        self._counter = 0
        self._replies_sent = 0
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="fake-model-server",
            daemon=True,
        )
        self._thread.start()

    # --- addresses -----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>`."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def anthropic_base_url(self) -> str:
        """Base URL for AnthropicProvider (it appends /v1/messages)."""
        return self.base_url

    @property
    def openai_base_url(self) -> str:
        """Base URL for OpenAIProvider (it appends /chat/completions)."""
        return self.base_url + "/v1"

    # --- scripting -------------------------------------------------------------------------

    def add_anthropic_reply(
        self,
        text: str = "",
        tool_calls: Sequence[ToolCallSpec] = (),
        *,
        usage: tuple[int, int] | None = (10, 5),
        stop_reason: str | None = None,
        delay: float = 0.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Script an Anthropic Messages reply. `tool_calls`: `[("memory", {...}), ...]`."""
        body = anthropic_message(
            text, tool_calls, usage=usage, stop_reason=stop_reason, message_id=self._next_id("msg")
        )
        self.add(json_response(body, headers=headers, delay=delay, wire="anthropic"))

    def add_openai_reply(
        self,
        text: str | None = "",
        tool_calls: Sequence[ToolCallSpec] = (),
        *,
        usage: tuple[int, int] | None = (10, 5),
        finish_reason: str | None = None,
        with_ids: bool = True,
        delay: float = 0.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Script a Chat Completions reply. `tool_calls`: `[("memory", '{"raw": 1}' or {...})]`."""
        body = openai_completion(
            text,
            tool_calls,
            usage=usage,
            finish_reason=finish_reason,
            completion_id=self._next_id("chatcmpl"),
            with_ids=with_ids,
        )
        self.add(json_response(body, headers=headers, delay=delay, wire="openai"))

    def add_error(
        self,
        status: int,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        *,
        delay: float = 0.0,
    ) -> None:
        """Script an error reply on any path. `body`: JSON data, a str (sent as text/plain),
        or None for `{"error": {"type": "fake_error", "message": "fake HTTP <status>"}}`."""
        if isinstance(body, str):
            self.add_raw(body.encode(), status=status, headers=headers, delay=delay)
            return
        payload = (
            body
            if body is not None
            else {"error": {"type": "fake_error", "message": f"fake HTTP {status}"}}
        )
        self.add(json_response(payload, status, headers=headers, delay=delay))

    def add_raw(
        self,
        body: bytes,
        *,
        status: int = 200,
        content_type: str = "text/plain",
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Script a reply of arbitrary bytes (e.g. not JSON) on any path."""
        self.add(
            ScriptedResponse(
                status=status,
                body=body,
                content_type=content_type,
                headers=dict(headers or {}),
                delay_s=delay,
            )
        )

    def add_json(
        self,
        payload: Any,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Script an arbitrary JSON reply on any path (e.g. a wrong-shaped one)."""
        self.add(json_response(payload, status, headers=headers, delay=delay))

    def add_callback(self, respond: Callable[[RecordedRequest], ScriptedResponse]) -> None:
        """Script a reply computed from the request (see `json_response`, `anthropic_message`)."""
        self.add(ScriptedResponse(respond=respond))

    def respond_always(self, respond: Callable[[RecordedRequest], ScriptedResponse]) -> None:
        """Answer every request the script does not cover with `respond` (a stand-in model
        that answers by what it is asked, however many calls)."""
        with self._lock:
            self._always = ScriptedResponse(respond=respond)

    def add(self, response: ScriptedResponse) -> None:
        """Append one scripted response."""
        with self._lock:
            self._script.append(response)

    @property
    def pending(self) -> int:
        """Scripted responses not yet used."""
        with self._lock:
            return len(self._script)

    @property
    def replies_sent(self) -> int:
        """Replies the server has started to send (a held one counts once its delay is over)."""
        with self._lock:
            return self._replies_sent

    def wait_for_requests(self, count: int, timeout_s: float = 10.0) -> bool:
        """Block until `count` requests have arrived (True) or `timeout_s` passed (False)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= count, timeout_s)

    def assert_all_used(self) -> None:
        """Fail when some scripted responses were never requested."""
        remaining = self.pending
        assert remaining == 0, f"{remaining} scripted replies were never requested"

    def bodies(self) -> list[Any]:
        """The JSON bodies of every request so far."""
        return [request.body for request in self.requests]

    # --- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Release held requests, stop serving and join every thread."""
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeModelServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # --- serving (handler threads) -----------------------------------------------------------

    def _next_id(self, prefix: str) -> str:
        with self._lock:
            self._counter += 1
            return f"{prefix}_fake_{self._counter}"

    def _serve(self, handler: _Handler) -> None:
        request = self._record(handler)
        with self._lock:
            scripted = self._script.popleft() if self._script else self._always
            number = len(self.requests)
        response = self._resolve(scripted, request, number)
        if response.delay_s and self._closing.wait(response.delay_s):
            return  # closing: drop the connection unanswered
        with self._lock:
            self._replies_sent += 1
        try:
            handler.send_response(response.status)
            handler.send_header("Content-Type", response.content_type)
            handler.send_header("Content-Length", str(len(response.body)))
            for name, value in response.headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(response.body)
        except OSError:
            pass  # the client gave up (cancelled or timed out)

    @property
    def props(self) -> Any:
        """What `GET /props` answers (llama.cpp's server properties); None: 404."""
        return self.routes.get("/props")

    @props.setter
    def props(self, value: Any) -> None:
        self.routes["/props"] = value

    def _answer_info(self, handler: _Handler) -> bool:
        """Answer a request of a server's own API (`routes`); False for one of the script."""
        path = handler.path
        if path not in self.routes and not path.startswith(_INFO_PATHS):
            return False
        length = int(handler.headers.get("Content-Length") or 0)
        if length:
            handler.rfile.read(length)
        answer = self.routes.get(path)
        body = json.dumps(answer).encode()
        handler.send_response(404 if answer is None else 200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
        return True

    def _record(self, handler: _Handler) -> RecordedRequest:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest(
            method=handler.command,
            path=handler.path,
            headers={name.lower(): value for name, value in handler.headers.items()},
            body=body,
            raw_body=raw,
        )
        with self._arrived:
            self.requests.append(request)
            self._arrived.notify_all()
        return request

    @staticmethod
    def _resolve(
        scripted: ScriptedResponse | None, request: RecordedRequest, number: int
    ) -> ScriptedResponse:
        where = f"{request.method} {request.path} (request #{number})"
        if scripted is None:
            return _fake_failure(f"fake model server: no scripted reply for {where}")
        if scripted.respond is not None:
            return scripted.respond(request)
        expected_path = _WIRE_PATHS.get(scripted.wire) if scripted.wire else None
        if expected_path is not None and request.path != expected_path:
            return _fake_failure(
                f"fake model server: a {scripted.wire} reply was scripted ({expected_path}) "
                f"but the client sent {where}"
            )
        return scripted


def cancel_once_asked(server: FakeModelServer, requests: int = 1) -> threading.Event:
    """A cancel event that is set once the server has received `requests` requests: the
    client is then waiting for the reply (a held one, `delay=`), which it must give up."""
    cancel = threading.Event()

    def set_when_asked() -> None:
        if server.wait_for_requests(requests):
            cancel.set()

    threading.Thread(target=set_when_asked, name="cancel-once-asked", daemon=True).start()
    return cancel


def _fake_failure(message: str) -> ScriptedResponse:
    # retry-after: 0 so a retrying client fails fast instead of backing off.
    payload = {"error": {"type": "fake_model_server", "message": message}}
    return json_response(payload, 500, headers={"retry-after": "0"})


def tool_result_blocks(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every Anthropic `tool_result` block in a request body, in order."""
    return [
        block
        for message in body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]


def tool_messages(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every OpenAI `role: tool` message in a request body, in order."""
    return [message for message in body.get("messages", []) if message.get("role") == "tool"]


@pytest.fixture
def fake_model_server() -> Iterator[FakeModelServer]:
    """A running FakeModelServer, closed (threads joined) after the test."""
    with FakeModelServer() as server:
        yield server
