"""A tool that fails in a way nobody foresaw is still a tool error with its reason, and
the server goes on (the SDK's client, connected in-process)."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_types import TextContent

from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.sdk_server import build_server
from memtab.agent_server.serving.server import serve_stdio
from memtab.store.home import Home


def test_an_unforeseen_failure_is_a_tool_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    service = MemoryService(home, None, writes="off", other_agents=False)

    def broken(**_: object) -> list[object]:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service.catalog, "rows", broken)

    async def session() -> None:
        async with Client(build_server(service)) as client:
            failed = await client.call_tool("list", {})
            assert failed.is_error
            block = failed.content[0]
            assert isinstance(block, TextContent)
            expected = "Internal error in Memtab's MCP server: RuntimeError('disk on fire')"
            assert block.text == expected
            assert not (await client.call_tool("view", {"path": "/memories"})).is_error

    with caplog.at_level(logging.CRITICAL, logger="memtab.agent_server.serving.mcp_session"):
        anyio.run(session)
    service.catalog.close()


def test_a_server_keeps_what_its_start_made_out_of_the_collectors_sight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A first search's listing makes ~100,000 objects: the full collection they bring
    # would walk every module, model and object the start made again.
    said: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: said.append("frozen"))
    monkeypatch.setattr(anyio, "run", lambda *_: said.append("served"))
    service = MemoryService(Home(tmp_path / "home"), None, writes="off", other_agents=False)
    serve_stdio(service)
    assert said == ["frozen", "served"]


def test_a_call_opens_no_tracing_span(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 97: the SDK wrapped every request in an OpenTelemetry span, a no-op without a
    tracer (Memtab sets up none) that a warm host's look-alike search paid on every call."""
    import mcp.server._otel as sdk_tracing

    spans: list[str] = []
    traced = sdk_tracing.otel_span
    monkeypatch.setattr(
        sdk_tracing, "otel_span", lambda name, **kw: spans.append(name) or traced(name, **kw)
    )
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    service = MemoryService(home, None, writes="off", other_agents=False)

    async def session() -> None:
        async with Client(build_server(service)) as client:
            assert not (await client.call_tool("view", {"path": "/memories"})).is_error

    anyio.run(session)
    service.catalog.close()
    assert spans == []
