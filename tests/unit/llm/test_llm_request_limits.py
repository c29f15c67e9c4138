"""Each request's own limits: a whole-request deadline however slowly the reply comes, a
reply size cap, a connection shut when a request is given up (the server stops computing
for it), a reply limit in every request, and the loop saying which limit stopped a run."""

from __future__ import annotations

import socket
import threading
from dataclasses import replace

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpChatProvider, HttpOptions
from memtab.llm.loop import run_tool_loop
from memtab.llm.openai import OpenAIProvider
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ProviderError, ToolOutcome, UserMessage
from memtab.trust.judge import make_provider
from support.raw_server import RawServer

from .cases import ANTHROPIC_KEY, FAST_OPTIONS

DRIP_S = 0.05
HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
LIMITED = replace(FAST_OPTIONS, timeout_s=0.6, max_retries=0)
MAX_SENT = 32 * 1024 * 1024  # what the endless server sends at most, then holds


def _drip(connection: socket.socket, server: RawServer) -> None:
    """A reply that never ends: a byte every DRIP_S, each well within any read timeout."""
    server.send(connection, HEAD + b"\r\n{")
    while not server.stop.wait(DRIP_S):
        server.send(connection, b" ")


def _endless(connection: socket.socket, server: RawServer) -> None:
    """A reply of spaces as fast as the client takes them (up to MAX_SENT, then held)."""
    server.send(connection, HEAD + b"\r\n")
    chunk = b" " * 65536
    while server.sent < MAX_SENT and not server.stop.is_set():
        server.send(connection, chunk)
    server.wait_for_hang_up(connection)


def _declared_huge(connection: socket.socket, server: RawServer) -> None:
    server.send(connection, HEAD + b"content-length: 600000000\r\n\r\n{")
    server.wait_for_hang_up(connection)


def _held(connection: socket.socket, server: RawServer) -> None:
    """A server thinking for ever, until the client hangs up."""
    server.wait_for_hang_up(connection)


def _openai(server: RawServer, options: HttpOptions = LIMITED) -> OpenAIProvider:
    return OpenAIProvider("m", None, server.base_url + "/v1", options=options)


def _fail(provider: HttpChatProvider, cancel: threading.Event | None = None) -> ProviderError:
    with provider, pytest.raises(ProviderError) as caught:
        provider.complete("", [UserMessage("hi")], [], cancel=cancel)
    return caught.value


@pytest.mark.timeout(30)
def test_a_reply_dripped_a_byte_at_a_time_ends_at_the_request_deadline() -> None:
    options = replace(LIMITED, timeout_hint="request_timeout_s in settings.json raises it")
    with RawServer(_drip) as server:
        error = _fail(_openai(server, options))
        assert error.kind == "timeout"
        assert error.detail == (
            "no reply within 0.6 s, the time limit of one request; "
            "request_timeout_s in settings.json raises it"
        )
        assert server.hung_up.wait(5), "the connection was shut when the request was given up"


@pytest.mark.timeout(60)
def test_a_reply_past_the_size_cap_is_refused_as_it_arrives() -> None:
    options = replace(LIMITED, timeout_s=30.0, max_reply_bytes=1024 * 1024)
    with RawServer(_endless) as server:
        error = _fail(_openai(server, options))
        assert error.kind == "protocol"
        assert error.detail == "the reply is larger than 1 MiB; it was not read further"
        assert server.hung_up.wait(5)
        assert server.sent < MAX_SENT, "reading stopped at the cap, not at the reply's end"


@pytest.mark.timeout(30)
def test_a_reply_that_says_it_is_past_the_cap_is_not_read() -> None:
    options = replace(LIMITED, timeout_s=10.0, max_reply_bytes=1024 * 1024)
    with RawServer(_declared_huge) as server:
        error = _fail(_openai(server, options))
        assert error.kind == "protocol" and "larger than 1 MiB" in error.detail
        assert server.hung_up.wait(5)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("how", ["cancelled", "deadline"])
def test_a_request_given_up_shuts_its_connection(how: str) -> None:
    """llama.cpp's server stops generating for a request whose connection closed: a
    request we gave up must not leave it computing, nor the next run waiting."""
    cancel = threading.Event()
    options = replace(LIMITED, timeout_s=60.0 if how == "cancelled" else 0.3)
    with RawServer(_held) as server:
        if how == "cancelled":
            threading.Thread(target=lambda: (_arrived(server), cancel.set()), daemon=True).start()
        error = _fail(_openai(server, options), cancel)
        assert error.kind == ("cancelled" if how == "cancelled" else "timeout")
        assert server.hung_up.wait(5), "the server saw the connection close"


