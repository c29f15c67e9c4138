"""A cold server reads a run's instructions before anything else (issue 95): a run's first
request is planned with them unless the server says (llama.cpp's `GET /slots`) that it holds
them from an earlier run; a job whose server reads each prompt whole counts them each time."""

from __future__ import annotations

from memtab.llm.pace import (
    Paced,
    RunPace,
    estimated_tokens,
    instruction_tokens,
    unread_instructions,
)
from memtab.llm.speed import Speed
from memtab.llm.types import ModelReply, ToolSpec, UserMessage
from support.fake_model_server import FakeModelServer
from support.scripted_provider import ScriptedProvider

SYSTEM = "You consolidate memory files. " * 40
TOOLS = [ToolSpec("memory", "The memory tool.", {"type": "object", "properties": {}})]


class Served(ScriptedProvider):
    def __init__(self, base_url: str) -> None:
        super().__init__([ModelReply("done")] * 3)
        self.base_url = base_url
        self.max_tokens = 4096


def test_a_cold_server_is_planned_to_read_the_instructions(
    fake_model_server: FakeModelServer,
) -> None:
    provider = Served(fake_model_server.openai_base_url)
    whole = instruction_tokens(SYSTEM, TOOLS)
    assert whole > estimated_tokens(SYSTEM) > 300
    fake_model_server.routes["/slots"] = [{"id": 0, "n_ctx": 16384, "is_processing": False}]
    assert unread_instructions(provider, SYSTEM, TOOLS) == whole  # a slot that served nothing
    other = f"<|im_start|>system\nYou write notes.<|im_end|>\n{SYSTEM[:50]}"
    fake_model_server.routes["/slots"] = [{"id": 0, "prompt": other}]
    assert unread_instructions(provider, SYSTEM, TOOLS) == whole  # another prompt's
    held = f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\nConsolidate…"
    fake_model_server.routes["/slots"] = [{"id": 0}, {"id": 1, "prompt": held}]
    assert unread_instructions(provider, SYSTEM, TOOLS) == 0
    assert unread_instructions(Served("http://127.0.0.1:9/v1"), SYSTEM, TOOLS) == whole
    assert fake_model_server.requests == []


def test_the_first_request_s_reply_is_capped_with_the_instructions_read() -> None:
    slow = Speed(10.0, 4.0)
    instructions = 2000  # more than the run's time reads
    for fresh in (False, True):
        pace = RunPace(300.0, slow, now=lambda: 0.0)
        sender = Served("http://127.0.0.1:9/v1")
        paced = Paced(sender, sender, pace, instructions=instructions, fresh=fresh)
        messages = [UserMessage("Consolidate the memory below.")]
        first = instructions + estimated_tokens("Consolidate the memory below.")
        assert paced.new_tokens(messages) == first
        # asked once whatever its instructions cost, so that the server keeps them; a job
        # read whole each time (the writer's) plans them in (`writer.job.pacing`)
        assert pace.may_ask(first - instructions) and not pace.may_ask(instructions * 3)
        assert paced.may_ask(messages) == (not fresh or pace.may_ask(first))
        paced.complete(SYSTEM, messages, TOOLS)
        assert sender.max_tokens == pace.reply_cap(first) < 4096
        messages += [ModelReply("done").as_message(), UserMessage("And the rest?")]
        if fresh:  # read whole again, its instructions too
            later = instructions + estimated_tokens(
                "Consolidate the memory below. done And the rest?"
            )
        else:  # the server has the rest from the first request
            later = estimated_tokens("done And the rest?")
        assert paced.new_tokens(messages) == later
