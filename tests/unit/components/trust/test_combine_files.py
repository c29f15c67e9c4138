"""Combine into… of two notes that say the same thing (issue 81 point 2): it proposes the
combined text — every line either note says, once — keeping the better-described, more-used
file by default; accepted, the other goes, and one Undo brings it back exactly, usage and
pins included, and the kept file's text as it was."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from memtab.components.files.undo import UndoStack, undo_step
from memtab.components.jobs import JobContext
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.jobs import NotRead, WindowTrust, combined_text, propose_combine
from memtab.components.trust.review import Proposal
from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.store.home import Home
from memtab.store.sidecars.meta import MetaStore, project_key
from memtab.store.text.content_lines import content_lines
from memtab.trust.duplicates.records import DuplicateGroup
from support.memory_home import PROJECT, make_home

SHARED = """- `make test` runs everything (needs the Postgres container: `make db-up` first).
- `pytest tests/unit -q` runs without a database in about 8 s.
- Integration tests use the `db_session` fixture, which rolls back after each test.
"""
FLAKY = (
    "- Flaky test `test_refresh_rotation` fails when the clock crosses a second boundary; "
    "freeze time with `time_machine`.\n"
)
RERUN = "- Use `pytest --lf` to rerun only the last failures.\n"
TESTING = (
    f"---\ndescription: How to run, filter and debug the test suite\n---\n"
    f"# Testing acme-api\n\n{SHARED}{FLAKY}"
)
TIPS = f"# Test tips\n\n{SHARED}{RERUN}"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.project_root(PROJECT) / "testing.md", TESTING)
    atomic_write_text(home.project_root(PROJECT) / "test-tips.md", TIPS)
    now = int(time.time() * 1000)
    entries = {
        project_key(PROJECT, "testing.md"): {
            "pinned": True,
            "accessCount": 12,
            "lastAccessedAt": now - 60_000,
            "lastWriteAt": now - 120_000,
        },
        project_key(PROJECT, "test-tips.md"): {
            "pinned": False,
            "accessCount": 3,
            "lastAccessedAt": now - 30_000,
            "lastWriteAt": None,
        },
    }
    raw = json.loads(home.meta_path.read_text())
    atomic_write_json(home.meta_path, {"entries": {**raw["entries"], **entries}})
    return home


def _ctx() -> JobContext:
    return JobContext.standalone()


def _group(home: Home) -> DuplicateGroup:
    report = WindowTrust(home).find(_ctx())
    assert not isinstance(report, NotRead) and report is not None
    [group] = [
        g
        for g in report.duplicate_candidates  # a rewording: a candidate (issue 94)
        if g.kind == "reworded" and any(m.path.endswith("test-tips.md") for m in g.members)
    ]
    assert group.kind == "reworded"
    return group


def _usage(home: Home, name: str) -> tuple[bool, int]:
    """The file's pin and uses in memory-meta.json."""
    entry = MetaStore(home).load().get(project_key(PROJECT, name))
    return (entry.pinned, entry.access_count) if entry is not None else (False, 0)


def test_combine_keeps_the_better_file_with_every_line_and_undo_brings_the_other_back(
    home: Home,
) -> None:
    proposal = propose_combine(home, _group(home), _ctx())
    assert isinstance(proposal, Proposal)
    first = proposal.reviews[0]
    assert first.choice is not None and first.edited == 0
    assert first.files[0].name == "testing.md"  # described, used 12×
    assert "described · used 12× · pinned" in first.choice.label
    assert first.texts is not None
    draft = first.texts.draft
    assert draft == TESTING + RERUN  # the tips' one line of its own, under the kept title
    assert content_lines(TIPS) | content_lines(TESTING) == content_lines(draft)

    stack = UndoStack()
    edited = draft + "- Reviewed by hand.\n"
    result = trust_jobs.write(home, stack, first, edited, _ctx())
    assert result.ok, result.error
    testing = home.project_root(PROJECT) / "testing.md"
    tips = home.project_root(PROJECT) / "test-tips.md"
    assert testing.read_text() == edited and not tips.exists()
    assert _usage(home, "testing.md") == (True, 12)  # Memtab's write is no agent's use

    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert tips.read_text() == TIPS and testing.read_text() == TESTING
    assert _usage(home, "test-tips.md") == (False, 3)  # as it was, not counted anew
    assert _usage(home, "testing.md") == (True, 12)


def test_keeping_the_weaker_file_still_loses_no_line_and_undo_brings_the_pin_back(
    home: Home,
) -> None:
    proposal = propose_combine(home, _group(home), _ctx())
    assert isinstance(proposal, Proposal)
    tips = next(r for r in proposal.reviews if r.choice and r.choice.label.startswith("test-tips"))
    assert tips.choice is not None and "no description · used 3×" in tips.choice.label
    assert tips.texts is not None
    draft = tips.texts.draft
    assert FLAKY in draft and RERUN in draft
    assert draft.startswith("---\ndescription: How to run, filter and debug the test suite\n---\n")
    stack = UndoStack()
    assert trust_jobs.write(home, stack, tips, draft, _ctx()).ok
    testing = home.project_root(PROJECT) / "testing.md"
    assert not testing.exists()
    step = stack.pop()
    assert step is not None and undo_step(home, step, stack=stack).ok
    assert testing.read_text() == TESTING
    assert _usage(home, "testing.md") == (True, 12)  # its pin and uses, as they were
    assert (home.project_root(PROJECT) / "test-tips.md").read_text() == TIPS


def test_the_combined_text_keeps_every_line_where_a_section_cannot_be_carried() -> None:
    """A table the kept file lacks is not carried by Consolidate now's merge: every line of
    each, the shared ones once, under the kept file's frontmatter."""
    kept = "---\ndescription: Ports\n---\n# Ports\n\n- The API listens on 8080.\n"
    other = (
        "---\ndescription: Services\n---\n# Ports\n\n- The API listens on 8080.\n\n"
        "| db | 5433 |\n|---|---|\n"
    )
    combined = combined_text(kept, [other])
    assert combined.startswith("---\ndescription: Ports\n---\n")
    assert combined.count("The API listens on 8080.") == 1
    assert "| db | 5433 |" in combined and "description: Services" not in combined
