"""Test connection: one small real request, and its outcome in plain words."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from dataclasses import replace

import httpx2
import pytest

from memtab.llm.http import HttpOptions
from memtab.llm.probe import (
    PROBE_MAX_TOKENS,
    PROBE_PROMPT,
    PROBE_TOOL,
    probe_options,
    probe_provider,
)
from memtab.llm.settings import ProviderSettings
from support.fake_model_server import FakeModelServer, cancel_once_asked
from support.ports import refused_port
from support.self_signed import self_signed_https_server

KEY = "sk-ant-probe-0123456789abcdef"


def anthropic_at(url: str, key: str | None = KEY) -> ProviderSettings:
    return ProviderSettings("anthropic", "claude-test", url, key)


def openai_at(url: str, key: str | None = None) -> ProviderSettings:
    return ProviderSettings("openai", "llama3.1:8b", url, key)


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 nothing listens on."""
    with refused_port() as port:
        yield port


def test_success_names_the_model_that_answered_the_latency_and_its_tool_call(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.add_anthropic_reply(tool_calls=[("report_ready", {"status": "ready"})])
    result = probe_provider(anthropic_at(fake_model_server.anthropic_base_url))
    assert result.ok and result.served_model == "fake-model" and result.tool_use == "made"
    assert result.latency_ms is not None and result.latency_ms >= 0
    assert result.summary == (
        f"Connected: fake-model answered in {result.latency_ms} ms; it calls tools"
    )
    # One small request: the prompt, the one tool, a low token limit, the key in its header.
    [request] = fake_model_server.requests
    assert request.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": PROBE_PROMPT}]}
    ]
    assert [tool["name"] for tool in request.body["tools"]] == [PROBE_TOOL.name]
    assert request.body["max_tokens"] == PROBE_MAX_TOKENS
    assert request.headers["x-api-key"] == KEY


def test_an_openai_compatible_request_is_the_one_a_run_sends(
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.add_openai_reply(tool_calls=[("report_ready", {"status": "ready"})])
    result = probe_provider(openai_at(fake_model_server.openai_base_url))
    assert result.ok and result.tool_use == "made", result.summary
    [request] = fake_model_server.requests
    assert request.body == {
        "model": "llama3.1:8b",
        "messages": [{"role": "user", "content": PROBE_PROMPT}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": PROBE_TOOL.name,
                    "description": PROBE_TOOL.description,
                    "parameters": PROBE_TOOL.input_schema,
                },
            }
        ],
        "max_tokens": PROBE_MAX_TOKENS,
        "temperature": 0.0,
    }
    assert "authorization" not in request.headers


@pytest.mark.parametrize(
    ("reply", "use", "words"),
    [
        (
            '```json\n{"name": "report_ready", "arguments": {"status": "ready"}}\n```',
            "written",
            "it writes its tool calls as text, which Memtab takes",
        ),
        (
            '{"name": "report_ready", "arguments": {"status": "done"}}',
            "invalid",
            "it called the tool with arguments the tool does not take",
        ),
        ("OK", "none", "it answered without calling the tool it was asked to call"),
    ],
)
def test_what_the_model_did_with_the_tool_is_said(
    fake_model_server: FakeModelServer, reply: str, use: str, words: str
) -> None:
    """A small local model writes its call as text; the test says whether Memtab can take
    it — the request to call a tool is what `doctor --check-provider` checks."""
    fake_model_server.add_openai_reply(text=reply)
    result = probe_provider(openai_at(fake_model_server.openai_base_url))
    assert result.ok and result.tool_use == use
    assert words in result.summary


@pytest.mark.parametrize(
    ("status", "kind", "headline"),
    [
        (401, "auth", "The API key was refused: the server refused the credentials (HTTP 401)"),
        (403, "auth", "The API key was refused: the server refused the credentials (HTTP 403)"),
        (404, "not_found", "Unknown model or wrong base URL: not found (HTTP 404)"),
        (400, "bad_request", "The server refused the request: "),
    ],
)
def test_refusals_in_plain_words(
    fake_model_server: FakeModelServer, status: int, kind: str, headline: str
) -> None:
    fake_model_server.add_error(status, {"error": {"type": "x", "message": f"echoing {KEY} back"}})
    result = probe_provider(anthropic_at(fake_model_server.anthropic_base_url))
    assert not result.ok and result.error_kind == kind
    assert result.summary.startswith(headline), result.summary
    assert KEY not in result.summary and KEY not in (result.detail or "")
    assert "anthropic claude-test at http://127.0.0.1" in (result.detail or "")
    assert len(fake_model_server.requests) == 1  # no retries


