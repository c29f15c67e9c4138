"""The HTTP layer every model provider shares: limits, bounded retries, cancellation, errors. One
`ProviderHttpClient` (one `httpx2.Client`) per provider."""

from __future__ import annotations

import concurrent.futures
import contextlib
import email.utils
import logging
import random
import re
import socket
import ssl
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, ClassVar, NamedTuple, Self

import httpx2

from memtab.fs.jsonfile import MAX_DEPTH, JsonError, parse_json
from memtab.llm.endpoints import base_url_problem, display_url, is_loopback_host
from memtab.llm.speed import timings_of
from memtab.llm.types import (
    Cancel,
    Message,
    ModelReply,
    ProviderError,
    ProviderErrorKind,
    ToolSpec,
    Usage,
)
from memtab.llm.wire import as_text, as_token_count, make_tool_call, server_error_text, snippet
from memtab.llm.written.calls import calls_in_text
from memtab.redact import KeyScrubber

logger = logging.getLogger(__name__)


DEFAULT_REQUEST_TIMEOUT_S = 300.0
DEFAULT_MAX_REPLY_BYTES = 16 * 1024 * 1024
_PAST_CONTEXT = re.compile(
    r"context (?:size|length|window)|maximum context|n_ctx|too many tokens", re.IGNORECASE
)
_CONTEXT_HINT = (
    "; the request is longer than the model's context: start the server with a larger "
    "context (llama.cpp's -c, Ollama's num_ctx)"
)


@dataclass(frozen=True)
class HttpOptions:
    """Limits, retry bounds and backoff of a provider's requests (times in seconds). `timeout_s` is
    the whole-request deadline; `timeout_hint` names what raises it, for the message of a request
    that hit it. `transport` replaces the network (httpx2's mock transport in tests)."""

    timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S
    connect_timeout_s: float = 10.0
    max_retries: int = 4
    backoff_base_s: float = 1.0
    backoff_max_s: float = 30.0
    retry_after_cap_s: float = 60.0
    cancel_poll_s: float = 0.05
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    timeout_hint: str = ""
    transport: httpx2.BaseTransport | None = field(default=None, compare=False)


class _Reply(NamedTuple):
    """A whole reply as read within the limits: status, headers and body."""

    status_code: int
    headers: httpx2.Headers
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class _ReplyTooLargeError(Exception):
    """The reply grew past `max_reply_bytes` (raised on the request's thread)."""


class _Connection:
    """The socket of one request, learnt from httpcore's `trace` extension, so that the waiting
    caller can shut it when it gives the request up: the thread blocked reading wakes at once, and
    the server sees the connection close (llama.cpp's server then stops the generation)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self.abandoned = False

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace callback: keep the socket of the connection as it is made."""
        if not event.endswith((".connect_tcp.complete", ".connect_unix_socket.complete")):
            return
        stream = info.get("return_value")
        get_extra_info = getattr(stream, "get_extra_info", None)
        found = get_extra_info("socket") if callable(get_extra_info) else None
        if not isinstance(found, socket.socket):
            return
        with self._lock:
            self._socket = found
            abandoned = self.abandoned
        if abandoned:
            _shut(found)

    def abandon(self) -> None:
        """Give the request up: shut its connection now (or as soon as it is made)."""
        with self._lock:
            self.abandoned = True
            found = self._socket
        if found is not None:
            _shut(found)