def _arrived(server: RawServer) -> None:
    while not server.requests and not server.stop.wait(0.01):
        pass


def test_every_request_carries_a_reply_limit() -> None:
    openai = OpenAIProvider("m", None, "http://127.0.0.1:9/v1", 333)
    official = OpenAIProvider("gpt-x", "sk-test", "https://api.openai.com/v1", 444)
    anthropic = AnthropicProvider("c", ANTHROPIC_KEY, "https://api.anthropic.com", 555)
    with openai, official, anthropic:
        assert openai.build_request("", [UserMessage("hi")], [])["max_tokens"] == 333
        # OpenAI's own API refuses `max_tokens` for its reasoning models.
        body = official.build_request("", [UserMessage("hi")], [])
        assert body["max_completion_tokens"] == 444 and "max_tokens" not in body
        assert anthropic.build_request("", [UserMessage("hi")], [])["max_tokens"] == 555
    with OpenAIProvider("m", None, "http://127.0.0.1:9/v1") as default:
        assert default.build_request("", [UserMessage("hi")], [])["max_tokens"] == 4096


class _TimingOut:
    """A provider whose request hits its own limit."""

    name = "openai"
    model = "m"

    def complete(self, *args: object, **kwargs: object) -> object:
        raise ProviderError(
            "timeout",
            "No reply within 1800 s, the time limit of one request; request_timeout_s in "
            "settings.json raises it (openai m at http://127.0.0.1:8080/v1)",
            "no reply within 1800 s, the time limit of one request; request_timeout_s in "
            "settings.json raises it",
        )


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"^tool loop stopped at step 1: No reply")
def test_a_request_past_its_own_limit_stops_the_run_as_timed_out_naming_that_limit() -> None:
    result = run_tool_loop(
        _TimingOut(),  # type: ignore[arg-type]
        "",
        [UserMessage("go")],
        [],
        lambda call: ToolOutcome(call.id, ""),
        timeout_s=900,
    )
    assert result.stop_reason == "timeout" and result.error is not None
    assert result.detail == (
        "timed out: no reply within 1800 s, the time limit of one request; "
        "request_timeout_s in settings.json raises it (step 1)"
    )


def test_the_runs_own_limit_is_named_with_what_raises_it() -> None:
    gone = threading.Event()
    gone.set()
    result = run_tool_loop(
        _TimingOut(),  # type: ignore[arg-type]
        "",
        [UserMessage("go")],
        [],
        lambda call: ToolOutcome(call.id, ""),
        timeout_s=0,
        timeout_hint="writer.timeout_s raises it",
        run_limit_s=900,
    )
    assert result.stop_reason == "timeout" and result.error is None
    assert result.detail == (
        "timed out after 900 s, the run's time limit; writer.timeout_s raises it (step 0)"
    )


def test_the_judge_asks_at_temperature_zero_and_a_server_refusing_it_is_asked_without() -> None:
    """A sampled verdict differs run to run (a small model passed its control pairs in one run
    and failed them the next): the trust judge asks at temperature 0, as every job made by
    `create_provider` does; a provider made without one sends none, and a server that
    refuses the parameter (OpenAI's reasoning models) is asked again without."""
    hi = [UserMessage("hi")]
    judge = make_provider(ProviderSettings("openai", "judge-1", base_url="http://127.0.0.1:9"), 99)
    writer = OpenAIProvider("m", None, "http://127.0.0.1:9/v1", 333)
    anthropic = AnthropicProvider("c", ANTHROPIC_KEY, "https://api.anthropic.com", 5, temperature=0)
    with judge, writer, anthropic:
        assert isinstance(judge, OpenAIProvider)
        assert judge.build_request("", hi, [])["temperature"] == 0.0
        assert "temperature" not in writer.build_request("", hi, [])
        assert anthropic.build_request("", hi, [])["temperature"] == 0
        refusal = ProviderError("bad_request", "judge-1: refused", "'temperature' is unsupported")
        assert judge._refused_part(refusal, "", hi, []) == "temperature"
        judge._refused.add("temperature")
        assert "temperature" not in judge.build_request("", hi, [])
