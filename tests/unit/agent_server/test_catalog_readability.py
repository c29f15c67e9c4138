"""`list` and `search` show no text `view` refuses: a file with another hard link (one
may be outside the home) or over the cap is found by its name only, never snippeted
(docs/formats.md §3.3, §4.3, §22.3)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from memtab.agent_server.service import MemoryService
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home


def _service(home: Home) -> MemoryService:
    return MemoryService(home, None, writes="off", other_agents=False)


def _answer(service: MemoryService, tool: str, arguments: dict[str, Any]) -> Any:
    answer = service.call(tool, arguments, "test")
    assert answer.error is None, answer.error
    return json.loads(answer.text)


def test_a_file_with_another_hard_link_is_found_by_name_never_by_its_text(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    outside = tmp_path / "elsewhere" / "credentials.txt"
    outside.parent.mkdir()
    outside.write_text("kestrel-7 is the deploy password\n")
    os.link(outside, home.global_root / "linked.md")
    (home.global_root / "big.md").write_text("kestrel-7 " * (MAX_FILE_BYTES // 10 + 1))
    service = _service(home)
    try:
        assert _answer(service, "search", {"query": "kestrel"})["results"] == []
        [hit] = _answer(service, "search", {"query": "linked"})["results"]
        assert (hit["path"], hit["line"], hit["snippet"]) == (
            "/memories/global/linked.md",
            None,
            None,
        )
        refused = service.call("view", {"path": "/memories/global/linked.md"}, "test").error
        assert refused is not None and "other hard links" in refused
    finally:
        service.catalog.close()
