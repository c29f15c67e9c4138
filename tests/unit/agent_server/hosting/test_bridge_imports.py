"""An agent's session of `memtab mcp` runs the thin bridge (docs/formats.md §22.8): started as
agents start it, with a warm host up, it imports the bridge's own modules and the standard
library — no SDK, no pydantic, no anyio, no store, no record machinery, no OpenSSL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.agent_server.bridge.rendezvous import rendezvous
from support.demo_homes import copied_demo_home
from support.mcp_hosts import start

# What the bridge's process holds of Memtab, exactly.
BRIDGE_MODULES = {
    "memtab",
    "memtab.launch",
    "memtab.invocation",
    "memtab.agent_server",
    "memtab.agent_server.bridge",
    "memtab.agent_server.bridge.frame_ids",
    "memtab.agent_server.bridge.front",
    "memtab.agent_server.bridge.greeting",
    "memtab.agent_server.bridge.known_answers",
    "memtab.agent_server.bridge.session",
    "memtab.agent_server.bridge.pump",
    "memtab.agent_server.bridge.reach",
    "memtab.agent_server.bridge.rendezvous",
}
NEVER = {"mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "typing", "_hashlib", "argparse"}

# `memtab mcp` as the console script runs it; what it imported, once its session ended.
SESSION = """
import json, sys
from memtab.launch import main
status = main()
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
print(json.dumps([status, loaded]), file=sys.stderr)
"""


def test_a_session_of_memtab_mcp_imports_the_bridge_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = str(copied_demo_home(tmp_path / "demo").root)
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    host = start(rendezvous(home, os.environ))
    try:
        ran = subprocess.run(
            [sys.executable, "-c", SESSION, "mcp", "--home", home, "--writes", "off"],
            stdin=subprocess.DEVNULL,  # the agent hangs up at once
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    finally:
        host.stop()
    status, modules = json.loads(ran.stderr.strip().splitlines()[-1])
    assert status == 0
    assert {name for name in modules if name.startswith("memtab")} == BRIDGE_MODULES
    assert not {name.split(".")[0] for name in modules} & NEVER
