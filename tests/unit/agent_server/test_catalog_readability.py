"""`list` and `search` show no text `view` refuses, and answer whatever another program
put in a scope: a file with another hard link (one may be outside the home) or over the
cap is found by its name only, never snippeted; a tree a thousand folders deep, past
what Python recurses, is listed to the depth memory paths go to, and the answer says
what it left out (docs/formats.md §3.3, §4.3, §5, §22.3)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.service import MemoryService
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.paths import MAX_PATH_DEPTH

TOO_DEEP = (
    "Not listed or searched: the contents of /memories/global/deep/d/…(26 more)…/d/d/d/d "
    f"are more than {MAX_PATH_DEPTH} levels deep"
)


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


@pytest.mark.slow  # slow: a thousand folders made and removed (~5 s)
@pytest.mark.expect_log(
    "memtab.store.files", "WARNING", r"^Not listed, searched or recorded: the contents of "
)
def test_a_tree_a_thousand_levels_deep_is_listed_to_the_depth_and_the_answers_say_so(
    tmp_path: Path, deep_tree: Callable[..., None]
) -> None:
    home = Home(tmp_path / "home")
    deep_tree(home.global_root, "deep")
    (home.global_root / "fine.md").write_text("a fine note\n")
    service = _service(home)
    try:
        page = _answer(service, "list", {})
        assert [row["path"] for row in page["files"]] == ["/memories/global/fine.md"]
        assert page["notes"] == [TOO_DEEP]
        found = _answer(service, "search", {"query": "fine deep"})
        assert [hit["path"] for hit in found["results"]] == ["/memories/global/fine.md"]
        assert found["notes"] == [TOO_DEEP]
    finally:
        service.catalog.close()
