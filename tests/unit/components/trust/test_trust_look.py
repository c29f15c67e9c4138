"""The window's look at the memory for the three questions, in a child process: what it
sends back is what the engines find in this one, the groups kept as they are left out; a
cancelled look ends its child and says so by nothing."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memtab.components.jobs import JobContext
from memtab.components.trust.jobs import NotRead, WindowTrust
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.duplicates.kept import keep_group
from memtab.trust.report import TrustReport
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


def test_the_child_finds_what_the_engines_find_here(home: Home) -> None:
    found = WindowTrust(home).find(JobContext.standalone())
    assert isinstance(found, TrustReport)
    here = TrustEngines(home).find()
    assert found.duplicates == here.duplicates and found.leaks == here.leaks
    assert [(c.first.value, c.second.value) for c in found.contradictions] == [
        (c.first.value, c.second.value) for c in here.contradictions
    ]
    assert found.files_read == here.files_read
    keep_group(home, found.duplicates[0])
    again = WindowTrust(home).find(JobContext.standalone())
    assert isinstance(again, TrustReport)
    assert again.kept == 1 and len(again.duplicates) == len(found.duplicates) - 1


def test_a_cancelled_look_ends_its_child(home: Home) -> None:
    cancel = threading.Event()
    cancel.set()
    context = JobContext(1, cancel, lambda *_: None)
    assert WindowTrust(home).find(context) is None


def test_an_unreadable_registry_is_said(home: Home) -> None:
    home.config_path.write_text("{not json", encoding="utf-8")
    found = WindowTrust(home).find(JobContext.standalone())
    assert isinstance(found, NotRead)
    assert found.message
