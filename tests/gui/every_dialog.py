"""Every dialog and message box the app makes, opened from a window: what the tests that
hold every dialog to a rule walk (`test_room`: each fits a small screen; the X11 keys
test: Ctrl+D deletes nothing in any of their text fields).

    visited = open_every_dialog(window, home, visit)   # the classes visited, in order

Where a command opens a dialog, the command runs and the dialog is visited in place of
its `exec`; the others are made as their feature makes them. `visit` shows the dialog
and closes it (`reject()`: workers it started stop). `dialog_classes()` names every
dialog class of the app's source, for a walk to prove it left none out.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from PySide6.QtWidgets import QDialog, QMessageBox

import memtab
from memtab.agent_server.install import planned_changes
from memtab.components.files.copy import CopyTarget
from memtab.components.files.questions import NewKind
from memtab.components.settings.agents_view import install_question
from memtab.components.trust.compare import Compared, compared_places
from memtab.components.trust.jobs import proposal_of
from memtab.components.trust.review import CombineMember, Proposal
from memtab.consolidation.records import ConsolidationPlan, PlannedFile, PlannedOp
from memtab.gui.consolidation.review_dialog import ReviewDialog
from memtab.gui.editor.editor import ask_unsaved
from memtab.gui.editor.editor_actions import GoToLineDialog
from memtab.gui.files.dialogs import CopyToDialog, MoveDialog, NewItemDialog, confirmation_box
from memtab.gui.files.file_actions import CodexNoteDialog
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.history.runs_dialog import RevertResultDialog
from memtab.gui.loads.dialog import LoadsDialog
from memtab.gui.loads.recall_dialog import RecallDialog
from memtab.gui.settings.agent_server import confirm_install
from memtab.gui.settings.dialog import confirm_key_host
from memtab.gui.toolkit.crash_dialog import CrashDialog
from memtab.gui.toolkit.text.diff_view import DiffDialog
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.trust.compare import SideBySideDialog
from memtab.gui.trust.review import ChangesReview
from memtab.gui.window import keys
from memtab.gui.window.palette import PaletteDialog
from memtab.gui.writer.inbox_body import EditProposalDialog
from memtab.store.history.records import RunEntry
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore.from_history import RevertResult
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.contradictions.records import ClaimedLine, Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.records import MemoryPlace
from memtab.writer.inbox.inbox import InboxItem
from support.memory_home import MAIN
from support.syntax_trees import walk

PREFERENCES = parse_file_path("/memories/global/preferences.md")
BY_COMMAND = ["SettingsDialog", "ShortcutsDialog", "AddWorkspaceDialog"]
"""The dialogs the window's commands open first, in order."""
BY_QUESTION = ["QMessageBox", "QInputDialog", "QMessageBox", "QMessageBox"]
"""Then the questions: revert a run, Restore to…, a key for another host, Install in an
agent."""


