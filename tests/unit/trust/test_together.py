"""The three questions over one read (the window's `TrustEngines`, in its child process):
what each engine finds alone, found together."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.together import TrustEngines
from support.memory_home import OTHER_PROJECT, PROJECT, make_home


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "ports.md", "# Ports\n\n- The API runs on port 8000.\n")
    atomic_write_text(
        home.project_root(PROJECT) / "local.md", "# Local\n\n- The API runs on port 8080.\n"
    )
    atomic_write_text(
        home.global_root / "web.md", f"# Web\n\nThe app lives in {OTHER_PROJECT}/src/app.tsx.\n"
    )
    return home


def test_one_read_finds_what_each_engine_finds_alone(home: Home) -> None:
    report = TrustEngines(home, sources=False).find()
    assert report.duplicates == DuplicatesEngine(home, sources=False).find().groups
    contradictions = ContradictionsEngine(home, sources=False).find().contradictions
    assert report.contradictions == contradictions and len(contradictions) == 1
    leaks = LeaksEngine(home, sources=False).find().leaks
    assert report.leaks == leaks and [leak.place.path for leak in leaks] == [
        "/memories/global/web.md"
    ]
    assert report.files_read == 11
