"""A scope that appears or goes while the window runs is its files appearing or going:
xum's session scope at an agent's first checkpoint (issue 70 point 5), and the first
memory of another agent's project (Claude Code's auto memory, Codex's memories,
loki-mode's, Gemini CLI's private memory) — the tree shows them, and keeps following the
disk after: a folder that appears in a source found before (Claude Code's `memory/` in a
project's folder, `~/.claude/rules`) is watched from then on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names, wait_idle, wait_watching
from memtab.components.tree.nodes import NodeKind, file_key
from memtab.fs.atomic import atomic_write_text
from memtab.gui.first_paint.main_window import MainWindow
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.paths import parse_file_path, project_dir_name
from support.agent_machine import WORKSPACE_ID, Machine, build_machine
from support.gemini_home import build_gemini_home
from support.memory_home import MAIN, memory

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

CHECKPOINT = file_key(parse_file_path("/memories/session/checkpoint.md"))


def shows(window: MainWindow, key: str) -> bool:
    return window.memory_tab.model.node_for_key(key) is not None


def test_xums_first_checkpoint_shows_in_the_tree_and_its_going_too(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home, MAIN)
    wait_watching(qtbot, window)
    assert not home.workspace_dir(MAIN).joinpath("session-memory").exists()
    errors: list[str] = []
    window.memory_tab.scans.scan_failed.connect(errors.append)
    # What xum does at an agent's first checkpoint (`mkdir -p … && echo x > …`).
    session = home.session_root(MAIN)
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("x\n", encoding="utf-8")
    qtbot.waitUntil(lambda: shows(window, CHECKPOINT), timeout=WAIT_MS)
    assert "session:checkpoint.md" in file_names(window)
    # The tree goes on following the disk: a file written from a shell shows.
    fresh = home.global_root / "fresh.md"
    atomic_write_text(fresh, memory("Fresh"))
    qtbot.waitUntil(lambda: "global:fresh.md" in file_names(window), timeout=WAIT_MS)
    # xum removes the session's memory: its files go, the section with them.
    shutil.rmtree(session)
    qtbot.waitUntil(lambda: not shows(window, CHECKPOINT), timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert not any(name.startswith("session:") for name in file_names(window))
    assert errors == []


def test_a_session_file_open_in_the_editor_says_it_went_with_its_scope(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    session = home.session_root(MAIN)
    session.mkdir(parents=True)
    (session / "checkpoint.md").write_text("x\n", encoding="utf-8")
    window = make_window(home, MAIN)
    wait_watching(qtbot, window)
    editor = window.memory_tab.controller.editor
    window.memory_tab.controller.editor_link.select_key(CHECKPOINT, open_it=True)
    qtbot.waitUntil(lambda: editor.current_key == CHECKPOINT, timeout=WAIT_MS)
    shutil.rmtree(session)
    qtbot.waitUntil(lambda: not shows(window, CHECKPOINT), timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: "checkpoint.md was deleted on disk" in editor.message_bar.text, timeout=WAIT_MS
    )


def source_rows(window: MainWindow, source: str) -> set[str]:
    """The file rows the tree shows of the source `source` ("codex:memories"), by path."""
    prefix = f"file:{source}:"
    return {
        item.key.removeprefix(prefix)
        for item in window.memory_tab.model.nodes()
        if item.kind is NodeKind.FILE and item.key.startswith(prefix)
    }


def agents_window(qtbot: QtBot, make_window: WindowFactory, machine: Machine) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_watching(qtbot, window)
    errors: list[str] = []
    window.memory_tab.scans.scan_failed.connect(errors.append)
    window.setProperty("scan errors", errors)
    return window


def no_scan_failed(window: MainWindow) -> bool:
    return window.property("scan errors") == []


def test_a_claude_code_project_folder_that_appears_shows_its_memory_and_goes(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    machine = build_machine(tmp_path / "machine")
    window = agents_window(qtbot, make_window, machine)
    # Claude Code's first session in another project: its folder, then its first memory.
    other = tmp_path / "machine" / "src" / "billing"
    other.mkdir(parents=True)
    name = encode_project_path(str(other))
    folder = machine.claude / "projects" / name
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "feedback_retries.md").write_text(
        "---\nname: Retries\ndescription: Retry twice\ntype: feedback\n---\n\nRetry twice.\n",
        encoding="utf-8",
    )
    source = f"claude-code:memory-{name}"
    qtbot.waitUntil(
        lambda: source_rows(window, source) == {"memory/feedback_retries.md"}, timeout=WAIT_MS
    )
    shutil.rmtree(folder)
    qtbot.waitUntil(lambda: not source_rows(window, source), timeout=WAIT_MS)
    assert no_scan_failed(window)


def test_codexs_first_memories_reach_the_tree_and_their_going_leaves_it(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    machine = build_machine(tmp_path / "machine")
    memories = machine.codex / "memories"
    kept = tmp_path / "kept"
    memories.rename(kept)  # Codex has written no memories yet when the window opens
    window = agents_window(qtbot, make_window, machine)
    assert not source_rows(window, "codex:memories")
    kept.rename(memories)  # its first consolidation
    qtbot.waitUntil(lambda: "MEMORY.md" in source_rows(window, "codex:memories"), timeout=WAIT_MS)
    shutil.rmtree(memories)
    qtbot.waitUntil(lambda: not source_rows(window, "codex:memories"), timeout=WAIT_MS)
    assert no_scan_failed(window)


def test_loki_modes_memory_that_appears_in_a_project_shows_and_goes(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    machine = build_machine(tmp_path / "machine")
    loki = machine.project / ".loki"
    kept = tmp_path / "kept-loki"
    loki.rename(kept)  # no loki-mode yet when the window opens
    window = agents_window(qtbot, make_window, machine)
    source = f"loki:project-{project_dir_name(str(machine.project))}"
    assert not source_rows(window, source)
    kept.rename(loki)
    qtbot.waitUntil(lambda: bool(source_rows(window, source)), timeout=WAIT_MS)
    shutil.rmtree(loki / "memory")
    qtbot.waitUntil(lambda: not source_rows(window, source), timeout=WAIT_MS)
    assert no_scan_failed(window)


def test_gemini_clis_first_private_memory_shows_in_the_tree_and_its_going_too(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    machine = build_machine(tmp_path / "machine")
    gemini = build_gemini_home(machine.user, machine.project, patches=False)
    shutil.rmtree(gemini.memory)  # Gemini CLI has run in the project, extracted nothing yet
    window = agents_window(qtbot, make_window, machine)
    source = "gemini:memory-acme-api"
    assert not source_rows(window, source)
    # Its first extraction (or `/memory add`): the folder, then MEMORY.md in it.
    gemini.memory.mkdir()
    (gemini.memory / "MEMORY.md").write_text("# Project Memory\n\n- Port 8080.\n", "utf-8")
    qtbot.waitUntil(lambda: source_rows(window, source) == {"MEMORY.md"}, timeout=WAIT_MS)
    shutil.rmtree(gemini.memory)
    qtbot.waitUntil(lambda: not source_rows(window, source), timeout=WAIT_MS)
    assert no_scan_failed(window)


FEEDBACK = "---\nname: {0}\ndescription: {0}\ntype: feedback\n---\n\n{0}.\n"


def test_claude_codes_first_auto_memory_in_a_project_folder_it_made_before_is_followed(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    # Claude Code makes a project's folder at its first session there (its transcript), and
    # `memory/` in it at its first auto memory, maybe days later: the window is open.
    machine = build_machine(tmp_path / "machine")
    other = tmp_path / "machine" / "src" / "billing"
    other.mkdir(parents=True)
    name = encode_project_path(str(other))
    folder = machine.claude / "projects" / name
    folder.mkdir()
    (folder / "5f0c1d2e.jsonl").write_text(json.dumps({"type": "user", "cwd": str(other)}) + "\n")
    window = agents_window(qtbot, make_window, machine)
    source = f"claude-code:memory-{name}"
    (folder / "memory").mkdir()
    (folder / "memory" / "feedback_retries.md").write_text(FEEDBACK.format("Retries"), "utf-8")
    qtbot.waitUntil(
        lambda: source_rows(window, source) == {"memory/feedback_retries.md"}, timeout=WAIT_MS
    )
    # The next memory Claude Code writes there shows too: the folder is watched now.
    (folder / "memory" / "feedback_pnpm.md").write_text(FEEDBACK.format("Pnpm"), "utf-8")
    qtbot.waitUntil(
        lambda: "memory/feedback_pnpm.md" in source_rows(window, source), timeout=WAIT_MS
    )
    assert no_scan_failed(window)


def test_the_users_first_claude_code_rule_folder_is_followed(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    machine = build_machine(tmp_path / "machine")
    rules = machine.claude / "rules"
    shutil.rmtree(rules)  # no rules yet when the window opens
    window = agents_window(qtbot, make_window, machine)
    rules.mkdir()
    (rules / "testing.md").write_text("# How I test\n", "utf-8")
    qtbot.waitUntil(
        lambda: "rules/testing.md" in source_rows(window, "claude-code:user"), timeout=WAIT_MS
    )
    (rules / "style.md").write_text("# Style\n", "utf-8")
    qtbot.waitUntil(
        lambda: "rules/style.md" in source_rows(window, "claude-code:user"), timeout=WAIT_MS
    )
    assert no_scan_failed(window)
