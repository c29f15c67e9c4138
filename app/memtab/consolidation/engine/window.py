"""What a consolidation run shows a model fits the context its server gives each request."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from memtab.humanize import plural
from memtab.llm.local_servers import ServedContext
from memtab.llm.settings_model import CONSOLIDATION_JOB
from memtab.llm.types import (
    Cancel,
    ChatProvider,
    Message,
    ModelReply,
    ProviderWrapper,
    ToolResultsMessage,
    ToolSpec,
)

CHARS_PER_TOKEN = 4
"""Characters of a request's wire JSON a token holds, about: its escapes and keys take
none (Qwen2.5's tokenizer reads the fixture stores' first requests at 4.5)."""
REPLY_SHARE = 4
"""A reply keeps at most this fraction (1/4) of a small context; its limit stays as set."""
LISTING_SHARE = 2 / 3
"""The run's first request (instructions, tool, file list) takes at most this of the room."""
GROWTH_CHARS = 512
"""What a later request adds to the first besides the conversation (its answer's schema)."""
MIN_RESULT_CHARS = 600
LEFT_OUT = (
    "[This earlier result is left out to fit the model's context of {tokens:,} tokens; "
    "call the tool again if you need it.]"
)
CUT_NOTE = (
    "[… {chars:,} more characters not shown: they do not fit the model's context of "
    "{tokens:,} tokens.]"
)

Measure = Callable[[str, list[Message], list[ToolSpec]], int]


def request_size(provider: ChatProvider) -> Measure:
    """How many characters a request of `provider` holds: its wire body's JSON when it
    builds one (an HTTP provider), else its texts."""
    build = getattr(provider, "build_request", None)
    if callable(build):
        return lambda system, messages, tools: len(
            json.dumps(build(system, messages, tools), ensure_ascii=False)
        )
    return lambda system, messages, tools: len(system) + len(repr(messages)) + len(repr(tools))


@dataclass
class ContextWindow:
    """The room of each request of one run, and what the run did not show to keep to it."""

    tokens: int
    chars: int
    measure: Measure
    result_chars: int = 0
    listed: int = 0
    unlisted: int = 0
    cut: int = 0
    left_out: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of(cls, provider: ChatProvider, served: ServedContext | None) -> ContextWindow | None:
        """The window of `provider`'s server when it is one on this machine that says its
        context (`served`, `llm.local_servers.served_context`)."""
        if served is None:
            return None
        tokens = served.tokens
        reply = min(getattr(provider, "max_tokens", CONSOLIDATION_JOB.max_tokens), tokens // 4)
        return cls(tokens, (tokens - reply) * CHARS_PER_TOKEN, request_size(provider))

    def listing_fits(self, size: int) -> bool:
        """Whether a first request of `size` characters leaves room for the run."""
        return size <= self.chars * LISTING_SHARE

    def started(self, first_request: int, listed: int, unlisted: int) -> None:
        """The run's first request is `first_request` characters, listing `listed` files
        and leaving `unlisted` out: each tool result may take half of what is left."""
        self.listed, self.unlisted = listed, unlisted
        room = self.chars - first_request - GROWTH_CHARS
        self.result_chars = max(MIN_RESULT_CHARS, room // 2)

    def fitted(self, output: str, command: object) -> str:
        """A tool result as the model is sent it: whole, or cut at a line with where to read on."""
        if len(output) <= self.result_chars:
            return output
        self.cut += 1
        kept = output[: self.result_chars].rsplit("\n", 1)[0]
        rest = output[len(kept) :].lstrip("\n")
        number = rest.split("\t", 1)[0] if command == "view" and "\t" in rest else ""
        if number.isdigit() and len(number) < 10:  # a view's next line, numbered
            lines = rest.count("\n") + 1
            more = (
                f"{plural(lines, 'more line')} not shown: they do not fit the model's "
                f"context of {self.tokens:,} tokens. View this file again with offset "
                f"{number} to read on."
            )
        else:
            more = (
                f"the rest of this result ({len(rest):,} characters) is not shown: it does "
                f"not fit the model's context of {self.tokens:,} tokens."
            )
        return f"{kept}\n[… {more}]"

    def fit(self, system: str, messages: list[Message], tools: list[ToolSpec]) -> list[Message]:
        """`messages` as a request can hold them: the oldest tool results left out first,
        the newest always kept."""
        if self.measure(system, messages, tools) <= self.chars:
            return messages
        fitted = list(messages)
        note = LEFT_OUT.format(tokens=self.tokens)
        older = [
            index
            for index, message in enumerate(fitted[:-1])
            if isinstance(message, ToolResultsMessage)
        ]
        for index in older:
            message = fitted[index]
            assert isinstance(message, ToolResultsMessage)
            results = tuple(replace(result, content=note) for result in message.results)
            fitted[index] = replace(message, results=results)
            with self._lock:
                self.left_out.update(result.call_id for result in message.results)
            if self.measure(system, fitted, tools) <= self.chars:
                return fitted
        return self._newest_cut(system, fitted, tools)

    def _newest_cut(
        self, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> list[Message]:
        """`messages` with the newest results cut to what the request still holds, each
        saying so; as they are when those are not what is too long."""
        newest = messages[-1]
        excess = self.measure(system, messages, tools) - self.chars
        if excess <= 0 or not isinstance(newest, ToolResultsMessage):
            return messages
        cap = _fair_cap([len(result.content) for result in newest.results], excess)
        results = []
        for result in newest.results:
            if len(result.content) <= cap:
                results.append(result)
                continue
            note = CUT_NOTE.format(chars=len(result.content), tokens=self.tokens)
            keep = max(cap - len(note) - 1, 0)
            note = CUT_NOTE.format(chars=len(result.content) - keep, tokens=self.tokens)
            with self._lock:
                self.cut += 1
            results.append(replace(result, content=f"{result.content[:keep]}\n{note}"))
        return [*messages[:-1], replace(newest, results=tuple(results))]

    def said(self) -> str:
        """What the run did not show, for its summary ('' when it showed everything)."""
        parts = []
        if self.unlisted:
            parts.append(f"{self.unlisted} of the {self.listed + self.unlisted} files not listed")
        if self.cut:
            parts.append(f"{plural(self.cut, 'tool result')} shown in part")
        if self.left_out:
            parts.append(
                f"{plural(len(self.left_out), 'earlier result')} left out of later requests"
            )
        if not parts:
            return ""
        return f"To fit the model's context of {self.tokens:,} tokens: {', '.join(parts)}."


def _fair_cap(sizes: list[int], excess: int) -> int:
    """The most each of texts of `sizes` may keep so that they are `excess` shorter in
    all, the shorter ones kept whole."""
    remaining = sum(sizes) - excess
    ordered = sorted(sizes)
    for index, size in enumerate(ordered):
        share = max(remaining, 0) // (len(ordered) - index)
        if size > share:
            return share
        remaining -= size
    return ordered[-1] if ordered else 0


class FitToContext(ProviderWrapper):
    """Each request of a run as its context can hold it (`ContextWindow.fit`)."""

    def __init__(self, provider: ChatProvider, window: ContextWindow) -> None:
        super().__init__(provider)
        self.window = window

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        fitted = self.window.fit(system, messages, tools)
        return self.provider.complete(system, fitted, tools, cancel=cancel)
