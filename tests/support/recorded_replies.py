"""What real local models answered, replayed (issue 82): `make test` needs no model.

`tests/fixtures/real-model/replies/*.json` hold, per fixture transcript (or store), the texts a
model replied in order, as its run's trace dump kept them (README there). `Replay` answers
a run with them as an HTTP provider would: a reply whose text is tool calls is taken as
those calls (`llm.written.calls`, what `HttpChatProvider.complete` does). Once they are
spent — today's code answered the model otherwise than when it was recorded, and asks on
— it says `SPENT`: `no_new_memories`, what both models said after a refused write.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from memtab.llm.openai import OpenAIProvider
from memtab.llm.types import Message, ModelReply, ToolSpec
from memtab.llm.written.calls import calls_in_text

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "real-model" / "replies"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "shared"
SPENT = '{"name": "no_new_memories", "arguments": {}}'


def recorded(name: str) -> dict[str, list[str]]:
    """One recording: the replies of each run, by the fixture it ran on."""
    data: dict[str, list[str]] = json.loads((RECORDED / name).read_text(encoding="utf-8"))
    return data


def fixture_transcript(name: str) -> Path:
    """A shared fixture transcript by its file name."""
    return next(FIXTURES.glob(f"*/{name}"))


def cassette_replies(path: Path) -> list[ModelReply]:
    """The replies a cassette of `support.real_model` holds, read as the provider reads a
    server's (its calls made, or written as text)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    provider = OpenAIProvider("recorded", None, "http://127.0.0.1:9/v1")
    try:
        return [
            provider.parse_reply(exchange["reply"])
            for exchange in data["exchanges"]
            if exchange.get("status") == 200 and isinstance(exchange.get("reply"), dict)
        ]
    finally:
        provider.close()


@dataclass
class Replay:
    """A ChatProvider answering with recorded replies (texts, or replies read from a
    cassette), in order, then `SPENT`."""

    texts: list[str | ModelReply]
    used: int = 0
    sent: list[list[Message]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return "openai"

    @property
    def model(self) -> str:
        return "recorded"

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        self.sent.append(list(messages))
        recorded = self.texts[self.used] if self.used < len(self.texts) else SPENT
        self.used += 1
        if isinstance(recorded, ModelReply) and recorded.tool_calls:
            return recorded
        text = recorded.text if isinstance(recorded, ModelReply) else recorded
        calls = calls_in_text(text, tools, f"r{self.used}")
        return ModelReply(text, calls, "stop", calls_from_text=bool(calls))
