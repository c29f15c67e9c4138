"""Consolidate now fits the context a server on this machine gives each request, as the
writer does: the file list as far as it fits, a view too long for it cut where the model
can read on, the oldest results left out of a request that cannot hold them — each said
to the model and in the run's summary, never cut unsaid — and a request past a context
fails naming the setting that raises it (issue 82)."""

from __future__ import annotations

import json

import pytest

from memtab.consolidation.engine.window import CHARS_PER_TOKEN, ContextWindow
from memtab.consolidation.errors import RunFailedError
from memtab.llm.types import Message, ToolOutcome, ToolResultsMessage, ToolSpec, UserMessage
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from support.fake_model_server import FakeModelServer

from .helpers import WS, Wire, put

CONTEXT = 4096
ROOM = (CONTEXT - CONTEXT // 4) * CHARS_PER_TOKEN  # the reply keeps a quarter
BIG = "/memories/project/big.md"


def llama_cpp(server: FakeModelServer, n_ctx: int = CONTEXT) -> Wire:
    server.props = {"default_generation_settings": {"n_ctx": n_ctx}}
    return Wire("openai", server)


def seed(store: MemoryStore, files: int) -> None:
    for number in range(files):
        put(
            store,
            f"/memories/global/topic-{number:02}.md",
            f"---\ndescription: Notes on topic {number} and why each matters to the build\n"
            f"---\n- fact {number}\n",
        )
    put(
        store,
        BIG,
        "".join(f"- rule {line}: keep the build green on every push\n" for line in range(300)),
    )


def view(path: str, **more: int) -> dict[str, object]:
    return {"command": "view", "path": path, **more}


def test_a_run_shows_what_fits_and_says_what_it_did_not(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore
) -> None:
    wire = llama_cpp(fake_model_server)
    seed(store, 60)
    wire.memory(view(BIG))
    wire.memory(view("/memories/global/topic-00.md"), view(BIG, offset=200))
    wire.memory(view("/memories/global/topic-01.md"))
    wire.reply("Nothing to merge.")

    record = wire.service(home).run(WS)

    requests = [request.body for request in fake_model_server.requests]
    assert len(requests) == 4
    assert all(len(json.dumps(body, ensure_ascii=False)) <= ROOM for body in requests)
    listing = requests[0]["messages"][1]["content"]
    assert "more files, not listed to fit the model's context" in listing
    assert "topic-00.md" in listing and "topic-59.md" not in listing
    [shown] = wire.tool_results(1)
    assert shown[0].startswith("1\t- rule 0:")
    assert "View this file again with offset " in shown[0]
    assert "do not fit the model's context of 4,096 tokens" in shown[0]
    later = json.dumps(requests[3])
    assert "This earlier result is left out to fit the model's context of 4,096 tokens" in later
    assert record.summary.startswith("no changes made (read ")
    assert "To fit the model's context of 4,096 tokens: " in record.summary
    assert " of the 61 files not listed" in record.summary
    assert "tool results shown in part" in record.summary
    assert "left out of later requests" in record.summary


def test_a_server_that_says_no_context_is_sent_everything(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore
) -> None:
    wire = Wire("openai", fake_model_server)
    seed(store, 60)
    wire.memory(view(BIG))
    wire.reply("Nothing to merge.")

    record = wire.service(home).run(WS)

    assert "topic-59.md" in fake_model_server.requests[0].body["messages"][1]["content"]
    [shown] = wire.tool_results(1)
    assert shown[0].endswith("300\t- rule 299: keep the build green on every push")
    assert "context" not in record.summary


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"tool loop stopped at step 1: .*context")
@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*context")
def test_a_request_past_the_context_names_the_setting_that_raises_it(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore
) -> None:
    wire = llama_cpp(fake_model_server)
    seed(store, 2)
    said = "request (5219 tokens) exceeds the available context size (4096 tokens)"
    fake_model_server.add_error(400, {"error": {"code": 400, "message": said}})

    with pytest.raises(RunFailedError) as failed:
        wire.service(home).run(WS)

    assert said in str(failed.value) and "llama.cpp's -c" in str(failed.value)


def test_newest_results_a_request_cannot_hold_are_cut_saying_so() -> None:
    def size(system: str, messages: list[Message], tools: list[ToolSpec]) -> int:
        return sum(
            len(r.content) for m in messages if isinstance(m, ToolResultsMessage) for r in m.results
        )

    window = ContextWindow(tokens=2048, chars=1000, measure=size)
    older = ToolResultsMessage((ToolOutcome("a", "x" * 900),))
    newest = ToolResultsMessage((ToolOutcome("b", "y" * 700), ToolOutcome("c", "z" * 20)))
    messages: list[Message] = [UserMessage("go"), older, newest]

    fitted = window.fit("system", messages, [])

    assert fitted[1] != older and "left out to fit" in fitted[1].results[0].content  # type: ignore[union-attr]
    assert size("", fitted, []) <= 1000
    window.chars = 400
    fitted = window.fit("system", messages, [])
    assert size("", fitted, []) <= 400
    big, small = fitted[2].results  # type: ignore[union-attr]
    assert big.content.startswith("yyy") and big.content.endswith(
        "more characters not shown: they do not fit the model's context of 2,048 tokens.]"
    )
    assert small.content == "z" * 20  # a short one is kept whole
    assert window.said() == (
        "To fit the model's context of 2,048 tokens: 1 tool result shown in part, "
        "1 earlier result left out of later requests."
    )
    assert messages[2] is newest and newest.results[0].content == "y" * 700  # the run's own
