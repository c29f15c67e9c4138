"""Both providers against the fake server: replies, retries, errors, timeouts, cancellation."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator

import httpx2
import pytest

from memtab.llm.http import HttpChatProvider, ProviderHttpClient
from memtab.llm.types import Message, ProviderError, UserMessage
from support.fake_model_server import FakeModelServer, cancel_once_asked
from support.ports import refused_port
from support.self_signed import self_signed_https_server

from .cases import ProviderCase

HELLO: list[Message] = [UserMessage("hello")]


def _fail(provider: HttpChatProvider, **kwargs: object) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        provider.complete("system", HELLO, [], **kwargs)  # type: ignore[arg-type]
    return caught.value


@contextlib.contextmanager
def cancelled_on_retry(cancel: threading.Event) -> Iterator[None]:
    """Set `cancel` as the provider says it will retry: just before it starts waiting."""

    class OnRetry(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "retrying in" in record.getMessage():
                cancel.set()

    handler = OnRetry()
    http_log = logging.getLogger("memtab.llm.http")
    http_log.addHandler(handler)
    try:
        yield
    finally:
        http_log.removeHandler(handler)


def _assert_names_endpoint(error: ProviderError, case: ProviderCase) -> None:
    assert case.wire in error.message
    assert case.model in error.message
    assert case.server.base_url in error.message
    assert case.key not in error.message
    assert case.key not in str(error)


def test_text_reply(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.add_reply("Hi there.", usage=(12, 3))

    reply = provider.complete("Be brief.", HELLO, [])

    assert reply.text == "Hi there."
    assert reply.tool_calls == ()
    assert reply.stop_reason in ("end_turn", "stop")
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (12, 3)
    [request] = case.server.requests
    assert request.method == "POST"
    assert request.body["model"] == case.model


def test_anthropic_headers(anthropic: HttpChatProvider, fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_anthropic_reply("ok")
    anthropic.complete("", HELLO, [])
    [request] = fake_model_server.requests
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"].startswith("sk-ant-test-SECRET")
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers


def test_openai_headers(openai: HttpChatProvider, fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_openai_reply("ok")
    openai.complete("", HELLO, [])
    [request] = fake_model_server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"].startswith("Bearer sk-test-SECRET")
    assert "x-api-key" not in request.headers


@pytest.mark.expect_log(
    "memtab.llm.http", "WARNING", r"rate limited \(HTTP 429\).*; retrying in 0\.1 s \("
)
def test_429_with_retry_after_is_honored_then_succeeds(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.server.add_error(429, headers={"retry-after": "0.1"})
    case.add_reply("after the wait")

    reply = provider.complete("", HELLO, [])

    assert reply.text == "after the wait"
    assert len(case.server.requests) == 2


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"rate limited \(HTTP 429\).*; retrying in")
def test_rate_limited_after_the_bound(case: ProviderCase, provider: HttpChatProvider) -> None:
    for _ in range(3):
        case.server.add_error(429, headers={"retry-after": "0"})

    error = _fail(provider)

    assert error.kind == "rate_limited"
    assert "3 attempts" in error.message
    _assert_names_endpoint(error, case)


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"server error \(HTTP 500\).*; retrying in")
def test_server_errors_until_the_bound(case: ProviderCase, provider: HttpChatProvider) -> None:
    for _ in range(3):  # max_retries=2 → 3 attempts
        case.server.add_error(500, {"error": {"message": "overloaded, sorry"}})
    case.add_reply("never reached")

    error = _fail(provider)

    assert error.kind == "server"
    assert "gave up after 3 attempts" in error.message
    assert "overloaded, sorry" in error.message
    assert "HTTP 500" in error.message
    assert len(case.server.requests) == 3
    _assert_names_endpoint(error, case)


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"server error \(HTTP 503\).*; retrying in")
def test_a_server_error_then_success_is_retried(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.server.add_error(503)
    case.add_reply("recovered")
    assert provider.complete("", HELLO, []).text == "recovered"


def test_request_timeout(case: ProviderCase) -> None:
    case.add_reply("too late", delay=5)
    with case.make(timeout_s=0.1) as provider:
        error = _fail(provider)
    assert error.kind == "timeout"
    assert case.server.replies_sent == 0, "the reply was not waited for"
    assert len(case.server.requests) == 1  # a read timeout is not retried
    _assert_names_endpoint(error, case)


def test_auth_error_names_endpoint_not_key(case: ProviderCase, provider: HttpChatProvider) -> None:
    # Servers sometimes echo the key back; it must not reach our message either.
    case.server.add_error(401, {"error": {"message": f"invalid key {case.key}"}})

    error = _fail(provider)

    assert error.kind == "auth"
    assert "HTTP 401" in error.message
    assert "[REDACTED_SECRET]" in error.message
    assert len(case.server.requests) == 1
    _assert_names_endpoint(error, case)


def test_forbidden_is_auth(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.server.add_error(403)
    assert _fail(provider).kind == "auth"


def test_not_found(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.server.add_error(404, {"error": {"message": "model 'gpt-test' not found"}})

    error = _fail(provider)

    assert error.kind == "not_found"
    assert "model 'gpt-test' not found" in error.message
    assert "base URL" in error.message
    _assert_names_endpoint(error, case)


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (
            400,
            {"type": "error", "error": {"type": "invalid_request_error", "message": "bad tools"}},
            "bad tools",
        ),
        (400, {"error": "model does not support tools"}, "model does not support tools"),
        (
            422,
            {"detail": [{"loc": ["body", "messages"], "msg": "field required"}]},
            "field required",
        ),
        (400, "plain text complaint", "plain text complaint"),
    ],
)
def test_bad_request_includes_server_message(
    case: ProviderCase, provider: HttpChatProvider, status: int, body: object, expected: str
) -> None:
    case.server.add_error(status, body)

    error = _fail(provider)

    assert error.kind == "bad_request"
    assert f"HTTP {status}" in error.message
    assert expected in error.message
    _assert_names_endpoint(error, case)


def test_non_json_reply_is_protocol_error(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.server.add_raw(b"<html>proxy login</html>", content_type="text/html")
    error = _fail(provider)
    assert error.kind == "protocol"
    assert "not JSON" in error.message
    assert "proxy login" in error.message


@pytest.mark.parametrize("payload", [[1, 2], {"unexpected": True}, {"content": "text"}])
def test_wrong_shaped_reply_is_protocol_error(
    case: ProviderCase, provider: HttpChatProvider, payload: object
) -> None:
    case.server.add_json(payload)
    error = _fail(provider)
    assert error.kind == "protocol"
    _assert_names_endpoint(error, case)


def test_a_local_server_that_is_down_fails_at_once_leading_with_the_cause(
    case: ProviderCase,
) -> None:
    with refused_port() as port:
        base_url = f"http://127.0.0.1:{port}" + ("/v1" if case.wire == "openai" else "")
        with case.make(base_url) as provider:
            error = _fail(provider)

    assert error.kind == "connection"
    assert error.message.startswith(f"Connection refused by 127.0.0.1:{port}; is the server")
    assert "attempts" not in error.message  # not retried: a server that is down stays down
    assert case.wire in error.message and case.model in error.message
    assert case.key not in error.message


def _refusing(request: httpx2.Request) -> httpx2.Response:
    raise httpx2.ConnectError("refused", request=request) from ConnectionRefusedError(111, "no")


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"connection refused by .*; retrying in")
def test_a_remote_server_that_refuses_is_tried_again(case: ProviderCase) -> None:
    # A remote host may be restarting behind a balancer: that is worth the retries.
    with case.make("https://llm.example.test/v1", transport=httpx2.MockTransport(_refusing)) as p:
        error = _fail(p)
    assert error.kind == "connection"
    assert error.message.startswith("Connection refused by llm.example.test:443")
    assert "gave up after 3 attempts" in error.message


def test_an_untrusted_certificate_fails_at_once(case: ProviderCase) -> None:
    """Trying again cannot make the certificate trusted: the user hears it in one attempt,
    not after the backoff of every retry."""
    with self_signed_https_server() as url:
        base_url = url + ("/v1" if case.wire == "openai" else "")
        with case.make(base_url) as provider:
            error = _fail(provider)
    port = url.rsplit(":", 1)[1]
    assert error.kind == "connection"
    assert error.message.startswith(
        f"TLS error: the certificate of 127.0.0.1:{port} is not trusted (self"
    ), error.message
    assert "attempts" not in error.message


def test_cancel_while_the_server_is_slow(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.add_reply("much too late", delay=10)
    cancel = cancel_once_asked(case.server)

    error = _fail(provider, cancel=cancel)

    assert error.kind == "cancelled"
    assert "while waiting for the server" in error.message
    assert case.server.replies_sent == 0, "the reply was not waited for"
    _assert_names_endpoint(error, case)


@pytest.mark.expect_log(
    "memtab.llm.http", "WARNING", r"rate limited \(HTTP 429\).*; retrying in 10.0 s"
)
def test_cancel_during_retry_backoff(case: ProviderCase) -> None:
    case.server.add_error(429, headers={"retry-after": "10"})
    cancel = threading.Event()
    with case.make(retry_after_cap_s=30) as provider, cancelled_on_retry(cancel):
        error = _fail(provider, cancel=cancel)
    assert error.kind == "cancelled"
    assert "while waiting to retry" in error.message
    assert len(case.server.requests) == 1  # the 10 s were not waited out


def test_already_cancelled_sends_nothing(case: ProviderCase, provider: HttpChatProvider) -> None:
    cancel = threading.Event()
    cancel.set()
    assert _fail(provider, cancel=cancel).kind == "cancelled"
    assert case.server.requests == []


@pytest.mark.expect_log(
    "memtab.llm.http", "WARNING", r"server error \(HTTP 503\).*; retrying in 0\.1 s \("
)
def test_retry_after_is_capped(case: ProviderCase) -> None:
    case.server.add_error(503, headers={"retry-after": "3600"})
    case.add_reply("soon enough")
    with case.make(retry_after_cap_s=0.05) as provider:
        assert provider.complete("", HELLO, []).text == "soon enough"


def test_key_not_in_repr_or_describe(case: ProviderCase, provider: HttpChatProvider) -> None:
    assert case.key not in repr(provider)
    assert case.key not in str(provider)
    assert case.key not in provider.describe()
    assert case.model in repr(provider)


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"server error \(HTTP 500\).*; retrying in")
def test_retry_warnings_never_log_the_key(
    case: ProviderCase, provider: HttpChatProvider, caplog: pytest.LogCaptureFixture
) -> None:
    case.server.add_error(500, {"error": {"message": f"bad upstream for key {case.key}"}})
    case.add_reply("fine")
    with caplog.at_level(logging.DEBUG, logger="memtab.llm"):
        assert provider.complete("", HELLO, []).text == "fine"
    assert "retrying" in caplog.text
    assert case.key not in caplog.text


def test_a_short_key_is_hidden_where_it_stands_not_inside_words() -> None:
    # Ollama and friends take any key, and users give them "x" or "ollama".
    client = ProviderHttpClient(
        provider="openai",
        model="m",
        url="http://localhost:11434/v1/chat/completions",
        headers={},
        secrets=["k", "ollama"],
    )
    try:
        assert client.redact("fake error; check the key k (Bearer k)") == (
            "fake error; check the key [REDACTED_SECRET] (Bearer [REDACTED_SECRET])"
        )
        assert client.redact("is ollama running? key=ollama") == (
            "is [REDACTED_SECRET] running? key=[REDACTED_SECRET]"
        )
    finally:
        client.close()
