"""`served`: a test of `memtab mcp` runs twice — the session served in its own process, and
through the bridge by a warm host it starts (docs/formats.md §22.8), which ends with the
test: every guarantee of the server holds both ways."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memtab.agent_server import catalog
from support.mcp_hosts import end_hosts, host_pids

SERVED = ("own-process", "hosted")


@pytest.fixture(params=SERVED)
def served(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "hosted":
        monkeypatch.delenv("MEMTAB_MCP_SHARED")
    try:
        yield request.param
        if request.param == "hosted":
            assert host_pids(), "no warm host served the test's sessions"
    finally:
        end_hosts()


@pytest.fixture
def background_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's background work (the watch, the rest of the indexing)
    starts as soon as the first answer is made, not `ANSWER_OUT_S` (0.3 s) after: for the
    tests that wait for that work and are not about when it starts."""
    monkeypatch.setattr(catalog, "ANSWER_OUT_S", 0.0)
