"""A server's catalog keeps out of its searches' way (issue 97): what a listing leaves alive until
the next (its files, `list`'s rows) is out of the cycle collector's sight, whose full passes over a
20,000-file listing held a search 80–220 ms."""

from __future__ import annotations

import gc
from pathlib import Path

from memtab.agent_server.service import MemoryService
from memtab.store.home import Home


def test_a_servers_listing_is_out_of_the_cycle_collectors_sight(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "n.md").write_text("---\ndescription: a note\n---\nabout kestrel\n")
    service = MemoryService(home, None, writes="off", other_agents=False)
    try:
        assert "kestrel" in service.call("search", {"query": "kestrel"}, "test").text
        assert service.call("list", {}, "test").error is None
        listing, rows = service.catalog._files, service.catalog._rows
        assert rows is not None
        tracked = gc.get_objects()
        assert not any(held is listing for held in tracked), "the listing is scanned"
        assert not any(held is rows[1] for held in tracked), "the rows are scanned"
    finally:
        service.catalog.close()