def open_every_dialog(
    window: MainWindow, home: Home, visit: Callable[[QDialog], None]
) -> list[str]:
    """Open each dialog and message box of the app from `window` and `visit` it (see the
    module docstring); the class name of each visited, in order."""
    tab = window.memory_tab
    visited: list[str] = []

    def record(dialog: QDialog) -> int:
        visit(dialog)  # now: some are deleted once their exec returns
        visited.append(type(dialog).__name__)
        return QDialog.DialogCode.Rejected.value

    with mock.patch.object(QDialog, "exec", record), mock.patch.object(QMessageBox, "exec", record):
        for command in ("window.settings", "window.shortcuts", "window.add_workspace"):
            window.context.actions.action(command).trigger()
        assert visited == BY_COMMAND
        assert window.part(keys.HISTORY) is not None
        runs = window.part(keys.HISTORY).open_runs()
        run = RunEntry(id="run-1", at=1, kind="consolidation", trigger="manual", workspace_id=MAIN)
        runs.confirm_revert(run)
        trash = window.part(keys.HISTORY).open_trash()
        trash.ask_target(SimpleNamespace(path=str(PREFERENCES)))  # type: ignore[arg-type]
        assert window.part(keys.SYNC) is not None
        window.part(keys.SYNC).open_conflicts()
        window.part(keys.SYNC).open_setup()
        confirm_key_host(window, "https://api.anthropic.com", "http://localhost:11434", "Send")
        changes = planned_changes("claude", home)
        confirm_install(window, install_question("claude", str(home.root), changes))
        assert visited[len(BY_COMMAND) :] == BY_QUESTION
    assert window.part(keys.SYNC).dialog is not None and window.part(keys.SYNC).setup is not None
    for shown in (runs, trash, window.part(keys.SYNC).dialog, window.part(keys.SYNC).setup):
        visit(shown)
        visited.append(type(shown).__name__)
    store = MemoryStore.of(tab.view())
    plan = ConsolidationPlan(
        id="plan-1", created_at=1, home=str(home.root), workspace_id=MAIN, trigger="manual",
        summary="tidy up",
        ops=(
            PlannedOp(
                index=1, command="delete", path=str(PREFERENCES),
                arguments={"command": "delete", "path": str(PREFERENCES)}, proposed=True,
                description="Deleted preferences.md",
                files=(PlannedFile(path=str(PREFERENCES), base_sha256="0" * 64, diff="-gone"),),
            ),
        ),
    )  # fmt: skip

    def conflict() -> QDialog:
        dialog = DiffDialog(
            "Differences — preferences.md", "On disk", "Your draft", [("merge", "Merge")]
        )
        dialog.add_first_view(ThreeWayView(dialog), "Three ways")  # as the editor's conflict
        return dialog

    proposal = InboxItem(
        id="s-1", kind="suggestion", workspace_id=MAIN, text="Always use pnpm.",
        section="Directives", memory_path="/memories/workspace/notes.md", source="writer",
    )  # fmt: skip
    own_actions = window.part(keys.OWN_ACTIONS)
    assert own_actions is not None
    # Each made when its turn comes: a window-modal one (the unsaved changes' question,
    # opened as it is made) would keep the next ones from the keyboard.
    makers: list[Callable[[], QDialog]] = [
        lambda: ReviewDialog(window.context.jobs, plan, "main"),
        lambda: CopyToDialog(
            "Copy preferences.md to",
            [CopyTarget("scope:global", "Global", "mux", Scope.GLOBAL)],
            "preferences.md",
            None,
        ),
        lambda: NewItemDialog(store, PREFERENCES.parent, NewKind.FILE),
        lambda: NewItemDialog(store, PREFERENCES.parent, NewKind.FOLDER),
        lambda: MoveDialog(store, PREFERENCES),
        conflict,
        lambda: RevertResultDialog(RevertResult(run=run, restored=[str(PREFERENCES)])),
        CrashDialog,
        lambda: CodexNoteDialog(window),
        lambda: EditProposalDialog(proposal, window),
        lambda: ask_unsaved(window, ["preferences.md", "notes.md"], lambda _choice: None),
        lambda: confirmation_box(
            window, "Delete memory", "Delete preferences.md?", "Undo restores it.", "Delete"
        )[0],
        own_actions.about_box,
        lambda: LoadsDialog(window),
        lambda: RecallDialog(window),
        lambda: PaletteDialog("Quick open", "Type part of a file's name", [], window),
        lambda: GoToLineDialog(120, 249, window),
        lambda: SideBySideDialog(_side_by_side(), window),
        lambda: ChangesReview(_combine_proposal(), window),
    ]
    for make in makers:
        dialog = make()
        visit(dialog)
        visited.append(type(dialog).__name__)
    return visited


def _side_by_side() -> Compared:
    """A contradiction's two files, as Side by side shows them."""
    first = MemoryPlace(path=str(PREFERENCES), agent="mux", scope="global", line=2, text="8000")
    second = MemoryPlace(path="/memories/workspace/notes.md", agent="mux", scope="workspace")
    found = Contradiction(
        kind="port",
        about="API's port",
        first=ClaimedLine(place=first, value="8000", written_at=2),
        second=ClaimedLine(place=second.replaced(line=1), value="8080", written_at=1),
        newer="first",
        why="One says 8000, the other 8080.",
    )
    shown = compared_places(found)
    texts = ("# Ports\n\nThe API runs on port 8000.\n", "The API: 8080.\n")
    sides = tuple(replace(side, text=text) for side, text in zip(shown.sides, texts, strict=True))
    return replace(shown, sides=sides)


def _combine_proposal() -> Proposal:
    """Two notes saying the same thing, as Combine into… proposes to combine them."""
    places = (
        MemoryPlace(path=str(PREFERENCES), agent="mux", scope="global"),
        MemoryPlace(path="/memories/workspace/notes.md", agent="mux", scope="workspace"),
    )
    group = DuplicateGroup(kind="reworded", similarity=0.5, why="Alike", members=places)
    texts = ("# Style\n\n- Small commits.\n", "# Habits\n\n- Small commits.\n- Tests first.\n")
    members = [CombineMember(p, t, "0" * 64) for p, t in zip(places, texts, strict=True)]
    return proposal_of(group, members)


def dialog_classes() -> set[str]:
    """The names of the app's dialog classes (a QDialog's subclasses), read from its source."""
    names: set[str] = set()
    for path in Path(memtab.__file__).parent.rglob("*.py"):
        for node in walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id in ("QDialog", "QMessageBox")
                for base in node.bases
            ):
                names.add(node.name)
    return names
