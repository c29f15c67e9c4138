"""Test connection: one small request to a provider, and what came of it in plain words."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from memtab.fs.records import Record
from memtab.llm.endpoints import base_url_problem
from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.settings_model import ModelJob, is_local
from memtab.llm.types import ModelReply, ProviderError, ProviderErrorKind, ToolSpec, UserMessage
from memtab.llm.written.calls import schema_problem

if TYPE_CHECKING:  # lazy: httpx2 (~6 MiB, ~40 ms) with the first model call
    from memtab.llm.http import HttpOptions

logger = logging.getLogger(__name__)

PROBE_TOOL = ToolSpec(
    "report_ready",
    "Report that you are ready to work.",
    {
        "type": "object",
        "properties": {"status": {"type": "string", "enum": ["ready"]}},
        "required": ["status"],
        "additionalProperties": False,
    },
)
PROBE_PROMPT = 'Call the tool report_ready with status "ready".'
PROBE_MAX_TOKENS = 128
PROBE_JOB = ModelJob("the connection test", PROBE_MAX_TOKENS)
# A small model on a CPU reads the tool's description and writes the call in seconds;
# one on this machine may also be loading. A remote API answers well within the first.
PROBE_TIMEOUT_S = 30.0
LOCAL_PROBE_TIMEOUT_S = 120.0
PROBE_CONNECT_TIMEOUT_S = 10.0

ToolUse = Literal["made", "written", "invalid", "none"]
_TOOL_USE_WORDS: dict[ToolUse, str] = {
    "made": "it calls tools",
    "written": "it writes its tool calls as text, which Memtab takes",
    "invalid": "it called the tool with arguments the tool does not take",
    "none": "it answered without calling the tool it was asked to call, so the writer and "
    "Consolidate now cannot use it",
}

# What each kind of failure means to someone who just typed the settings.
_HEADLINES: dict[ProviderErrorKind, str] = {
    "auth": "The API key was refused",
    "not_found": "Unknown model or wrong base URL",
    "bad_request": "The server refused the request",
    "rate_limited": "Rate limited (the key was accepted)",
    "server": "The server failed",
    "timeout": "No answer in time",
    "connection": "Cannot connect",
    "cancelled": "Cancelled",
    "protocol": "The reply is not in the provider's format; check the base URL",
    "config": "Not tested",
}


class ProbeResult(Record):
    """How a test request went (`memtab models test --json`); `summary` in one line."""

    ok: bool
    summary: str
    latency_ms: int | None = None
    served_model: str | None = None
    tool_use: ToolUse | None = None
    """How the model answered the request to call a tool (None: no answer)."""
    error_kind: ProviderErrorKind | None = None
    detail: str | None = None
    """The full error message (provider, model and URL; never a key)."""


def probe_options(timeout_s: float = PROBE_TIMEOUT_S) -> HttpOptions:
    """The HTTP options of a probe: a short timeout and no retries (a retry would hide
    the first answer behind a backoff)."""
    # lazy: httpx2 (~6 MiB, ~40 ms) with the first model call
    from memtab.llm.http import HttpOptions  # httpx2 loads only when asked

    return HttpOptions(
        timeout_s=timeout_s,
        connect_timeout_s=min(PROBE_CONNECT_TIMEOUT_S, timeout_s),
        max_retries=0,
    )


def probe_provider(
    settings: ProviderSettings,
    *,
    cancel: threading.Event | None = None,
    options: HttpOptions | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> ProbeResult:
    """Send one small request with `settings` (see the module doc); never raises ProviderError.
    `options` default to `probe_options()`, with a longer limit for a server on this machine."""
    if settings.is_offline:
        return ProbeResult(
            ok=True, summary="Offline: no model is called, so there is nothing to test"
        )
    problem = base_url_problem(settings.base_url)
    if problem is not None:  # said of the base URL as configured, not of the endpoint
        return _failed(ProviderError("config", problem), None)
    if options is None:
        local = is_local(settings.base_url)
        options = probe_options(LOCAL_PROBE_TIMEOUT_S if local else PROBE_TIMEOUT_S)
    try:
        provider = create_provider(
            settings, options=options, max_tokens=PROBE_JOB.max_tokens, job=PROBE_JOB
        )
    except ProviderError as error:
        return _failed(error, None)
    started = clock()
    try:
        reply = provider.complete("", [UserMessage(PROBE_PROMPT)], [PROBE_TOOL], cancel=cancel)
    except ProviderError as error:
        return _failed(error, _elapsed_ms(started, clock))
    finally:
        close = getattr(provider, "close", None)
        if close is not None:
            close()
    latency = _elapsed_ms(started, clock)
    model = reply.served_model or settings.model
    use = tool_use(reply)
    logger.info("connection test: %s answered in %d ms (%s)", settings.describe(), latency, use)
    return ProbeResult(
        ok=True,
        summary=f"Connected: {model} answered in {latency} ms; {_TOOL_USE_WORDS[use]}",
        latency_ms=latency,
        served_model=reply.served_model,
        tool_use=use,
    )


def tool_use(reply: ModelReply) -> ToolUse:
    """How `reply` answered the request to call `PROBE_TOOL`."""
    calls = [call for call in reply.tool_calls if call.name == PROBE_TOOL.name]
    if not calls:
        return "none"
    schema = PROBE_TOOL.input_schema
    if any(call.arguments is None or schema_problem(call.arguments, schema) for call in calls):
        return "invalid"
    return "written" if reply.calls_from_text else "made"


def _failed(error: ProviderError, latency_ms: int | None) -> ProbeResult:
    logger.info("connection test failed: %s", error.message)
    headline = _HEADLINES.get(error.kind, "Failed")
    return ProbeResult(
        ok=False,
        summary=f"{headline}: {error.detail}",
        latency_ms=latency_ms,
        error_kind=error.kind,
        detail=error.message,
    )


def _elapsed_ms(started: float, clock: Callable[[], float]) -> int:
    return round((clock() - started) * 1000)
