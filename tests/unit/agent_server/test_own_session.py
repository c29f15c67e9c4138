"""A session in the `initialize` era is served by Memtab itself (`mcp_session`), answering every
frame as the MCP SDK's server answers it — both fed the same frames in-process, one at a time —
without loading the SDK; a session opening in the 2026-07-28 era is the SDK's; a cancelled call is
never answered, and a `ping` is answered while a call runs."""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest

from memtab.agent_server.service import Answer, MemoryService
from memtab.agent_server.serving import mcp_session
from memtab.agent_server.serving.frames import FrameGuard
from memtab.agent_server.serving.server import Answers, serve_frames
from memtab.store.home import Home
from support.demo_homes import copied_demo_home

Read = Callable[[], Awaitable[bytes]]
Write = Callable[[bytes], Awaitable[None]]
Serve = Callable[..., Coroutine[Any, Any, None]]
WITHIN_S = 30.0


async def sdk_serves(
    service: MemoryService,
    read: Callable[[], Awaitable[bytes]],
    write: Callable[[bytes], Awaitable[None]],
) -> None:
    """The session served by the SDK's server, whatever its era."""
    from memtab.agent_server.serving import sdk_server

    guard, answers = FrameGuard(read), Answers(write)
    guard.answer_through(answers.send)
    await sdk_server.serve_sdk_session(service, [], guard, answers.send_text)


def conversation(
    serve: Serve,
    service: MemoryService,
    frames: list[dict[str, Any]],
    written_on: list[str] | None = None,
) -> list[dict[str, Any]]:
    """What `serve` answers `frames`, each sent once the one before it is answered; with
    `written_on`, served with a blocking writer too, each answer's thread's name kept there."""
    said: list[dict[str, Any]] = []
    to_server, from_client = anyio.create_memory_object_stream[bytes](100)

    async def read() -> bytes:
        try:
            return await from_client.receive()
        except anyio.EndOfStream:
            return b""

    def write_now(data: bytes) -> None:
        if written_on is not None:
            written_on.append(threading.current_thread().name)
        said.extend(json.loads(line) for line in data.splitlines())

    async def write(data: bytes) -> None:
        write_now(data)

    if written_on is not None:
        serve = partial(serve, write_now=write_now)

    async def client() -> None:
        for frame in frames:
            await to_server.send(json.dumps(frame).encode() + b"\n")
            if "id" in frame and "method" in frame:
                while not any(each.get("id") == frame["id"] for each in said):
                    await anyio.sleep(0.005)
        await to_server.aclose()

    async def run() -> None:
        with anyio.fail_after(WITHIN_S):
            async with anyio.create_task_group() as group:
                group.start_soon(serve, service, read, write)
                group.start_soon(client)

    try:
        anyio.run(run)
    finally:
        from_client.close()
    return said


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Home]:
    yield copied_demo_home(tmp_path / "demo")


def frames_of(version: str) -> list[dict[str, Any]]:
    def request(its_id: object, method: str, params: object = None) -> dict[str, Any]:
        frame = {"jsonrpc": "2.0", "id": its_id, "method": method}
        return frame if params is None else {**frame, "params": params}

    call = "tools/call"
    client = {"name": "claude-code", "version": "2.1.332"}
    opening = {"protocolVersion": version, "capabilities": {}, "clientInfo": client}
    return [
        request("early", "tools/list"),
        request("p0", "ping"),
        request("d0", "server/discover", {}),
        request("u0", "nothing/here"),
        request("bad", "initialize", {"protocolVersion": version}),
        request(1, "initialize", opening),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        request(2, "tools/list"),
        request(3, call, {"name": "search", "arguments": {"query": "token"}}),
        request(4, call, {"name": "list", "arguments": {"scope": "global"}}),
        request(5, call, {"name": "view", "arguments": {"path": "/memories"}}),
        request(6, call, {"name": "nosuch", "arguments": {}}),
        request(7, call, {"name": "search", "arguments": {"query": 5}}),
        request(8, call, {"arguments": {}}),
        request(9, call, {"name": "list", "arguments": []}),
        request(10, "tools/list", {"cursor": 5}),
        request(11, "server/discover", {}),
        request(12, "prompts/list"),
        request(13, "resources/list", {}),
        request(14, "logging/setLevel", {"level": "info"}),
        request(15, "ping", {"_meta": {"progressToken": "t"}}),
        request(16, "tools/list", {"_meta": {mcp_session.MODERN_VERSION_KEY: "2026-07-28"}}),
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        request(17, "tools/list"),
        request(18, "initialize", opening),
    ]