def test_a_server_error_is_not_retried(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_error(503)
    result = probe_provider(anthropic_at(fake_model_server.anthropic_base_url))
    assert result.summary == "The server failed: server error (HTTP 503): fake HTTP 503"
    assert len(fake_model_server.requests) == 1


def test_connection_refused(closed_port: int) -> None:
    result = probe_provider(openai_at(f"http://127.0.0.1:{closed_port}/v1"))
    assert result.error_kind == "connection"
    assert result.summary == (
        f"Cannot connect: connection refused by 127.0.0.1:{closed_port}; is the server running?"
    )


def test_tls_to_a_server_that_does_not_speak_it(fake_model_server: FakeModelServer) -> None:
    # A real handshake against the plain-http fake server fails on the first record.
    url = fake_model_server.openai_base_url.replace("http://", "https://")
    result = probe_provider(openai_at(url))
    assert result.error_kind == "connection"
    assert result.summary.startswith("Cannot connect: TLS error with 127.0.0.1:"), result.summary
    assert result.summary.endswith("is it an https server?")


def _failing_transport(error: Exception) -> httpx2.MockTransport:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError(str(error), request=request) from error

    return httpx2.MockTransport(handler)


def test_an_untrusted_certificate() -> None:
    bad = ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] self-signed")
    bad.verify_message = "self-signed certificate"
    options = replace(probe_options(), transport=_failing_transport(bad))
    result = probe_provider(anthropic_at("https://llm.example.test"), options=options)
    assert result.summary == (
        "Cannot connect: TLS error: the certificate of llm.example.test:443 is not trusted "
        "(self-signed certificate)"
    )


def test_a_self_signed_certificate_is_refused_in_the_handshake() -> None:
    """A real handshake: httpx2 checks the certificate against the system's trust store,
    where a self-signed one is not, and nothing is sent."""
    with self_signed_https_server() as url:
        result = probe_provider(openai_at(f"{url}/v1"))
    port = url.rsplit(":", 1)[1]
    assert result.error_kind == "connection"
    assert result.summary.startswith(
        f"Cannot connect: TLS error: the certificate of 127.0.0.1:{port} is not trusted (self"
    ), result.summary


def test_an_unknown_host() -> None:
    missing = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    options = replace(probe_options(), transport=_failing_transport(missing))
    result = probe_provider(anthropic_at("https://llm.example.test"), options=options)
    assert result.summary == (
        "Cannot connect: the host llm.example.test was not found (Name or service not known)"
    )


def test_a_timeout(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_anthropic_reply(text="late", delay=2.0)
    settings = anthropic_at(fake_model_server.anthropic_base_url)
    result = probe_provider(settings, options=probe_options(timeout_s=0.1))
    assert result.error_kind == "timeout"
    assert result.summary == (
        "No answer in time: no reply within 0.1 s, the time limit of one request"
    )


def test_a_test_is_cancellable(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_anthropic_reply(text="late", delay=10.0)
    cancel = cancel_once_asked(fake_model_server)
    result = probe_provider(anthropic_at(fake_model_server.anthropic_base_url), cancel=cancel)
    assert result.error_kind == "cancelled" and result.summary.startswith("Cancelled")
    assert fake_model_server.replies_sent == 0, "the reply was not waited for"


def test_plain_http_to_another_machine_is_refused_before_anything_is_sent() -> None:
    result = probe_provider(openai_at("http://192.168.1.20:11434/v1"))
    assert result.error_kind == "config" and result.latency_ms is None
    assert result.summary.startswith("Not tested: the base URL 'http://192.168.1.20:11434/v1'")
    assert "plain http://" in result.summary


def test_a_missing_key_is_said_before_anything_is_sent() -> None:
    result = probe_provider(anthropic_at("https://api.anthropic.com", key=None))
    assert result.error_kind == "config" and "no API key" in result.summary


def test_offline_has_nothing_to_test() -> None:
    result = probe_provider(ProviderSettings("offline", "offline", ""))
    assert result.ok and "nothing to test" in result.summary


def test_probe_options_never_retry() -> None:
    assert probe_options().max_retries == 0
    assert probe_options(timeout_s=2).connect_timeout_s == 2
    assert isinstance(probe_options(), HttpOptions)
