"""What `memtab recall` reads (docs/formats.md §17.8): only what each agent's own way reads
— the heads of Claude Code's newest 200 topics, the descriptions of the 1000 notes a scope
gives xum's index — once a computation (its loads and its recall share each listing), and,
with what an earlier one kept (the window's), only the files changed since."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtab.loads.engine import compute_loads
from memtab.loads.kept import KeptHeads
from memtab.loads.recall.engine import compute_recall
from memtab.loads.topics import TopicHeads, scan_topics
from memtab.loads.xum import index_notes
from memtab.store.scopes.scope_view import ScopeView
from support.agent_machine import WORKSPACE_ID, Machine

LATER_NS = 10 * 1_000_000_000
"""A clock this far ahead: what the test just wrote is past the racy margin."""


def later() -> int:
    return time.time_ns() + LATER_NS


def topic(memory: Path, name: str, description: str, age_hours: float) -> Path:
    path = memory / name
    path.write_text(f"---\ndescription: {description}\ntype: project\n---\n\nBody.\n", "utf-8")
    moment = time.time() - 3600 * age_hours
    os.utime(path, (moment, moment))
    return path


def fresh_memory(machine: Machine) -> Path:
    memory = machine.claude_memory
    for path in memory.iterdir():
        if path.name != "MEMORY.md":
            path.unlink()
    return memory


def test_only_the_newest_200_topics_are_read_and_the_others_named_by_their_file(
    machine: Machine,
) -> None:
    memory = fresh_memory(machine)
    for number in range(230):
        topic(memory, f"t{number:03}.md", f"note {number}", 1 + number)
    heads = TopicHeads()
    topics = scan_topics(memory, {}, heads)
    assert heads.reads == 200
    assert [t.name for t in topics[:2]] == ["t000.md", "t001.md"]  # newest first
    assert all(t.head is not None for t in topics[:200])
    assert all(t.head is None and t.description is None for t in topics[200:])
    assert topics[0].description == "note 0" and topics[0].topic_type == "project"


def test_a_scan_kept_reads_again_only_the_topics_changed_since(machine: Machine) -> None:
    memory = fresh_memory(machine)
    changed = topic(memory, "deploy.md", "How to deploy", 1)
    topic(memory, "cache.md", "Redis cache keys", 2)
    heads = TopicHeads(clock=later)
    scan_topics(memory, {}, heads)
    assert heads.reads == 2
    heads.begin()  # the next computation: the disk is looked at again
    scan_topics(memory, {}, heads)
    assert heads.reads == 2  # both still as they were: nothing read
    changed.write_text("---\ndescription: How to ship\n---\n", "utf-8")
    heads.begin()
    (first, _) = scan_topics(memory, {}, heads)
    assert heads.reads == 3
    assert (first.name, first.description) == ("deploy.md", "How to ship")


def test_a_head_read_within_the_racy_margin_is_read_again(machine: Machine) -> None:
    memory = fresh_memory(machine)
    topic(memory, "deploy.md", "How to deploy", 0)  # its ctime is now
    heads = TopicHeads()  # the real clock: a write in the same second could keep the stamp
    scan_topics(memory, {}, heads)
    heads.begin()
    scan_topics(memory, {}, heads)
    assert heads.reads == 2


def test_a_computation_lists_the_topics_once_for_its_loads_and_its_recall(
    machine: Machine,
) -> None:
    memory = fresh_memory(machine)
    for number in range(5):
        topic(memory, f"t{number}.md", f"stripe webhook note {number}", 1 + number)
    kept = KeptHeads(clock=later)
    result = compute_recall(
        machine.home,
        "stripe webhook",
        workspace_id=WORKSPACE_ID,
        agents=("claude",),
        context=machine.context(),
        kept=kept,
    )
    assert [f.name for f in result.agents[0].files if f.verdict == "recalled"]
    assert kept.topics.reads == 5  # not 10: `memtab loads` and the recall share the scan
    compute_recall(
        machine.home,
        "deploy notes",
        workspace_id=WORKSPACE_ID,
        agents=("claude",),
        context=machine.context(),
        kept=kept,
    )
    assert kept.topics.reads == 5  # the window's next prompt: nothing changed, nothing read


def test_xum_reads_the_descriptions_of_the_first_1000_notes_of_a_scope_only(
    machine: Machine,
) -> None:
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    for number in range(1005):
        (root / f"n{number:04}.md").write_text(f"---\ndescription: note {number}\n---\n", "utf-8")
    view = ScopeView(machine.home, None)
    kept = KeptHeads(clock=later)
    notes = index_notes(view, kept=kept)
    assert len(notes) == 1000
    assert notes[0].description == "note 0" and notes[-1].path.name == "n0999.md"
    known = kept.notes(root)
    assert known.recall("n0999.md", os.lstat(root / "n0999.md")) == ("note 999", "", False)
    assert known.recall("n1000.md", os.lstat(root / "n1000.md")) is None  # never read
    assert index_notes(view, kept=kept) is notes  # within one computation: listed once
    kept.begin()
    again = index_notes(view, kept=kept)
    assert again == notes and again is not notes


@pytest.mark.parametrize("agents", [("xum",), ("claude", "codex", "xum", "gemini")])
def test_the_loads_of_a_kept_computation_are_those_of_a_fresh_one(
    machine: Machine, agents: tuple[str, ...]
) -> None:
    machine.home.global_root.mkdir(parents=True, exist_ok=True)
    (machine.home.global_root / "deploy.md").write_text(
        "---\ndescription: How we deploy\n---\n\nmake ship\n", "utf-8"
    )
    kept = KeptHeads(clock=later)
    context = machine.context()
    fresh = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=agents, context=context, now=0
    )
    for _ in range(2):
        again = compute_loads(
            machine.home,
            workspace_id=WORKSPACE_ID,
            agents=agents,  # type: ignore[arg-type]
            context=context,
            now=0,
            kept=kept,
        )
        assert again == fresh