@pytest.mark.parametrize("version", [*mcp_session.HANDSHAKE_VERSIONS, "2099-01-01"])
def test_the_handshake_era_is_answered_as_the_sdk_answers_it(demo: Home, version: str) -> None:
    def answers(serve: Serve) -> list[dict[str, Any]]:
        service = MemoryService(demo, None, writes="direct", other_agents=False)
        try:
            return conversation(serve, service, frames_of(version))
        finally:
            service.close()

    sdks = answers(sdk_serves)
    ours = answers(serve_frames)
    assert [each.get("id") for each in ours] == [each.get("id") for each in sdks]
    assert ours == sdks
    by_id = {each.get("id"): each for each in ours}
    assert by_id[1]["result"]["protocolVersion"] == (
        version if version in mcp_session.HANDSHAKE_VERSIONS else "2025-11-25"
    )
    assert len(by_id[2]["result"]["tools"]) == 8
    assert by_id[8]["error"]["code"] == by_id[11]["error"]["code"] - 1 == -32602


def test_calls_answered_on_the_sessions_worker_are_the_sdks_answers(demo: Home) -> None:
    def answers(serve: Serve, written_on: list[str] | None = None) -> list[dict[str, Any]]:
        service = MemoryService(demo, None, writes="direct", other_agents=False)
        try:
            return conversation(serve, service, frames_of("2025-11-25"), written_on)
        finally:
            service.close()

    written_on: list[str] = []
    ours = answers(serve_frames, written_on)
    assert ours == answers(sdk_serves)
    frames = frames_of("2025-11-25")
    calls = [each.get("id") for each in frames if each.get("method") == "tools/call"]
    on_worker = [
        each["id"] for each, thread in zip(ours, written_on, strict=True)
        if thread == "memtab-mcp-session"
    ]  # fmt: skip
    assert on_worker == [3, 4, 5, 6, 7] and set(on_worker) <= set(calls)  # 8, 9: not a call


def test_the_sdks_versions_and_envelope_are_the_sessions() -> None:
    from mcp.server.runner import PROTOCOL_VERSION_META_KEY  # type: ignore[attr-defined]
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert mcp_session.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS
    assert mcp_session.MODERN_VERSION_KEY == PROTOCOL_VERSION_META_KEY


