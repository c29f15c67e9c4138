"""The window's one set of trust engines (issue 72), off the GUI thread.

`WindowTrust` holds the window's `trust.together.TrustEngines` (built on the lane by its
first run: each engine keeps what it worked out of every file by its text, so a run after
a change works out again only the changed files) and finds the home's duplicates — but
the groups kept as they are —, contradictions and leaks in one read.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from memtab.operations.job import JobContext
from memtab.store.home import Home, HomeError
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.together import TrustEngines, TrustReport


@dataclass(frozen=True)
class NotRead:
    """Why the memory could not be read (the registry cannot be)."""

    message: str


class WindowTrust:
    """The window's one set of trust engines, built on the lane by the first run."""

    def __init__(self, home: Home, *, env: Mapping[str, str] | None = None) -> None:
        self._home = home
        self._env = env
        self._engines: TrustEngines | None = None
        self._lock = threading.Lock()

    def find(self, _ctx: JobContext) -> TrustReport | NotRead:
        """The home's duplicates (but those kept as they are), contradictions and leaks."""
        with self._lock:
            if self._engines is None:
                self._engines = TrustEngines(self._home, env=self._env)
            engines = self._engines
        try:
            return engines.find(kept=load_kept(self._home))
        except HomeError as error:
            return NotRead(str(error))