def _shut(sock: socket.socket) -> None:
    # socket.socket's own shutdown, also for a TLS socket: it wakes a read blocked in
    # another thread, which close() does not, and leaves the TLS object to that thread.
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Retryable(NamedTuple):
    """A failed attempt that may succeed if tried again."""

    kind: ProviderErrorKind
    reason: str
    retry_after_s: float | None = None


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds the server asks us to wait, from `retry-after-ms` or `retry-after`. `retry-after` may
    be a number of seconds or an HTTP date. Returns None when absent or unreadable, never a negative
    number."""
    lowered = {key.lower(): value for key, value in headers.items()}
    milliseconds = lowered.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(float(milliseconds) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def transport_failure(exc: BaseException, url: httpx2.URL) -> str:
    """Why a request did not reach the server, in words: the connection was refused, the
    TLS handshake failed (and why), the host name does not resolve, or what httpx2 said."""
    where = f"{url.host}:{url.port or (443 if url.scheme == 'https' else 80)}"
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return f"TLS error: the certificate of {where} is not trusted ({cause.verify_message})"
        if isinstance(cause, ssl.SSLError):
            return f"TLS error with {where} ({cause.reason or cause}); is it an https server?"
        if isinstance(cause, ConnectionRefusedError):
            return f"connection refused by {where}; is the server running?"
        if isinstance(cause, socket.gaierror):
            return f"the host {url.host} was not found ({cause.strerror or cause})"
    return f"connection failed ({type(exc).__name__}: {exc})"


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and what caused it, outermost first: httpx2 → httpcore2 → the socket or ssl error."""
    cause: BaseException | None = exc
    while cause is not None:
        yield cause
        cause = cause.__cause__ or cause.__context__


def fails_again(exc: BaseException, url: httpx2.URL) -> bool:
    """Whether retrying `exc` only makes the user wait: a connection refused by this machine
    (a local server not running) or a certificate the system does not trust."""
    causes = list(_causes(exc))
    if any(isinstance(cause, ssl.SSLCertVerificationError) for cause in causes):
        return True
    refused = any(isinstance(cause, ConnectionRefusedError) for cause in causes)
    return refused and is_loopback_host(url.host)


