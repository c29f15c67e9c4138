"""Another agent's memory changed under a running server: Claude Code saves a memory (or
edits, or deletes one) while a Codex session's warm Memtab serves the same project. The
other agents' folders are not watched, so before, a warm server answered `search` and
`list` from its last listing until the re-listing every 30 s — and the first call after a
pause from a listing of any age — while a fresh server found the file at once (tried with
Claude Code 2.1.332 and Codex 0.171.0 from npm). Now a call stats the sources' files and
folders, at most once a second, and lists again first when one changed (docs/formats.md
§22.3)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server import catalog_listing
from memtab.agent_server.catalog import MemoryCatalog
from memtab.agent_server.service import MemoryService
from memtab.demo import MAIN_ID, acme_api, claude_project_name
from memtab.sources.config import SourceContext
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.codex_home import import_claude_memory
from support.demo_homes import claude_memory, copied_demo_home
from support.spies import calls_through

pytestmark = pytest.mark.usefixtures("background_at_once")

TOPIC = "---\nname: Zebra queue\ndescription: the zebra queue\ntype: project\n---\n{}\n"


class Clock:
    """The catalog's clock, moved by the test alone."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _demo(tmp_path: Path) -> tuple[Home, Path]:
    """The demo home, and the folder of Claude Code's memory of its main workspace's
    project (another agent's, which a session of that workspace reads)."""
    home = copied_demo_home(tmp_path / "demo")
    key = claude_project_name(acme_api(home))
    memory = home.root / "other-agents" / "claude" / "projects" / key / "memory"
    assert memory.is_dir()
    return home, memory


def _served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Home, Path, MemoryService]:
    """The demo's main workspace served as an agent's session is, warm (watching), each
    call looking at the other agents' files."""
    monkeypatch.setattr(catalog_listing, "PROBE_EVERY_S", 0.0, raising=False)  # new: 1.0
    home, memory = _demo(tmp_path)
    workspace = load_registry(home).require_workspace(MAIN_ID)
    service = MemoryService(home, workspace, writes="off")
    _found(service.catalog, "zebra")
    _wait_watched(service.catalog)  # warm: a call lists only what a change asks for
    return home, memory, service


def _wait_watched(catalog: MemoryCatalog) -> None:
    deadline = time.monotonic() + 30
    while catalog._observer is None:
        assert time.monotonic() < deadline, "the catalog never watched"
        time.sleep(0.01)
    if catalog._watching is not None:
        catalog._watching.join(30)


def _found(catalog: MemoryCatalog, query: str) -> list[str]:
    return [hit.path for hit in catalog.search(query, scope=None, limit=100)]


def _listed(service: MemoryService) -> list[str]:
    answer = service.call("list", {"scope": "claude-code", "limit": 2000}, "t")
    assert answer.error is None, answer.error
    return [row["path"] for row in json.loads(answer.text)["files"]]


def test_a_memory_another_agent_saves_edits_or_deletes_is_answered_by_the_next_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, memory, service = _served(tmp_path, monkeypatch)
    catalog, zebra = service.catalog, f"{claude_memory(home)}:memory/zebra.md"
    try:
        assert zebra not in _listed(service)
        (memory / "zebra.md").write_text(TOPIC.format("The zebra queue drains at noon."))
        assert _found(catalog, "zebra") == [zebra]
        assert zebra in _listed(service)
        path = memory / "zebra.md"
        path.write_text(TOPIC.format("The zebra queue drains at midnight, with okapi."))
        assert _found(catalog, "okapi") == [zebra]  # written over in place
        path.unlink()
        assert _found(catalog, "zebra") == [] and zebra not in _listed(service)
    finally:
        catalog.close()


def test_a_memory_folder_made_again_and_codexs_import_are_answered_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code's memory folder deleted and made again; Codex importing it then, into
    folders of its own memory that were not there: the import is found once, folded into
    its original (`importedAs`)."""
    home, memory, service = _served(tmp_path, monkeypatch)
    zebra = f"{claude_memory(home)}:memory/zebra.md"
    try:
        shutil.rmtree(memory)
        memory.mkdir()
        (memory / "zebra.md").write_text(TOPIC.format("The zebra queue drains at noon."))
        assert _found(service.catalog, "zebra") == [zebra]
        codex = home.root / "other-agents" / "codex" / "memories"
        import_claude_memory(codex, memory.parent, acme_api(home))
        (hit,) = json.loads(service.call("search", {"query": "zebra"}, "t").text)["results"]
        assert hit["path"] == zebra and len(hit["importedAs"]) == 1
    finally:
        service.catalog.close()


def test_the_other_agents_files_are_looked_at_once_a_second_and_listed_only_when_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call costs a stat of each of their files and folders, once in `PROBE_EVERY_S`
    (a burst of calls pays it once); with nothing changed no listing follows, and a
    transcript appended to beside the memory folder changes nothing."""
    home, memory = _demo(tmp_path)
    store = MemoryStore(home, load_registry(home).require_workspace(MAIN_ID))
    clock = Clock()
    catalog = MemoryCatalog(store, sources=lambda: SourceContext.load(home), clock=clock)
    try:
        transcript = memory.parent / "session.jsonl"
        transcript.write_text("{}\n")
        assert _found(catalog, "zebra") == []
        _wait_watched(catalog)
        relists = calls_through(monkeypatch, catalog_module.MemoryCatalog, "_relist")
        looks = calls_through(monkeypatch, catalog_listing.SourceProbe, "_stats_changed")
        for _ in range(3):
            with transcript.open("a") as appended:
                appended.write("{}\n")  # no file of a source's, no folder changed
            os.utime(transcript)
            clock.now += catalog_listing.PROBE_EVERY_S
            assert _found(catalog, "zebra") == []
        assert (len(relists), len(looks)) == (0, 3)
        (memory / "zebra.md").write_text(TOPIC.format("The zebra queue drains at noon."))
        assert _found(catalog, "zebra") == []  # within the second: not looked at again
        assert len(looks) == 3
        clock.now += catalog_listing.PROBE_EVERY_S
        assert _found(catalog, "zebra") == [f"{claude_memory(home)}:memory/zebra.md"]
        assert (len(relists), len(looks)) == (1, 4)
    finally:
        catalog.close()
