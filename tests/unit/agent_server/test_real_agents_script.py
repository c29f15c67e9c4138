"""`scripts/real-agents` runs Claude Code, Codex and Gemini CLI from npm against a stand-in
model (issue 97's "Done when"): the script imports and its `--help` runs, and the stand-in
answers each agent's wire format with the Memtab tool the user's turn asks for, then reads back
what each agent sent its model — so a check there reads what a user's model would have read."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from support.agent_stand_in import AgentStandIn, tool_results, tools_offered

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "real-agents"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("real_agents_script", str(SCRIPT))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # its dataclasses look their module up
    loader.exec_module(module)
    return module


@pytest.fixture
def stand_in() -> Iterator[AgentStandIn]:
    server = AgentStandIn()
    yield server
    server.close()


def post(server: AgentStandIn, path: str, body: dict[str, object]) -> str:
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.read().decode()


def streamed(payload: str) -> list[dict[str, object]]:
    return [
        json.loads(line[len("data: ") :])
        for line in payload.splitlines()
        if line.startswith("data: ")
    ]


def test_its_help_runs(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        script.main(["--help"])
    assert ended.value.code == 0
    assert "--mcp-list" in capsys.readouterr().out


def test_an_unknown_agent_is_refused_before_anything_is_installed(script: ModuleType) -> None:
    with pytest.raises(SystemExit) as ended:
        script.main(["--agents", "cursor"])
    assert ended.value.code == 2


def test_claude_codes_turn_calls_memtabs_list_and_its_result_is_read_back(
    stand_in: AgentStandIn,
) -> None:
    tools = [{"name": "mcp__memtab__list"}, {"name": "mcp__memtab__search"}, {"name": "Bash"}]
    events = streamed(
        post(
            stand_in,
            "/v1/messages",
            {
                "stream": True,
                "tools": tools,
                "messages": [{"role": "user", "content": "List my memories"}],
            },
        )
    )
    [start] = [event for event in events if event["type"] == "content_block_start"]
    [delta] = [event for event in events if event["type"] == "content_block_delta"]
    assert start["content_block"]["name"] == "mcp__memtab__list"
    assert delta["delta"] == {"type": "input_json_delta", "partial_json": "{}"}
    answered = [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "content": [{"type": "text", "text": '{"files": 3}'}]}
            ],
        }
    ]
    events = streamed(
        post(stand_in, "/v1/messages", {"stream": True, "tools": tools, "messages": answered})
    )
    assert any(
        event.get("delta", {}).get("text", "").startswith("The tool said: ") for event in events
    )
    requests = stand_in.requests_since(0)
    assert tools_offered(requests) == ["mcp__memtab__list", "mcp__memtab__search"]
    assert tool_results(requests) == ['{"files": 3}']


def test_codexs_namespaced_tool_is_called_by_its_short_name(stand_in: AgentStandIn) -> None:
    tools = [
        {
            "type": "namespace",
            "name": "mcp__memtab",
            "tools": [{"name": "search"}, {"name": "view"}],
        }
    ]
    body = {
        "tools": tools,
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "How do we deploy?"}]}
        ],
    }
    [added] = [
        event
        for event in streamed(post(stand_in, "/v1/responses", body))
        if event["type"] == "response.output_item.added"
    ]
    item = added["item"]
    assert (item["namespace"], item["name"]) == ("mcp__memtab", "search")
    assert json.loads(item["arguments"]) == {"query": "how do we deploy"}
    body["input"].append({"type": "function_call_output", "output": "deploy with make ship"})
    post(stand_in, "/v1/responses", body)
    assert tool_results(stand_in.requests_since(0)) == ["deploy with make ship"]


def test_gemini_clis_routing_question_gets_json_and_its_turn_a_function_call(
    stand_in: AgentStandIn,
) -> None:
    routing = json.loads(
        post(
            stand_in,
            "/v1beta/models/flash:generateContent",
            {"generationConfig": {"responseMimeType": "application/json"}, "contents": []},
        )
    )
    assert (
        json.loads(routing["candidates"][0]["content"]["parts"][0]["text"])["next_speaker"]
        == "user"
    )
    tools = [{"functionDeclarations": [{"name": "mcp_memtab_view"}, {"name": "mcp_memtab_create"}]}]
    turn = {
        "tools": tools,
        "contents": [{"role": "user", "parts": [{"text": "View /memories/global/deploy.md"}]}],
    }
    [chunk] = streamed(post(stand_in, "/v1beta/models/flash:streamGenerateContent?alt=sse", turn))
    call = chunk["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert call == {"name": "mcp_memtab_view", "args": {"path": "/memories/global/deploy.md"}}


def test_a_turn_naming_no_memtab_tool_is_answered_in_words(stand_in: AgentStandIn) -> None:
    body = {
        "stream": False,
        "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": "List my memories"}],
    }
    reply = json.loads(post(stand_in, "/v1/messages", body))
    assert reply["content"] == [{"type": "text", "text": "OK."}]
