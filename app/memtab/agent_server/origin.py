"""Where an agent's `memtab mcp` session comes from (docs/formats.md §22.8): its own process's, or
the bridge's sent in the handshake, built by one function either way."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Self

from memtab.agent_server.bridge.greeting import session_origin
from memtab.fs.records import Record


class SessionOrigin(Record):
    """A session's origin (§22.8): command words, directory ("": none), variables, pids."""

    argv: tuple[str, ...]
    cwd: str
    env: dict[str, str]
    pid: int
    parent_pid: int

    @classmethod
    def here(cls, words: Sequence[str]) -> Self:
        """The origin of a session this process serves itself (`memtab` `words`)."""
        origin = cls.read(session_origin(words, os.environ))
        assert origin is not None  # what session_origin writes is one
        return origin
