"""What `list` costs after a change: its rows are built from the one walk (docs/formats.md
§22.3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.catalog import MemoryCatalog
from memtab.agent_server.service import MemoryService
from memtab.store import files as store_files
from memtab.store.home import Home


def _home(tmp_path: Path, count: int) -> Home:
    home = Home(tmp_path / "home")
    (home.global_root / "area").mkdir(parents=True)
    for number in range(count):
        (home.global_root / "area" / f"n{number:03d}.md").write_text(
            f"---\ndescription: note {number}\n---\nabout kestrel\n"
        )
    return home


class _Walks:
    """Counts the walks of a scope (`store.files._Walk`: the stat walk and the listing's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = store_files._Walk
        counter = self

        class Counted(original):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                counter.count += 1
                super().__init__(*args, **kwargs)

        monkeypatch.setattr(store_files, "_Walk", Counted)


def test_list_after_a_change_walks_the_scopes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, 5)
    store = MemoryService(home, None, writes="off", other_agents=False).catalog.store
    catalog = MemoryCatalog(store, background=False)  # unwatched: every call lists
    walks = _Walks(monkeypatch)
    try:
        assert len(catalog.rows()) == 5
        (home.global_root / "area" / "n002.md").write_text("---\ndescription: changed\n---\n")
        (home.global_root / "area" / "n003.md").unlink()
        walks.count = 0
        described = {row.path: row.description for row in catalog.rows()}
        assert walks.count == 1  # the stat walk's files described: no listing of its own
        assert described == {
            "/memories/global/area/n000.md": "note 0",
            "/memories/global/area/n001.md": "note 1",
            "/memories/global/area/n002.md": "changed",
            "/memories/global/area/n004.md": "note 4",
        }
        assert list(described) == sorted(described)  # in the listing's order
    finally:
        catalog.close()
