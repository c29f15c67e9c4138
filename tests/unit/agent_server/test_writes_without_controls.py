"""What an agent writes through `memtab mcp` reaches memory without control or bidirectional
characters (issue 95): an ESC sequence, a BEL, a NUL, an RLO or a zero-width space in a note is
taken out before the write, the answer says so, and the rest of the text is kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.store.home import Home

NOTE = "/memories/global/deploy.md"
PLANTED = "Deploy with \x1b[8m`make ship`\x1b[0m\x07 from main\u202e\u200b.\x00"
CLEAN = "Deploy with `make ship` from main."
TOLD = "(Control characters in the text were taken out.)"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / "home")


@pytest.fixture
def service(home: Home) -> Iterator[MemoryService]:
    served = MemoryService(home, None, writes="direct", other_agents=False)
    yield served
    served.catalog.close()


def test_a_created_note_holds_no_control_character_and_the_answer_says_so(
    home: Home, service: MemoryService
) -> None:
    kept = "# Équipe 👩\u200d💻\n\tIndented, with a tab.\n"  # a joiner inside an emoji stays
    answer = service.call("create", {"path": NOTE, "file_text": f"{kept}{PLANTED}\n"}, "t")
    assert answer.error is None and TOLD in answer.text
    assert (home.global_root / "deploy.md").read_text() == f"{kept}{CLEAN}\n"


def test_an_insert_and_a_replacement_hold_none_either(home: Home, service: MemoryService) -> None:
    assert service.call("create", {"path": NOTE, "file_text": "# Deploy\n"}, "t").error is None
    inserted = service.call("insert", {"path": NOTE, "insert_line": 1, "insert_text": PLANTED}, "t")
    assert inserted.error is None and TOLD in inserted.text
    replaced = service.call(
        "str_replace", {"path": NOTE, "old_str": "# Deploy", "new_str": "# Ship\u2066it"}, "t"
    )
    assert replaced.error is None and TOLD in replaced.text
    assert (home.global_root / "deploy.md").read_text() == f"# Shipit\n{CLEAN}\n"
