"""The provider-neutral tool loop the consolidator and the writer run. Ask the model; run the tools
it calls; send the results back; repeat until it answers without tool calls, or a bound is hit
(steps, overall deadline, cancellation) or the provider fails (docs/formats.md §12.2)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from memtab.fs.clock import now_ms
from memtab.fs.terminal_text import without_controls
from memtab.llm.types import (
    AssistantMessage,
    Cancel,
    ChatProvider,
    Message,
    ModelReply,
    ProviderError,
    ProviderWrapper,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    Usage,
    UserMessage,
)
from memtab.redact import redact_json, redact_outgoing

logger = logging.getLogger(__name__)

StopReason = Literal["final", "max_steps", "spent", "timeout", "cancelled", "error"]
ToolExecutor = Callable[[ToolCall], ToolOutcome]
StepCallback = Callable[[int, str], None]
MayAsk = Callable[[list[Message]], bool]
"""Whether the time left holds another request of the conversation so far."""

CUT_REPLY = (
    "Your reply was cut off at its length limit before it ended, so nothing in it was "
    "done. Answer again, shorter: make the tool call itself, or reply in one line."
)
DEFAULT_MAX_STEPS = 32
DEFAULT_TIMEOUT_S = 300.0
_WATCH_INTERVAL_S = 0.05


@dataclass(frozen=True)
class ToolExecution:
    """One tool call the loop answered: what was asked, what came back, when, how long. Exactly one
    of `output` / `error` is set. `input` is the parsed arguments, or the raw argument text when the
    model sent something that is not a JSON object."""

    tool_name: str
    tool_call_id: str
    input: Any
    output: str | None
    error: str | None
    started_at_ms: int
    duration_ms: int


@dataclass
class LoopResult:
    """How a tool loop ended and all on the way; `text`: the last reply's, trimmed."""

    text: str
    stop_reason: StopReason
    steps: int
    usage: Usage
    messages: list[Message]
    replies: list[ModelReply] = field(default_factory=list)
    tool_executions: list[ToolExecution] = field(default_factory=list)
    error: ProviderError | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        """True when the model finished on its own (a reply without tool calls)."""
        return self.stop_reason == "final"


class _StopSignal:
    """One event set when the caller cancels or the deadline passes. Providers take a single
    `threading.Event`; a small watcher thread folds the caller's event and the deadline into it, so
    a request in flight aborts within ~0.1 s of either."""

    def __init__(self, cancel: threading.Event | None, deadline: float) -> None:
        self.event = threading.Event()
        self._cancel = cancel
        self._deadline = deadline
        self._finished = threading.Event()
        self._watcher = threading.Thread(
            target=self._watch, name="memtab-llm-loop-stop", daemon=True
        )
        self._watcher.start()

    def _watch(self) -> None:
        while not self._finished.is_set():
            if self.cancelled or self.timed_out:
                self.event.set()
                return
            remaining = self._deadline - time.monotonic()
            self._finished.wait(min(_WATCH_INTERVAL_S, max(remaining, 0.0)))

    @property
    def cancelled(self) -> bool:
        return self._cancel is not None and self._cancel.is_set()

    @property
    def timed_out(self) -> bool:
        return time.monotonic() >= self._deadline

    def reason(self) -> StopReason | None:
        """ "cancelled" or "timeout" once the run must stop (cancellation wins), else None."""
        if self.cancelled:
            return "cancelled"
        if self.timed_out:
            return "timeout"
        return None

    def finish(self) -> None:
        self._finished.set()
        self._watcher.join()


def run_tool_loop(
    provider: ChatProvider,
    system: str,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    execute_tool: ToolExecutor,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    cancel: threading.Event | None = None,
    on_step: StepCallback | None = None,
    timeout_hint: str = "",
    run_limit_s: float | None = None,
    may_ask: MayAsk | None = None,
) -> LoopResult:
    """Run the model with tools until it answers without tool calls or a bound is hit: each step
    asks once and answers every call of the reply (bad calls, and a tool's exception, as error
    results); a reply cut at its length limit is asked again once (`CUT_REPLY`). `timeout_s` bounds
    the run (`run_limit_s`: the whole run's, when this is its rest; `timeout_hint` says what raises
    it); `may_ask` False before a step ends the loop there ("spent": what was done stands). Never
    raises ProviderError (see `LoopResult.error`)."""
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    tool_names = {tool.name for tool in tools}
    tool_list = list(tools)
    result = LoopResult(
        text="", stop_reason="final", steps=0, usage=Usage(), messages=list(messages)
    )
    stop = _StopSignal(cancel, time.monotonic() + timeout_s)
    told_cut = False
    try:
        while True:
            reason = stop.reason()
            if reason is not None:
                return _stopped(result, reason, run_limit_s or timeout_s, timeout_hint)
            if result.steps >= max_steps:
                result.stop_reason = "max_steps"
                result.detail = f"stopped after {max_steps} steps without a final answer"
                return result
            if may_ask is not None and not may_ask(result.messages):
                result.stop_reason = "spent"
                result.detail = f"stopped after {result.steps} steps: no time left for another"
                return result
            result.steps += 1
            _report(
                on_step,
                result.steps,
                f"step {result.steps}: waiting for {provider.name} {provider.model}",
            )
            try:
                reply = provider.complete(system, result.messages, tool_list, cancel=stop.event)
            except ProviderError as exc:
                if exc.kind == "cancelled" and (reason := stop.reason()) is not None:
                    return _stopped(result, reason, run_limit_s or timeout_s, timeout_hint)
                logger.warning("tool loop stopped at step %d: %s", result.steps, exc.message)
                result.stop_reason, result.error, result.detail = "error", exc, exc.message
                if exc.kind == "timeout":
                    result.stop_reason = "timeout"
                    result.detail = f"timed out: {exc.detail} (step {result.steps})"
                return result
            result.replies.append(reply)
            result.usage.add(reply.usage)
            result.messages.append(reply.as_message())
            result.text = reply.text.strip()
            if not reply.tool_calls and reply.cut and not told_cut and result.steps < max_steps:
                told_cut = True  # a reply cut short is no answer: the model is told, once
                result.messages.append(UserMessage(CUT_REPLY))
                continue
            if not reply.tool_calls:
                _report(on_step, result.steps, "finished")
                return result
            outcomes = [
                _answer(call, tool_names, execute_tool, result, stop, on_step)
                for call in reply.tool_calls
            ]
            result.messages.append(ToolResultsMessage(tuple(outcomes)))
    finally:
        stop.finish()