class ProviderHttpClient:
    """JSON POSTs to one model endpoint with limits, bounded retries and cancellation.
    `lasting(status, message)` says whether a server's refusal would come again however often it is
    retried (a server that cannot take a request's `tools`): it is not."""

    def __init__(
        self,
        *,
        provider: str,
        model: str,
        url: str,
        headers: Mapping[str, str],
        secrets: Iterable[str | None] = (),
        options: HttpOptions | None = None,
        lasting: Callable[[int, str], bool] | None = None,
    ) -> None:
        self.options = options or HttpOptions()
        self.url = url
        self.label = f"{provider} {model} at {display_url(url)}"
        self._keys = KeyScrubber(secrets)
        self._lasting = lasting
        # Checked here too, not only in settings: no provider, however built, sends a key or
        # a prompt in clear text across the network.
        problem = base_url_problem(url)
        if problem is not None:
            raise self.error("config", problem)
        try:
            parsed = httpx2.URL(url)
        except httpx2.InvalidURL as exc:
            raise self.error("config", f"invalid base URL ({exc})") from None
        self._parsed_url = parsed
        self._client = httpx2.Client(
            transport=self.options.transport,
            headers=dict(headers),
            # The whole-request deadline is the caller's (`_send`); httpx2's read timeout
            # is only a backstop behind it.
            timeout=httpx2.Timeout(self.options.timeout_s, connect=self.options.connect_timeout_s),
            # No connection is kept between requests: each is shut when it is given up.
            limits=httpx2.Limits(max_keepalive_connections=0),
            # A local server (Ollama, llama.cpp) is never reached through a proxy. Redirects
            # are not followed (httpx2's default), so a key never goes on to another host.
            trust_env=not is_loopback_host(parsed.host),
            # An https endpoint's certificate is checked against the system's trust store (a
            # self-signed server is refused unless added there); a plain-http one loads none.
            # HTTP/2 stays off (httpx2's default): one protocol to debug.
            verify=parsed.scheme == "https",
        )

    def __repr__(self) -> str:
        return f"ProviderHttpClient({self.label!r})"

    def close(self) -> None:
        """Close the connection pool. A request abandoned by cancellation fails quietly."""
        self._client.close()

    def error(self, kind: ProviderErrorKind, detail: str) -> ProviderError:
        """A ProviderError naming provider, model and URL, with every secret redacted."""
        lead = detail[:1].upper() + detail[1:]
        return ProviderError(kind, self.redact(f"{lead} ({self.label})"), self.redact(detail))

    def redact(self, text: str) -> str:
        """`text` with this client's secrets replaced (servers may echo a key back)."""
        return self._keys.text(text)

    def post_json(
        self, body: Mapping[str, Any], *, cancel: threading.Event | None = None
    ) -> dict[str, Any]:
        """POST `body` as JSON and return the JSON object the server answered. Raises ProviderError;
        kind "cancelled" within `cancel_poll_s` of `cancel` being set, "timeout" when a reply is not
        whole within `timeout_s`."""
        attempts = self.options.max_retries + 1
        for attempt in range(1, attempts + 1):
            if cancel is not None and cancel.is_set():
                raise self.error("cancelled", "cancelled")
            outcome = self._attempt(body, cancel)
            if not isinstance(outcome, _Retryable):
                return outcome
            if attempt == attempts:
                tries = f"; gave up after {attempts} attempts" if attempts > 1 else ""
                raise self.error(outcome.kind, f"{outcome.reason}{tries}")
            delay = self._retry_delay(attempt, outcome.retry_after_s)
            logger.warning(
                "%s: %s; retrying in %.1f s (attempt %d of %d)",
                self.label,
                self.redact(outcome.reason),
                delay,
                attempt + 1,
                attempts,
            )
            self._wait(delay, cancel)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def timeout_detail(self) -> str:
        """What a request past its deadline says: the limit, and what raises it."""
        hint = f"; {self.options.timeout_hint}" if self.options.timeout_hint else ""
        return f"no reply within {self.options.timeout_s:g} s, the time limit of one request{hint}"

    def _attempt(
        self, body: Mapping[str, Any], cancel: threading.Event | None
    ) -> dict[str, Any] | _Retryable:
        try:
            reply = self._send(body, cancel)
        except httpx2.ConnectTimeout:
            return _Retryable(
                "timeout", f"connecting timed out after {self.options.connect_timeout_s:g} s"
            )
        except httpx2.TimeoutException:
            raise self.error("timeout", self.timeout_detail()) from None
        except _ReplyTooLargeError:
            raise self.error(
                "protocol",
                f"the reply is larger than {self.options.max_reply_bytes // (1024 * 1024)} MiB;"
                " it was not read further",
            ) from None
        except httpx2.UnsupportedProtocol as exc:
            raise self.error("config", f"unsupported URL ({exc})") from None
        except httpx2.TransportError as exc:
            if fails_again(exc, self._parsed_url):
                raise self.error("connection", transport_failure(exc, self._parsed_url)) from None
            return _Retryable("connection", transport_failure(exc, self._parsed_url))
        except httpx2.HTTPError as exc:
            raise self.error(
                "connection", f"request failed ({type(exc).__name__}: {exc})"
            ) from None
        return self._read_response(reply)

    def _send(self, body: Mapping[str, Any], cancel: threading.Event | None) -> _Reply:
        """The reply, read on a helper thread while this one watches the deadline and
        `cancel`; a request given up has its connection shut (`_Connection`)."""
        deadline = time.monotonic() + self.options.timeout_s
        connection = _Connection()
        future: concurrent.futures.Future[_Reply] = concurrent.futures.Future()

        def run_request() -> None:
            try:
                future.set_result(self._read_whole(body, connection))
            except BaseException as exc:  # handed to the waiting caller (or dropped if gone)
                future.set_exception(exc)

        threading.Thread(target=run_request, name="memtab-llm-request", daemon=True).start()
        while True:
            left = deadline - time.monotonic()
            concurrent.futures.wait(
                [future], timeout=max(min(self.options.cancel_poll_s, left), 0.0)
            )
            if future.done():
                return future.result()
            if cancel is not None and cancel.is_set():
                connection.abandon()
                logger.info("%s: cancelled while waiting for the server", self.label)
                raise self.error("cancelled", "cancelled while waiting for the server")
            if left <= 0:
                connection.abandon()
                logger.info("%s: %s", self.label, self.timeout_detail())
                raise self.error("timeout", self.timeout_detail())

    def _read_whole(self, body: Mapping[str, Any], connection: _Connection) -> _Reply:
        """POST and read the reply whole, refusing one past `max_reply_bytes` as it comes."""
        limit = self.options.max_reply_bytes
        extensions = {"trace": connection.trace}
        with self._client.stream("POST", self.url, json=body, extensions=extensions) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                raise _ReplyTooLargeError
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():  # decoded: a compressed reply counts whole
                size += len(chunk)
                if size > limit:
                    raise _ReplyTooLargeError
                chunks.append(chunk)
            return _Reply(response.status_code, response.headers, b"".join(chunks))

    def _read_response(self, response: _Reply) -> dict[str, Any] | _Retryable:
        status = response.status_code
        if 200 <= status < 300:
            return self._json_object(response)
        message = self._server_message(response)
        if status >= 500 and self._lasting is not None and self._lasting(status, message):
            raise self.error(
                "bad_request", f"the server refused the request (HTTP {status}){message}"
            )
        if status == 429 or status >= 500:
            kind: ProviderErrorKind = "rate_limited" if status == 429 else "server"
            words = "rate limited" if status == 429 else "server error"
            return _Retryable(
                kind, f"{words} (HTTP {status}){message}", parse_retry_after(response.headers)
            )
        if status in (401, 403):
            raise self.error(
                "auth",
                f"the server refused the credentials (HTTP {status}){message}; check the API key",
            )
        if status == 404:
            raise self.error(
                "not_found", f"not found (HTTP 404){message}; check the base URL and the model name"
            )
        if 400 <= status < 500:
            hint = _CONTEXT_HINT if _PAST_CONTEXT.search(message) else ""
            raise self.error(
                "bad_request", f"the server refused the request (HTTP {status}){message}{hint}"
            )
        raise self.error("protocol", f"unexpected HTTP status {status}{message}")

    def _json_object(self, response: _Reply) -> dict[str, Any]:
        try:
            # Room for the reply's own envelope around tool arguments nested up to
            # MAX_DEPTH, so that those become a tool error for the model (wire.py).
            data = parse_json(response.content, max_depth=2 * MAX_DEPTH)
        except JsonError as error:
            if "nested too deeply" in str(error):
                raise self.error("protocol", f"the reply is {error}") from None
            content_type = response.headers.get("content-type", "no content type")
            raise self.error(
                "protocol", f"the reply is not JSON ({content_type}): {snippet(response.text)!r}"
            ) from None
        if not isinstance(data, dict):
            raise self.error(
                "protocol", f"the reply is JSON but not an object: {snippet(response.text)!r}"
            )
        return data

    @staticmethod
    def _server_message(response: _Reply) -> str:
        """': <what the server said>' for an error reply, or '' when it said nothing."""
        try:
            text = server_error_text(parse_json(response.content))
        except JsonError:
            text = None
        text = snippet(response.text if text is None else text)
        return f": {text}" if text else ""

    def _retry_delay(self, attempt: int, retry_after_s: float | None) -> float:
        if retry_after_s is not None:
            return min(retry_after_s, self.options.retry_after_cap_s)
        backoff = min(self.options.backoff_max_s, self.options.backoff_base_s * 2 ** (attempt - 1))
        return backoff * random.uniform(0.5, 1.0)  # jitter spreads out clients that failed together

    def _wait(self, delay: float, cancel: threading.Event | None) -> None:
        if cancel is None:
            time.sleep(delay)
        elif cancel.wait(delay):
            raise self.error("cancelled", "cancelled while waiting to retry")


