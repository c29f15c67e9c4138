"""The bridge's first line to a host and what it reads back (docs/formats.md §22.8), by hand: the
records `Hello`, `SessionOrigin`, `Welcome`, `HostStatus` (`test_handshake_lines.py` holds them
equal)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from memtab import __version__
from memtab.agent_server.bridge.rendezvous import (
    PROTOCOL,
    install_identity,
    origin_env,
    resolved_env,
    working_directory,
)

SESSION = "session"
STATUS = "status"


def session_origin(words: Sequence[str], environ: Mapping[str, str]) -> dict[str, object]:
    """Where a session comes from, as `SessionOrigin` writes it: its command words, directory,
    variables (`resolved_env`), pid and parent's."""
    cwd = working_directory()
    return {
        "argv": list(words),
        "cwd": cwd,
        "env": origin_env(resolved_env(environ, cwd)),
        "pid": os.getpid(),
        "parentPid": os.getppid(),
    }


def hello(purpose: str, origin: dict[str, object] | None = None) -> bytes:
    """The line `Hello` writes: this Memtab, what the connection is for, the origin."""
    python, package = install_identity()
    fields: dict[str, object] = {
        "memtab": __version__,
        "protocol": PROTOCOL,
        "python": python,
        "package": package,
        "purpose": purpose,
    }
    if origin is not None:
        fields["origin"] = origin
    return json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"


def welcome_files(line: bytes) -> list[str]:
    """The files a welcome says the session's answers are made from (`answersFrom`)."""
    try:
        answer = json.loads(line)
    except ValueError:
        return []
    named = answer.get("answersFrom") if isinstance(answer, dict) else None
    if not isinstance(named, list):
        return []
    return [path for path in named if isinstance(path, str)]


def welcome_problem(line: bytes) -> str | None:
    """Why the host's answer is no welcome; None when the session may start."""
    try:
        answer = json.loads(line)
    except ValueError:
        return "the host's answer is not JSON"
    if not isinstance(answer, dict):
        return "the host's answer is not a JSON object"
    if answer.get("memtab") != __version__ or answer.get("protocol") != PROTOCOL:
        return (
            f"the host is Memtab {answer.get('memtab')!r} (protocol {answer.get('protocol')!r}), "
            f"this is {__version__!r} (protocol {PROTOCOL})"
        )
    if answer.get("ok") is not True:
        reason = answer.get("reason")
        return str(reason) if reason else "the host refused the session"
    return None
