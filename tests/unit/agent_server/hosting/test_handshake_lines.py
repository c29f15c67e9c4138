"""The bridge writes and reads the handshake by hand, to stay thin (`bridge/greeting.py`):
what it writes is exactly what the records `Hello` and `SessionOrigin` write, and it reads
the host's `Welcome` as the record says (docs/formats.md §22.8)."""

from __future__ import annotations

import json
import os

from memtab import __version__
from memtab.agent_server.bridge.greeting import (
    SESSION,
    STATUS,
    hello,
    session_origin,
    welcome_problem,
)
from memtab.agent_server.bridge.rendezvous import PROTOCOL, install_identity
from memtab.agent_server.hosting.handshake import Hello, Welcome
from memtab.agent_server.origin import SessionOrigin


def test_the_bridges_hello_is_the_records() -> None:
    environ = {"HOME": "/u", "CLAUDE_PROJECT_DIR": "/p", "ANTHROPIC_API_KEY": "k", "PATH": "/b"}
    raw = json.loads(hello(SESSION, session_origin(["mcp", "--writes", "off"], environ)))
    read = Hello.read(raw)
    assert read is not None and read.to_json() == raw  # every field, in the record's order
    python, package = install_identity()
    assert (read.memtab, read.protocol, read.python, read.package) == (
        __version__,
        PROTOCOL,
        python,
        package,
    )
    assert read.origin == SessionOrigin(
        argv=("mcp", "--writes", "off"),
        cwd=os.getcwd(),
        env={"CLAUDE_PROJECT_DIR": "/p", "HOME": "/u"},  # no credential, nothing else
        pid=os.getpid(),
        parent_pid=os.getppid(),
    )
    status = Hello.read(json.loads(hello(STATUS)))
    assert status is not None and status.origin is None and status.purpose == "status"


def test_the_origin_of_a_session_served_in_its_own_process_is_built_the_same_way() -> None:
    here = SessionOrigin.here(["mcp"])
    assert here.to_json() == session_origin(["mcp"], os.environ)


def welcome_line(**fields: object) -> bytes:
    settings: dict[str, object] = {
        "ok": True,
        "memtab": __version__,
        "protocol": PROTOCOL,
        "pid": 7,
    }
    settings.update(fields)
    return json.dumps(Welcome(**settings).to_json()).encode()  # type: ignore[arg-type]


def test_the_bridge_reads_the_hosts_welcome() -> None:
    assert welcome_problem(welcome_line()) is None
    assert welcome_problem(welcome_line(ok=False, reason="Unknown workspace 'x'")) == (
        "Unknown workspace 'x'"
    )
    skewed = welcome_problem(welcome_line(memtab="0.0.1-other"))
    assert skewed == (
        f"the host is Memtab '0.0.1-other' (protocol {PROTOCOL}), "
        f"this is {__version__!r} (protocol {PROTOCOL})"
    )
    assert welcome_problem(b"nonsense") == "the host's answer is not JSON"
