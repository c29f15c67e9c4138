"""Where an agent's session of `memtab mcp` comes from: the one input that decides what the
session serves (docs/formats.md §22.8).

In its own process a session's origin is that process's; hosted by a warm Memtab it is
the bridge's, sent in the handshake (the host's own directory and environment are not the
agent's). Both are built by the same function (`bridge.greeting.session_origin`) and read
into this record, so a session is opened from the same facts either way.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Self

from memtab.agent_server.bridge.greeting import session_origin
from memtab.fs.records import Record


class SessionOrigin(Record):
    """A session's origin (docs/formats.md §22.8): the words of its `memtab` command, its
    working directory ("" when it has none), the variables that matter
    (`bridge.rendezvous.origin_env`), its process and the agent's (its parent)."""

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
