"""Homes, clocks, fake providers and wire-format scripting for the consolidation tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.consolidation import running as consolidation_lock
from memtab.consolidation.service import ConsolidationService
from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import Clock
from memtab.fs.locking.locks import LockUnavailableError, OwnedLock
from memtab.llm.http import HttpOptions
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, add_workspace, load_registry
from support.fake_model_server import FakeModelServer, tool_messages, tool_result_blocks
from support.memory_paths import vpath

PROJECT = "/home/dev/src/app"
OTHER_PROJECT = "/home/dev/src/site"
WS = "a1a1a1a1a1"
SIBLING = "b2b2b2b2b2"
MULTI = "c3c3c3c3c3"

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
NOW = 1_800_000_000_000

ANTHROPIC_KEY = "sk-ant-test-SECRET-0123456789abcdefghij"
OPENAI_KEY = "sk-test-SECRET-0123456789abcdefghijklmn"
FAST_HTTP = HttpOptions(
    timeout_s=5.0,
    connect_timeout_s=2.0,
    max_retries=2,
    backoff_base_s=0.001,
    backoff_max_s=0.01,
    retry_after_cap_s=1.0,
)


class FakeClock:
    """A settable epoch-ms clock."""

    def __init__(self, now: int = NOW) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def new_home(root: Path) -> Home:
    """Project PROJECT with workspaces WS and SIBLING; a multi-project workspace MULTI."""
    home = Home(root)
    add_workspace(home, PROJECT, "main", workspace_id=WS)
    add_workspace(home, PROJECT, "sibling", workspace_id=SIBLING)
    add_workspace(home, MULTI_PROJECT_KEY, "multi", workspace_id=MULTI)
    return home


def store_for(home: Home, workspace_id: str, clock: Clock | None = None) -> MemoryStore:
    workspace = load_registry(home).require_workspace(workspace_id)
    return MemoryStore(home, workspace, clock=clock or FakeClock(NOW - DAY))


def put(store: MemoryStore, path: str, text: str, *, pinned: bool = False) -> None:
    """Create a memory file (counts as a write), optionally pinned."""
    store.create_file(vpath(path), text)
    if pinned:
        store.set_pinned(vpath(path), True)


def physical(store: MemoryStore, path: str) -> Path:
    from memtab.store.paths import parse_file_path

    return store.physical(parse_file_path(path))


def read(store: MemoryStore, path: str) -> str:
    return physical(store, path).read_text(encoding="utf-8")


def exists(store: MemoryStore, path: str) -> bool:
    return physical(store, path).exists()


def snapshot(home: Home) -> dict[str, bytes]:
    """Every file of the home except Memtab's own lock folder."""
    return {
        str(path.relative_to(home.root)): path.read_bytes()
        for path in sorted(home.root.rglob("*"))
        if path.is_file() and not path.is_relative_to(home.memtab_dir)
    }


def memory_bytes(home: Home) -> int:
    """Total size of every memory file of every scope."""
    roots = [home.root / "memory", home.sessions_dir]
    return sum(
        path.stat().st_size
        for root in roots
        if root.exists()
        for path in root.rglob("*")
        if path.is_file() and "memory" in path.relative_to(home.root).parts
    )


def set_writes(home: Home, writes: dict[str, int]) -> None:
    """memory-meta.json holding exactly these keys with these lastWriteAt times."""
    entries = {
        key: {"pinned": False, "accessCount": 1, "lastAccessedAt": at, "lastWriteAt": at}
        for key, at in writes.items()
    }
    atomic_write_json(home.meta_path, {"entries": entries})


def set_recency(home: Home, recency: dict[str, int]) -> None:
    """extensionMetadata.json with these last-use times, as mux writes it."""
    workspaces = {wid: {"recency": at, "streaming": False} for wid, at in recency.items()}
    atomic_write_json(home.extension_metadata_path, {"version": 1, "workspaces": workspaces})


def meta_keys(home: Home) -> set[str]:
    return set(MetaStore(home).load())


@dataclass
class Wire:
    """One provider wire format against the fake model server."""

    name: str
    server: FakeModelServer

    @property
    def key(self) -> str:
        return ANTHROPIC_KEY if self.name == "anthropic" else OPENAI_KEY

    def settings(self) -> ProviderSettings:
        base = (
            self.server.anthropic_base_url
            if self.name == "anthropic"
            else self.server.openai_base_url
        )
        model = "claude-test" if self.name == "anthropic" else "gpt-test"
        return ProviderSettings(self.name, model, base, api_key=self.key)  # type: ignore[arg-type]

    def service(self, home: Home, **kwargs: Any) -> ConsolidationService:
        kwargs.setdefault("http_options", FAST_HTTP)
        return ConsolidationService(home, settings=self.settings(), **kwargs)

    def reply(
        self, text: str = "", calls: Iterable[tuple[str, Any]] = (), *, delay: float = 0.0
    ) -> None:
        """Script one model reply; `calls` are (tool name, arguments) pairs."""
        specs = list(calls)
        if self.name == "anthropic":
            self.server.add_anthropic_reply(text, specs, delay=delay)
        else:
            self.server.add_openai_reply(text, specs, delay=delay)

    def memory(self, *calls: dict[str, Any], text: str = "") -> None:
        """Script one reply calling the memory tool once per argument dict."""
        self.reply(text, [("memory", arguments) for arguments in calls])

    def tool_results(self, request_index: int) -> list[tuple[str, bool]]:
        """(content, is_error) of every tool result in the given request, in order."""
        body = self.server.requests[request_index].body
        if self.name == "anthropic":
            return [(b["content"], b["is_error"]) for b in tool_result_blocks(body)]
        return [
            (m["content"].removeprefix("Error: "), m["content"].startswith("Error: "))
            for m in tool_messages(body)
        ]


def when_a_lock_is_refused(monkeypatch: Any, action: Callable[[], None]) -> None:
    """Call `action` once, when an owned lock (the consolidation lock, say) is first refused:
    its waiter is waiting for it then — instead of sleeping until it probably is. The
    consolidation lock's waiter looks again every 20 ms instead of 250 ms, so the first
    refusal, and each look after the action, comes without sitting through a slice."""
    monkeypatch.setattr(consolidation_lock, "_WAIT_SLICE_S", 0.02)
    acquire = OwnedLock.acquire
    pending = [action]

    def acquire_then_act(lock: OwnedLock, timeout_s: float = 30.0, **details: Any) -> None:
        try:
            acquire(lock, timeout_s, **details)
        except LockUnavailableError:
            while pending:
                pending.pop()()
            raise

    monkeypatch.setattr(OwnedLock, "acquire", acquire_then_act)
