"""Providers wired to the fake model server, with tiny backoff so retry tests stay fast."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.http import HttpChatProvider, HttpOptions
from memtab.llm.openai import OpenAIProvider
from support.fake_model_server import (
    FakeModelServer,
    ToolCallSpec,
    tool_messages,
    tool_result_blocks,
)

ANTHROPIC_KEY = "sk-ant-test-SECRET-0123456789abcdefghij"
OPENAI_KEY = "sk-test-SECRET-0123456789abcdefghijklmn"
FAST_OPTIONS = HttpOptions(
    timeout_s=5.0,
    connect_timeout_s=2.0,
    max_retries=2,
    backoff_base_s=0.001,
    backoff_max_s=0.01,
    retry_after_cap_s=2.0,
)


@dataclass
class ProviderCase:
    """One provider under test plus the matching way to script its server."""

    wire: str
    server: FakeModelServer
    key: str
    model: str
    options: HttpOptions = FAST_OPTIONS

    def make(self, base_url: str | None = None, **option_changes: Any) -> HttpChatProvider:
        """A fresh provider against the fake server (or `base_url`), options overridable."""
        options = replace(self.options, **option_changes)
        if self.wire == "anthropic":
            url = base_url or self.server.anthropic_base_url
            return AnthropicProvider(self.model, self.key, url, options=options)
        url = base_url or self.server.openai_base_url
        return OpenAIProvider(self.model, self.key, url, options=options)

    def add_reply(
        self,
        text: str = "",
        tool_calls: Sequence[ToolCallSpec] = (),
        *,
        usage: tuple[int, int] = (10, 5),
        delay: float = 0.0,
        cut: bool = False,
    ) -> None:
        """Script one reply in this case's wire format (`cut`: stopped at its length
        limit, as each wire says it)."""
        if self.wire == "anthropic":
            stop = "max_tokens" if cut else None
            self.server.add_anthropic_reply(
                text, tool_calls, usage=usage, delay=delay, stop_reason=stop
            )
        else:
            finish = "length" if cut else None
            self.server.add_openai_reply(
                text, tool_calls, usage=usage, delay=delay, finish_reason=finish
            )

    def tool_results(self, body: dict[str, Any]) -> list[tuple[str, str, bool]]:
        """(call id, content, is_error) of every tool result the client sent back."""
        if self.wire == "anthropic":
            return [
                (block["tool_use_id"], block["content"], block["is_error"])
                for block in tool_result_blocks(body)
            ]
        return [
            (
                message["tool_call_id"],
                message["content"].removeprefix("Error: "),
                message["content"].startswith("Error: "),
            )
            for message in tool_messages(body)
        ]
