"""`served`: a test of `memtab mcp` runs twice — the session served in its own process, and
through the bridge by a warm host it starts (docs/formats.md §22.8), which ends with the
test: every guarantee of the server holds both ways."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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
