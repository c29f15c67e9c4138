"""A home deleted and made again under a running server (or a scope's folder made once
it watches): its watch of the folders that went sees nothing, so the next call watches
the roots as they are and lists them again — a file another program writes there is
answered at once, not by the re-listing every 30 s (docs/formats.md §22.11)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from memtab.agent_server import catalog_listing
from memtab.agent_server.service import MemoryService
from memtab.store.home import Home

from .stdio_client import drive, ok_json
from .test_catalog_changes import _home, _paths, _service, _wait_watched

pytestmark = pytest.mark.usefixtures("background_at_once")


def _write(home: Home, name: str, text: str) -> None:
    home.global_root.mkdir(parents=True, exist_ok=True)
    (home.global_root / name).write_text(text)


def _reported(service: MemoryService) -> None:
    """Until the watch reported a change (on its own thread)."""
    assert service.catalog._changed.wait(30), "the watch never reported the file written"


def test_a_home_deleted_and_made_again_is_watched_again_at_once(tmp_path: Path) -> None:
    home = _home(tmp_path, 3)
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 3
        _wait_watched(service)
        shutil.rmtree(home.root)
        assert _paths(service, "kestrel") == []  # the home is said missing
        _write(home, "back.md", "about osprey\n")
        assert _paths(service, "osprey") == ["/memories/global/back.md"]
        _write(home, "later.md", "about osprey too\n")  # the new folder is watched
        _reported(service)
        both = ["/memories/global/back.md", "/memories/global/later.md"]
        assert _paths(service, "osprey") == both
    finally:
        service.catalog.close()


def test_a_folder_made_again_under_the_same_inode_is_watched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file system may give the new folder the inode of the one deleted: the watch of
    it ended, which is what tells."""
    monkeypatch.setattr(
        catalog_listing, "folder_identity", lambda path: (1, 1) if os.path.isdir(path) else None
    )
    home = _home(tmp_path, 3)
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 3
        _wait_watched(service)
        observer = service.catalog._observer
        assert observer is not None
        shutil.rmtree(home.root)
        deadline = time.monotonic() + 30
        while all(emitter.is_alive() for emitter in list(observer.emitters)):
            assert time.monotonic() < deadline, "the watch of the folder deleted never ended"
            time.sleep(0.01)
        _write(home, "back.md", "about osprey\n")
        assert _paths(service, "osprey") == ["/memories/global/back.md"]
    finally:
        service.catalog.close()


def test_a_scope_folder_made_once_the_server_watches_is_watched_at_once(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    service = _service(home)
    try:
        assert _paths(service, "osprey") == []
        _wait_watched(service)
        _write(home, "first.md", "about osprey\n")
        assert _paths(service, "osprey") == ["/memories/global/first.md"]
        _write(home, "second.md", "about osprey too\n")
        _reported(service)
        both = ["/memories/global/first.md", "/memories/global/second.md"]
        assert _paths(service, "osprey") == both
    finally:
        service.catalog.close()


@pytest.mark.slow  # slow: starts `memtab mcp` (and a warm host) as an agent does
@pytest.mark.usefixtures("served")
def test_an_agents_session_finds_what_is_written_in_its_home_made_again(tmp_path: Path) -> None:
    home = _home(tmp_path, 3)

    async def search(client: Client, query: str) -> list[str]:
        found = ok_json(await client.call_tool("search", {"query": query}))["results"]
        return [hit["path"] for hit in found]

    async def listed(client: Client) -> list[str]:
        return [row["path"] for row in ok_json(await client.call_tool("list", {}))["files"]]

    async def session(client: Client) -> None:
        assert len(await search(client, "kestrel")) == 3
        await anyio.sleep(1.0)  # the agent's pace: the server watches meanwhile
        shutil.rmtree(home.root)
        assert await search(client, "kestrel") == []
        _write(home, "back.md", "about osprey\n")  # another program
        assert await search(client, "osprey") == ["/memories/global/back.md"]
        assert await listed(client) == ["/memories/global/back.md"]

    drive(home.root, session, "--writes", "off")
