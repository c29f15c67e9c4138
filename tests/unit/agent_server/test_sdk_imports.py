"""The MCP SDK (`mcp`, `mcp_types`' pydantic models) is imported by `sdk_server` alone, when a
session opens in the 2026-07-28 era: the memory service, its catalog, the server serving the
`initialize` era itself and the host import without it, so a command, a test or a host
answering the tools does not pay for the SDK (issue 97: it was most of a cold host's start)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SDK = {"mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "starlette"}
ANSWERING = (
    "memtab.agent_server.service",
    "memtab.agent_server.catalog",
    "memtab.agent_server.tools",
    "memtab.agent_server.hosting.catalogs",
)
SERVING = (
    "memtab.agent_server.serving.server",
    "memtab.agent_server.hosting.host",
    "memtab.cli.share.mcp_sessions",
)

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


# slow: a fresh interpreter importing the store and the service, ~0.5 s of CPU
@pytest.mark.slow
def test_answering_the_tools_does_not_import_the_sdk() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", PROBE, *ANSWERING], capture_output=True, text=True, check=True
    )
    assert not set(json.loads(ran.stdout)) & SDK


# slow: a fresh interpreter importing the servers and the host, ~0.6 s of CPU
@pytest.mark.slow
def test_serving_and_hosting_import_no_sdk() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", PROBE, *SERVING], capture_output=True, text=True, check=True
    )
    assert not set(json.loads(ran.stdout)) & (SDK - {"anyio"})


PARSER_PROBE = """
import json, sys
from memtab.cli.main import build_parser
build_parser(sys.argv[1:])
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


# slow: a fresh interpreter building every command's parser, ~0.3 s of CPU
@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--help"], ["mcp", "--help"], ["mcp", "host", "--help"]])
def test_the_parser_and_its_help_do_not_import_the_sdk(argv: list[str]) -> None:
    """`memtab --help` builds every command's parser: the SDK loads when a server runs."""
    ran = subprocess.run(
        [sys.executable, "-c", PARSER_PROBE, *argv], capture_output=True, text=True, check=True
    )
    assert not set(json.loads(ran.stdout)) & SDK
