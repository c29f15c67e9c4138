"""The window's look at the memory for the three questions (issue 72), in a child process.

`WindowTrust.find` asks `trust.together.TrustEngines` for the home's duplicates — but the
groups kept as they are —, contradictions and leaks, over one read of the memory, in a
child process (spawned, as the consolidator's runs are: `consolidation/job.py`), and
returns the `TrustReport` it sends back. Two reasons, both measured: the engines' words,
claims and mentions of 3,000 files kept in the window grew its settled memory by ~20 MiB
(~65 MiB with 20,000), past the window's targets; and their pure-Python work on a worker
thread holds the interpreter lock the GUI thread paints with. A child gives both back when
it ends. Each look reads every file again and works out only those whose text changed
since the last look or command (the engines' caches, `kept.per_file`: docs/formats.md
§19.10); the window asks at most one at a time and only once the disk is quiet.
A cancelled look (a newer one, the window closing) ends its child.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from memtab.components.jobs import JobContext
from memtab.store.home import Home, HomeError
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.report import TrustReport

logger = logging.getLogger(__name__)

_POLL_S = 0.1
_JOIN_S = 5.0


@dataclass(frozen=True)
class NotRead:
    """Why the memory could not be read (the registry cannot be, the child failed)."""

    message: str


class WindowTrust:
    """The window's looks at its home (see the module doc)."""

    def __init__(self, home: Home, *, env: Mapping[str, str] | None = None) -> None:
        self._home = home
        self._env = dict(env) if env is not None else None

    def find(self, ctx: JobContext) -> TrustReport | NotRead | None:
        """The home's duplicates (but those kept as they are), contradictions and leaks;
        None when cancelled."""
        spawn = multiprocessing.get_context("spawn")
        receive, send = spawn.Pipe(duplex=False)
        child = spawn.Process(
            target=_look,
            args=(str(self._home.root), self._env, send),
            name="memtab-trust",
            daemon=True,
        )
        child.start()
        send.close()  # the child's end: its closing tells the parent when it dies
        try:
            while not receive.poll(_POLL_S):
                if ctx.is_cancelled():
                    return None
                if not child.is_alive() and not receive.poll(0):
                    child.join(_JOIN_S)
                    return NotRead(f"the look at the memory ended ({child.exitcode})")
            try:
                answer = receive.recv()
            except EOFError:
                child.join(_JOIN_S)
                return NotRead(f"the look at the memory ended ({child.exitcode})")
        finally:
            receive.close()
            if child.is_alive():
                child.terminate()
            child.join(_JOIN_S)
        if isinstance(answer, TrustReport | NotRead):
            return answer
        return NotRead(str(answer))


def _look(root: str, env: Mapping[str, str] | None, send: Connection) -> None:
    """In the child: the look, its answer sent back (a failure in words)."""
    # lazy: in the child only — the engines, ~20 MiB of a 3,000-file window settled,
    # never load in the window
    from memtab.trust.together import TrustEngines

    home = Home(Path(root))
    try:
        answer: TrustReport | NotRead = TrustEngines(home, env=env).find(kept=load_kept(home))
    except HomeError as error:
        answer = NotRead(str(error))
    except Exception as error:
        logger.exception("The look at the memory failed")
        answer = NotRead(f"{type(error).__name__}: {error}")
    send.send(answer)
    send.close()
