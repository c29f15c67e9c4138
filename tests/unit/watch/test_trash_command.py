"""`memtab trash` lists what another program removed from another agent's memory (it said
"No deleted files in history" while `memtab events` had the burst), and `memtab events`
marks a burst restored once its files were put back (docs/formats.md §14.5)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.model import Source
from memtab.watch.sources import record_source, record_sources
from support.agent_machine import Machine, build_machine

TOPICS = 20


def auto_memory(machine: Machine) -> Source:
    return next(
        source
        for source in discover(SourceContext.load(machine.home)).sources
        if source.root == machine.claude_memory.parent
    )


@pytest.fixture
def pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """Claude Code's consolidation removed `TOPICS` topics of its auto memory, recorded
    as the recorder records it (its lock held: the actor is Claude Code)."""
    machine = build_machine(tmp_path)
    monkeypatch.setenv("HOME", str(machine.user))
    memory = machine.claude_memory
    for index in range(TOPICS):
        (memory / f"topic_{index:02d}.md").write_text(f"# Topic {index}\n", "utf-8")
    record_source(machine.home, auto_memory(machine))
    (memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
    for topic in memory.glob("topic_*.md"):
        topic.unlink()
    record_source(machine.home, auto_memory(machine))
    return machine


def printed(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_trash_lists_what_another_program_removed_from_an_agents_memory(
    pruned: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(pruned.home.root)
    (event,) = printed(capsys, "events", "--home", home, "--json")["events"]
    files = printed(capsys, "trash", "--home", home, "--json")["files"]
    assert len(files) == TOPICS
    assert {(f["agent"], f["actor"], f["event"]) for f in files} == {
        ("claude-code", "claude-code", event["id"])
    }
    assert {f["path"].rsplit(":", 1)[1] for f in files} == {
        f"memory/topic_{index:02d}.md" for index in range(TOPICS)
    }
    assert {f["sizeBytes"] for f in files} == {len("# Topic 0\n"), len("# Topic 10\n")}
    assert main(["trash", "--home", home]) == 0
    out, err = capsys.readouterr()
    assert "No deleted files" not in out and "memory/topic_07.md" in out
    assert "Claude Code" in out  # who removed it, as users know it
    assert f"memtab restore --event {event['id']}" in err
    restored = printed(
        capsys,
        "restore",
        "--home",
        home,
        "--version",
        files[0]["version"],
        "--json",
        files[0]["path"],
    )
    assert restored == {
        "path": files[0]["path"],
        "version": files[0]["version"],
        "unchanged": False,
    }


def test_events_mark_a_burst_restored_in_part_then_whole(
    pruned: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(pruned.home.root)
    (event,) = printed(capsys, "events", "--home", home, "--json")["events"]
    assert (event["restored"], event["restoredAt"]) == (0, None)
    one = event["paths"][0]
    version = next(
        f["version"]
        for f in printed(capsys, "trash", "--home", home, "--json")["files"]
        if f["path"] == one
    )
    printed(capsys, "restore", one, "--version", version, "--home", home, "--json")
    (event,) = printed(capsys, "events", "--home", home, "--json")["events"]
    assert event["restored"] == 1 and event["restoredAt"] > 0
    assert main(["events", "--home", home]) == 0
    assert f"· 1 of {TOPICS} restored" in capsys.readouterr().out
    printed(capsys, "restore", "--event", event["id"], "--home", home, "--json")
    (event,) = printed(capsys, "events", "--home", home, "--json")["events"]
    assert event["restored"] == TOPICS
    assert main(["events", "--home", home]) == 0
    assert "removed 20 files at " in (out := capsys.readouterr().out) and "· restored" in out
    assert printed(capsys, "trash", "--home", home, "--json")["files"] == []


def test_one_rm_across_agents_is_one_event_that_trash_names_and_restore_puts_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine = build_machine(tmp_path)
    monkeypatch.setenv("HOME", str(machine.user))
    record_sources(machine.home)  # the recorder's first look
    removed = [
        machine.claude_memory / "project_config-sync.md",
        machine.claude_memory / "feedback_vercel-env-newline.md",
        machine.codex / "memories" / "MEMORY.md",
        machine.codex / "memories" / "memory_summary.md",
    ]
    for path in removed:  # one `rm` of four files of two agents
        path.unlink()
    record_sources(machine.home)
    home = str(machine.home.root)
    (event,) = printed(capsys, "events", "--home", home, "--json")["events"]
    assert len(event["indexes"]) == 2 and event["index"] == event["indexes"][0]
    assert event["words"].endswith(": 2 of Claude Code's, 2 of Codex's")
    files = printed(capsys, "trash", "--home", home, "--json")["files"]
    assert sorted((f["agent"], f["event"]) for f in files) == [
        ("claude-code", event["id"]),
        ("claude-code", event["id"]),
        ("codex", event["id"]),
        ("codex", event["id"]),
    ]
    assert main(["trash", "--home", home]) == 0
    err = capsys.readouterr().err
    assert err.count("memtab restore --event ") == 1 and event["id"] in err  # one step
    result = printed(capsys, "restore", "--event", event["id"], "--home", home, "--json")
    assert len(result["restored"]) == 4 and result["left"] == []
    assert all(path.exists() for path in removed)
    assert printed(capsys, "trash", "--home", home, "--json")["files"] == []