def test_a_session_opening_in_the_2026_era_is_the_sdks(demo: Home) -> None:
    envelope = {
        mcp_session.MODERN_VERSION_KEY: "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    opened = {"_meta": envelope}
    service = MemoryService(demo, None, writes="off", other_agents=False)
    try:
        said = conversation(
            serve_frames,
            service,
            [
                {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": opened},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": opened},
            ],
        )
    finally:
        service.close()
    discovered, listed = said
    assert discovered["result"]["supportedVersions"] == ["2026-07-28"]
    assert [tool["name"] for tool in listed["result"]["tools"]] == ["list", "search", "view"]
    assert listed["result"]["resultType"] == "complete"


@pytest.mark.parametrize("on_worker", [False, True], ids=["answered-on-the-loop", "on-the-worker"])
def test_a_ping_is_answered_while_a_call_runs_and_a_cancelled_call_never(
    demo: Home, monkeypatch: pytest.MonkeyPatch, on_worker: bool
) -> None:
    service = MemoryService(demo, None, writes="off", other_agents=False)
    running, release = threading.Event(), threading.Event()

    def slow_call(name: str, arguments: dict[str, Any], client: str | None) -> Any:
        running.set()
        release.wait(WITHIN_S)
        return Answer(text="late")

    monkeypatch.setattr(service, "call", slow_call)
    said: list[dict[str, Any]] = []
    to_server, from_client = anyio.create_memory_object_stream[bytes](100)

    async def read() -> bytes:
        try:
            return await from_client.receive()
        except anyio.EndOfStream:
            return b""

    def write_now(data: bytes) -> None:
        said.extend(json.loads(line) for line in data.splitlines())

    async def write(data: bytes) -> None:
        write_now(data)

    serve = partial(serve_frames, write_now=write_now) if on_worker else serve_frames

    def frame(message: dict[str, Any]) -> bytes:
        return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"

    async def client() -> None:
        client_info = {"name": "c", "version": "1"}
        opening = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client_info}
        await to_server.send(frame({"id": 1, "method": "initialize", "params": opening}))
        call = {"name": "list", "arguments": {}}
        await to_server.send(frame({"id": 2, "method": "tools/call", "params": call}))
        await anyio.to_thread.run_sync(running.wait, WITHIN_S)
        await to_server.send(frame({"id": 3, "method": "ping"}))
        while len(said) < 2:
            await anyio.sleep(0.005)
        cancel = {"requestId": 2, "reason": "the user pressed Esc"}
        await to_server.send(frame({"method": "notifications/cancelled", "params": cancel}))
        await anyio.sleep(0.05)
        release.set()
        await to_server.send(frame({"id": 4, "method": "ping"}))
        while len(said) < 3:
            await anyio.sleep(0.005)
        await to_server.aclose()

    async def run() -> None:
        with anyio.fail_after(WITHIN_S):
            async with anyio.create_task_group() as group:
                group.start_soon(serve, service, read, write)
                group.start_soon(client)

    try:
        anyio.run(run)
    finally:
        release.set()
        from_client.close()
        service.close()
    assert [each["id"] for each in said] == [1, 3, 4]  # 2 cancelled: never answered


def test_a_sessions_calls_run_on_one_thread_of_its_own_that_ends_with_it(
    demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = MemoryService(demo, None, writes="off", other_agents=False)
    ran_on: list[threading.Thread] = []
    real_call = service.call

    def recorded_call(name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        ran_on.append(threading.current_thread())
        return real_call(name, arguments, client)

    monkeypatch.setattr(service, "call", recorded_call)
    kept = ("initialize", "notifications/initialized", "tools/call")
    frames = [each for each in frames_of("2025-11-25") if each.get("method") in kept]
    try:
        said = conversation(serve_frames, service, frames)
    finally:
        service.close()
    assert any(each.get("result", {}).get("content") for each in said)
    assert len(ran_on) >= 2 and len(set(ran_on)) == 1, ran_on
    assert ran_on[0].name == "memtab-mcp-session"  # not a pool's: the hop costs a third of it
    ran_on[0].join(WITHIN_S)
    assert not ran_on[0].is_alive(), "the session's worker outlived it"


def test_a_call_that_changes_what_is_served_says_so_before_its_answer(
    demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = MemoryService(demo, None, writes="off", other_agents=False)
    real_call = service.call

    def call_moving_the_session(name: str, arguments: dict[str, Any], client: str | None) -> Any:
        answer = real_call(name, arguments, client)
        monkeypatch.setattr(service, "scope", object())  # as a registry change re-decides it
        return answer

    monkeypatch.setattr(service, "call", call_moving_the_session)
    opening = next(each for each in frames_of("2025-11-25") if each.get("id") == 1)
    search = {"name": "search", "arguments": {"query": "token"}}
    frames = [
        opening,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": search},
    ]
    written_on: list[str] = []
    try:
        said = conversation(serve_frames, service, frames, written_on)
    finally:
        service.close()
    assert [each.get("id", each.get("method")) for each in said] == [
        1,
        2,
        mcp_session.TOOLS_CHANGED,
        3,
    ]
    assert said[3]["result"]["content"][0]["text"]