class HttpChatProvider(ABC):
    """What the HTTP providers share: identity, one HTTP client, and the complete() flow. Subclasses
    translate the neutral types to their wire format (`build_request`) and back (`parse_reply`). The
    API key lives only in the HTTP client's headers: it appears in no attribute, repr or message."""

    provider_name: ClassVar[str]
    endpoint_path: ClassVar[str]

    def __init__(
        self,
        model: str,
        base_url: str,
        headers: Mapping[str, str],
        api_key: str | None,
        options: HttpOptions | None,
        *,
        lasting: Callable[[int, str], bool] | None = None,
    ) -> None:
        self._model = model
        self._base_url = base_url.rstrip("/")
        self._http = ProviderHttpClient(
            provider=self.provider_name,
            model=model,
            url=self._base_url + self.endpoint_path,
            headers=headers,
            secrets=(api_key,),
            options=options,
            lasting=lasting,
        )
        if not model.strip():
            self.close()
            raise self.error("config", "no model configured")

    @property
    def name(self) -> str:
        return self.provider_name

    @property
    def model(self) -> str:
        return self._model

    @property
    def base_url(self) -> str:
        """Without a trailing slash."""
        return self._base_url

    @property
    def url(self) -> str:
        """The endpoint every request is POSTed to."""
        return self._http.url

    def describe(self) -> str:
        """A one-line label safe to show and log: provider · model · base URL."""
        return f"{self.provider_name} · {self._model} · {display_url(self._base_url)}"

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """One model turn. Raises ProviderError; kind "cancelled" within ~0.1 s of `cancel`. A reply
        without calls whose text is calls of `tools` is taken as those calls
        (`llm.written.calls`)."""
        body = self.build_request(system, messages, tools)
        payload = self._http.post_json(body, cancel=cancel)
        try:
            reply = self.parse_reply(payload)
        except ProviderError:
            raise
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            raise self.error(
                "protocol", f"unexpected reply shape ({type(exc).__name__}: {exc})"
            ) from None
        if reply.tool_calls or not tools:
            return reply
        calls = calls_in_text(reply.text, tools, as_text(payload.get("id")))
        if not calls:
            return reply
        logger.info("%s: took the tool calls written in the reply's text", self.describe())
        return replace(reply, tool_calls=calls, calls_from_text=True)

    @abstractmethod
    def build_request(
        self, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> dict[str, Any]:
        """The JSON body for one turn, in this provider's wire format."""

    @abstractmethod
    def parse_reply(self, payload: dict[str, Any]) -> ModelReply:
        """The neutral reply of one turn; ProviderError("protocol") when it is not the format."""

    def reply(
        self,
        payload: dict[str, Any],
        text: str,
        calls: Iterable[tuple[object, object, object]],
        stop_reason: object,
        default_stop: str,
        input_keys: tuple[str, ...],
        output_key: str,
    ) -> ModelReply:
        """The neutral reply from what both wire formats send: calls as `(id, name, arguments)`,
        usage, model and timings read loosely."""
        reply_id = as_text(payload.get("id"))
        usage = payload.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        return ModelReply(
            text=text,
            tool_calls=tuple(
                make_tool_call(*call, index, reply_id) for index, call in enumerate(calls)
            ),
            stop_reason=stop_reason if isinstance(stop_reason, str) else default_stop,
            usage=Usage(
                sum(as_token_count(usage.get(key)) for key in input_keys),
                as_token_count(usage.get(output_key)),
            ),
            served_model=as_text(payload.get("model")) or None,
            timings=timings_of(payload),
        )

    def error(self, kind: ProviderErrorKind, detail: str) -> ProviderError:
        """A ProviderError naming this provider, model and URL (never the key)."""
        return self._http.error(kind, detail)

    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        base_url = display_url(self._base_url)
        return f"{type(self).__name__}(model={self._model!r}, base_url={base_url!r})"
