"""The catalogs a warm host shares between its sessions (docs/formats.md §22.8, §22.9), one per home
and what a session serves; the last `KEPT_IDLE` given back stay warm."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from memtab.agent_server.catalog import MemoryCatalog
from memtab.agent_server.service import READER_ACTOR, new_catalog
from memtab.agent_server.session_scope import SessionScope, SessionStore
from memtab.store.home import Home
from memtab.store.paths import Scope

KEPT_IDLE = 4
T = TypeVar("T")

_Key = tuple[str, str | None, str | None, frozenset[str] | None, bool]


@dataclass
class _Held:
    catalog: MemoryCatalog
    users: int = 0


class CatalogShelf:
    """A host's catalogs; `fresh`: those made since the host last looked, to list ahead."""

    def __init__(self) -> None:
        self._held: dict[_Key, _Held] = {}
        self._keys: dict[int, _Key] = {}
        self._idle: OrderedDict[_Key, None] = OrderedDict()
        self._lock = threading.Lock()
        self.fresh: list[MemoryCatalog] = []
        self._shared: dict[str, tuple[Any, Callable[[], None]]] = {}

    def take(self, home: Home, scope: SessionScope, other_agents: bool) -> MemoryCatalog:
        """The catalog of what a session of `home` serving `scope` lists (made if none)."""
        project = scope.project if Scope.PROJECT in scope.scopes else None
        workspace = scope.workspace.id if scope.workspace is not None else None
        key: _Key = (str(home.root), workspace, project, scope.checkouts, other_agents)
        with self._lock:
            held = self._held.get(key)
            if held is None:
                reader = SessionStore(home, scope, actor=READER_ACTOR)
                held = _Held(new_catalog(reader, scope, other_agents=other_agents))
                self._held[key] = held
                self._keys[id(held.catalog)] = key
                self.fresh.append(held.catalog)
            held.users += 1
            self._idle.pop(key, None)
            return held.catalog

    def give_back(self, catalog: MemoryCatalog) -> None:
        """A session no longer reads `catalog`; the idle ones past `KEPT_IDLE` close."""
        closing = []
        with self._lock:
            key = self._keys.get(id(catalog))
            if key is None:
                return
            held = self._held[key]
            held.users -= 1
            if held.users > 0:
                return
            self._idle[key] = None
            while len(self._idle) > KEPT_IDLE:
                old, _ = self._idle.popitem(last=False)
                closing.append(self._forget(old))
        for stale in closing:
            stale.close()

    def held(self) -> int:
        """How many catalogs the shelf holds (in use or kept idle)."""
        with self._lock:
            return len(self._held)

    def shared(self, key: str, make: Callable[[], T], stop: Callable[[T], None]) -> T:
        """The one `make()` of `key` all sessions share, `stop`ped as the host ends."""
        with self._lock:
            found = self._shared.get(key)
            if found is None:
                made = make()
                found = self._shared[key] = (made, lambda: stop(made))
            value: T = found[0]
            return value

    def close(self) -> None:
        """Close every catalog and stop what the sessions shared (the host ends)."""
        with self._lock:
            catalogs = [self._forget(key) for key in list(self._held)]
            stops = [stop for _, stop in self._shared.values()]
            self._shared.clear()
        for catalog in catalogs:
            catalog.close()
        for stop in stops:
            stop()

    def _forget(self, key: _Key) -> MemoryCatalog:
        """Drop `key`'s catalog from the shelf (the caller holds the lock)."""
        catalog = self._held.pop(key).catalog
        del self._keys[id(catalog)]
        self._idle.pop(key, None)
        if catalog in self.fresh:
            self.fresh.remove(catalog)
        return catalog