def _stopped(result: LoopResult, reason: StopReason, timeout_s: float, hint: str) -> LoopResult:
    result.stop_reason = reason
    why = f"; {hint}" if hint else ""
    limit = f"timed out after {timeout_s:g} s, the run's time limit{why}"
    result.detail = f"{limit if reason == 'timeout' else 'cancelled'} (step {result.steps})"
    return result


def _answer(
    call: ToolCall,
    tool_names: set[str],
    execute_tool: ToolExecutor,
    result: LoopResult,
    stop: _StopSignal,
    on_step: StepCallback | None,
) -> ToolOutcome:
    """Answer one tool call and record it; the loop answers bad calls itself."""
    started_at_ms = now_ms()
    started = time.monotonic()
    tool_input: Any = call.arguments if call.arguments is not None else call.raw_arguments
    if stop.reason() is not None:
        outcome = ToolOutcome(call.id, "Not run: the run was stopped.", is_error=True)
    elif call.name not in tool_names:
        available = ", ".join(sorted(tool_names)) or "none"
        outcome = ToolOutcome(
            call.id, f"Unknown tool '{call.name}'. Available tools: {available}.", is_error=True
        )
    elif call.parse_error is not None:
        outcome = ToolOutcome(
            call.id,
            f"Invalid arguments for tool '{call.name}': {call.parse_error}. "
            "Send the arguments as one JSON object.",
            is_error=True,
        )
    else:
        _report(on_step, result.steps, f"step {result.steps}: running {call.name}")
        outcome = _execute(call, execute_tool)
    result.tool_executions.append(
        ToolExecution(
            tool_name=call.name,
            tool_call_id=call.id,
            input=tool_input,
            output=None if outcome.is_error else outcome.content,
            error=outcome.content if outcome.is_error else None,
            started_at_ms=started_at_ms,
            duration_ms=int((time.monotonic() - started) * 1000),
        )
    )
    return outcome


def _execute(call: ToolCall, execute_tool: ToolExecutor) -> ToolOutcome:
    try:
        outcome = execute_tool(call)
    except Exception as exc:  # a tool bug must not kill the run; the model is told, we log it
        logger.exception("tool %s failed", call.name)
        return ToolOutcome(call.id, f"Tool '{call.name}' failed: {exc}", is_error=True)
    return outcome if outcome.call_id == call.id else replace(outcome, call_id=call.id)


def _report(on_step: StepCallback | None, step: int, message: str) -> None:
    try:
        if on_step is not None:
            on_step(step, message)
    except Exception:  # progress display must never end a run
        logger.exception("on_step callback failed")


# --- what a model is sent ----------------------------------------------------------------------


class Redacted(ProviderWrapper):
    """A `ChatProvider` that sends `provider` only what may leave the machine."""

    def __init__(self, provider: ChatProvider) -> None:
        super().__init__(provider)
        self._sent: dict[int, tuple[Message, Message]] = {}
        self._lock = threading.Lock()

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """One model turn, asked with the conversation redacted."""
        sent = [self._redacted(message) for message in messages]
        return self.provider.complete(outgoing(system), sent, tools, cancel=cancel)

    def _redacted(self, message: Message) -> Message:
        with self._lock:
            known = self._sent.get(id(message))
            if known is not None and known[0] is message:
                return known[1]
        redacted = redacted_message(message)
        with self._lock:
            self._sent[id(message)] = (message, redacted)
        return redacted


def redacted_message(message: Message) -> Message:
    """`message` as a model may be sent it."""
    if isinstance(message, UserMessage):
        return replace(message, text=outgoing(message.text))
    if isinstance(message, AssistantMessage):
        calls = tuple(_redacted_call(call) for call in message.tool_calls)
        return replace(message, text=outgoing(message.text), tool_calls=calls)
    results = tuple(replace(result, content=outgoing(result.content)) for result in message.results)
    return replace(message, results=results)


def outgoing(text: str) -> str:
    """`text` as a model may be sent it: no control character (an agent's ESC sequences,
    a planted RLO), no secret."""
    return redact_outgoing(without_controls(text))


def _redacted_call(call: ToolCall) -> ToolCall:
    arguments: Any = redact_json(call.arguments) if call.arguments is not None else None
    return replace(call, arguments=arguments, raw_arguments=redact_outgoing(call.raw_arguments))
