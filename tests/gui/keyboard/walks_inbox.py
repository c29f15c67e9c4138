"""Walks of the Inbox by keyboard alone: accepting two agents' changes says where each
went and goes on to the next change, never to a deletion; Edit… is off for a deletion;
Alt+R rejects; Ctrl+Enter in "Edit, then accept" accepts."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from gui.keyboard.driver import Keys, Text, Until, Walk, WalkSpec, WalkSteps, focus_in
from gui.keyboard.walks_editor import main_home
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN

SHELL = "/memories/global/shell.md"
SHELL_TEXT = (
    "---\nname: Shell\ndescription: Which shell the scripts expect\n---\n\n# Shell\n\n"
    "Use zsh; the scripts source ~/.zshrc.\n"
)
TIPS = "/memories/global/python-tips.md"


def home_with_changes(folder: Path) -> Home:
    """Four agents' changes, in this order: a new file, an edit, a deletion, a new file."""
    home = main_home(folder)
    queue = ProposalQueue(home, load_registry(home).require_workspace(MAIN))
    for call, client in (
        (ToolCall("create", {"path": SHELL, "file_text": SHELL_TEXT}), "claude-code"),
        (
            ToolCall(
                "str_replace",
                {
                    "path": "/memories/global/tools/git.md",
                    "old_str": "Rebase, never merge.",
                    "new_str": "Rebase, never merge; sign every commit.",
                },
            ),
            "codex-cli",
        ),
        (ToolCall("delete", {"path": "/memories/global/Zeta.md"}), "claude-code"),
        (ToolCall("create", {"path": TIPS, "file_text": "Use uv.\n"}), "claude-code"),
    ):
        queue.propose(call, client=client)
    return home


def inbox_decisions(walk: Walk) -> WalkSteps:
    window = walk.window
    panel = window.memory_tab.controller.inbox
    said: list[str] = []
    panel.status_message.connect(said.append)
    yield Until(lambda: len(panel.items) == 4, "the four proposals")
    walk.note("rows", [panel.list.item(row).text() for row in range(panel.list.count())])
    yield Keys("ctrl+shift+i")
    yield Until(lambda: focus_in(panel.list), "the keyboard in the Inbox")
    yield Keys("shift+Down", "Return")  # the new file and the edit, accepted
    yield Until(lambda: len(panel.items) == 2 and not panel.busy, "the two accepted")
    walk.note("said", said[-1] if said else None)
    walk.note(
        "selected_after",
        [item.memory_path for item in panel.items if item.id in panel.selected_ids()],
    )
    yield Keys("Up")  # the deletion
    walk.note("deletion_edit_enabled", panel.edit_button.isEnabled())
    yield Keys("alt+r")
    yield Until(lambda: len(panel.items) == 1 and not panel.busy, "the deletion rejected")
    walk.note("zeta_kept", (walk.home.global_root / "Zeta.md").exists())
    walk.note("in_list_after_reject", focus_in(panel.list))
    yield Keys("F2", until=QApplication.activeModalWidget)
    dialog = QApplication.activeModalWidget()
    walk.note("dialog", dialog.windowTitle() if dialog is not None else None)
    yield Keys("ctrl+End")
    yield Text("Pin it.")
    yield Keys("ctrl+Return", until=lambda: QApplication.activeModalWidget() is None)
    yield Until(lambda: not panel.items and not panel.busy, "the edited one accepted")
    tips = walk.home.global_root / "python-tips.md"
    walk.note("tips", tips.read_text(encoding="utf-8") if tips.exists() else None)


WALKS = (WalkSpec("inbox_decisions", inbox_decisions, home_with_changes, workspace_id=MAIN),)
