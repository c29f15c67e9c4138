"""Codex's `memories/` git log as that source's history."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memtab.file_protocol.file_ref import SourceError
from memtab.sources.discovery import discover
from memtab.sources.history import file_at, source_history
from memtab.sources.model import Source
from support.agent_machine import Machine

needs_git = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)


def git(root: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-C",
            str(root),
            "-c",
            "user.name=Codex",
            "-c",
            "user.email=codex@example.com",
            *args,
        ],
        check=True,
        capture_output=True,
    )


def memories(machine: Machine) -> Source:
    return next(s for s in discover(machine.context()).sources if s.id == "codex:memories")


@needs_git
def test_the_memories_repository_log_is_the_sources_history(machine: Machine) -> None:
    root = machine.codex / "memories"
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "baseline")
    (root / "MEMORY.md").write_text("# consolidated again\n")
    git(root, "commit", "-q", "-am", "phase 2 consolidation")
    source = memories(machine)
    assert source.has_history

    history = source_history(source)
    assert history.note is None
    assert [c.subject for c in history.commits] == ["phase 2 consolidation", "baseline"]
    assert history.commits[0].files == ("MEMORY.md",)
    assert "memory_summary.md" in history.commits[1].files
    assert history.commits[0].committed_at_ms > 1_600_000_000_000

    only_summary = source_history(source, "memory_summary.md")
    assert [c.subject for c in only_summary.commits] == ["baseline"]
    old = file_at(source, history.commits[1].sha, "MEMORY.md")
    assert old.startswith("# Task Group: Codex local version management")


@needs_git
def test_git_variables_of_the_caller_do_not_redirect_the_log(
    machine: Machine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = machine.codex / "memories"
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "baseline")
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert [c.subject for c in source_history(memories(machine)).commits] == ["baseline"]


def test_no_repository_means_no_history_said_plainly(machine: Machine) -> None:
    history = source_history(memories(machine))
    assert history.commits == () and "not a git repository" in (history.note or "")


def test_without_git_there_is_no_history(machine: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    (machine.codex / "memories" / ".git").mkdir()
    monkeypatch.setenv("PATH", "")
    history = source_history(memories(machine))
    assert history.commits == () and history.note == "No history: git is not installed"


@needs_git
def test_a_broken_repository_gives_a_one_line_note(machine: Machine) -> None:
    (machine.codex / "memories" / ".git").mkdir()  # an empty .git is no repository
    history = source_history(memories(machine))
    assert history.commits == () and history.note and "\n" not in history.note


def test_a_commit_id_must_be_hex(machine: Machine) -> None:
    with pytest.raises(SourceError, match="Not a commit id"):
        file_at(memories(machine), "HEAD; rm -rf /", "MEMORY.md")
