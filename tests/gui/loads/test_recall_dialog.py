"""View → What each agent recalls for a prompt, in the window: its key opens it with the
keyboard in the prompt, Enter asks on a worker for the shown workspace, each agent's rows
say what it loads, recalls by rank and misses and why, then what no agent can recall; a
row opens its file (a xum note at the lines recalled); Escape closes it; a file changed
while it shows is asked about again (docs/formats.md §17.8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle
from memtab.components.loads.loads import FilePlace
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.loads.recall_dialog import PLACE_ROLE, RecallDialog
from memtab.gui.window import keys
from support.agent_machine import WORKSPACE_ID, Machine, build_machine
from support.fake_model_server import FakeModelServer

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window
PROMPT = "vercel env newline"


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    built = build_machine(tmp_path / "machine")
    built.home.global_root.mkdir(parents=True, exist_ok=True)
    (built.home.global_root / "vercel.md").write_text(
        "---\ndescription: Vercel deploys and env files\n---\n\n# Deploys\n\nmake ship\n\n"
        "## Env\n\nA vercel env value piped with <<< gains a newline.\n",
        encoding="utf-8",
    )
    return built


def open_recall(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> tuple[MainWindow, RecallDialog]:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.context.actions.action("loads.recall").trigger()
    feature = window.part(keys.LOADS)
    assert feature is not None and feature.recall_dialog is not None
    return window, feature.recall_dialog


def ask(qtbot: QtBot, dialog: RecallDialog, prompt: str) -> None:
    qtbot.keyClicks(dialog.prompt, prompt)
    qtbot.keyClick(dialog.prompt, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.tree.topLevelItemCount() == 5, timeout=WAIT_MS)


def rows(group: QTreeWidgetItem | None) -> list[QTreeWidgetItem]:
    assert group is not None
    return [row for i in range(group.childCount()) if (row := group.child(i)) is not None]


def row_named(group: QTreeWidgetItem | None, name: str) -> QTreeWidgetItem:
    return next(row for row in rows(group) if row.text(1).startswith(name))


def test_its_key_gives_the_prompt_the_keyboard_and_enter_asks(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_recall(qtbot, make_window, machine)
    action = window.context.actions.action("loads.recall")
    assert action.shortcut() == QKeySequence("Ctrl+Shift+Y")
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.prompt, timeout=WAIT_MS)
    ask(qtbot, dialog, PROMPT)
    titles = [dialog.tree.topLevelItem(i).text(0) for i in range(5)]  # type: ignore[union-attr]
    assert titles[0].startswith("Claude Code — 1 recalled")
    assert titles[1].startswith("Codex — ") and titles[2].startswith("xum — 1 recalled")
    assert titles[3].startswith("Gemini CLI — ")
    assert titles[4] == "No agent can recall 1 memory"
    assert dialog.summary.text().startswith(f"For “{PROMPT}” in ")
    claude = dialog.tree.topLevelItem(0)
    # How it picks first, folded over its notes; then what the prompt brings: the pick,
    # by rank, and what it misses; then, folded, what every session reads.
    how, picked, missed, start = rows(claude)
    assert (how.text(0), how.text(1)) == ("how", "How it picks")
    assert not how.isExpanded()
    said, *notes = rows(how)
    assert said.text(2).startswith("For each prompt of more than one word Claude Code")
    assert any("CLAUDE_MEMORY_STORES is set" in note.text(2) for note in notes)
    assert (picked.text(0), picked.text(1)) == ("#1", "feedback_vercel-env-newline.md, lines 1–11")
    assert picked.text(2).startswith("Its name and description hold the prompt's words")
    assert (missed.text(0), missed.text(1)) == ("missed", "reference_vercel-cli-rest-api.md")
    assert "answer the prompt less well than the files picked" in missed.text(2)
    assert (start.text(0), start.text(1)) == ("start", "5 files read at every start")
    assert not start.isExpanded()
    dialog.tree.itemActivated.emit(start, 0)  # Enter on a folded row unfolds it
    assert start.isExpanded() and dialog.isVisible()
    assert all(
        row.text(2).startswith("Read at the start of every session, whatever the prompt")
        for row in rows(start)
    )
    never = [row for row in rows(dialog.tree.topLevelItem(4)) if row.text(0) != "how"]
    assert [(r.text(0), r.text(1)) for r in never] == [
        ("never", "Claude Code: memory/notiontalk-landing-strategy.md")
    ]
    assert never[0].text(2).startswith("No description: Claude Code picks")


def test_a_row_opens_its_file_a_xum_note_at_the_lines_recalled(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_recall(qtbot, make_window, machine)
    ask(qtbot, dialog, PROMPT)
    note = row_named(dialog.tree.topLevelItem(2), "/memories/global/vercel.md")
    assert note.text(0) == "#1" and note.text(1) == "/memories/global/vercel.md, lines 9–11"
    place = note.data(0, PLACE_ROLE)
    assert place == FilePlace("/memories/global/vercel.md", (8, 9, 10))  # from 0
    # ↓ from the prompt puts the keyboard in the rows, on the first file it shows (the
    # first agent's pick: what every start reads is folded), Enter opens the row's file.
    qtbot.keyClick(dialog.prompt, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is dialog.tree
    first = dialog.tree.currentItem()
    assert first is not None and first.text(0) == "#1"
    assert first.text(1).startswith("feedback_vercel-env-newline.md")
    dialog.tree.setCurrentItem(note)
    name = note.text(1)
    qtbot.keyClick(dialog.tree, Qt.Key.Key_Return)
    assert not dialog.isVisible()  # put away: the file is what shows
    editor = window.memory_tab.controller.editor
    qtbot.waitUntil(lambda: editor.current_ref is not None, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert str(editor.current_ref.key) == "/memories/global/vercel.md"  # type: ignore[union-attr]
    link = window.memory_tab.controller.editor_link
    qtbot.waitUntil(lambda: link.highlighted_lines == (8, 9, 10), timeout=WAIT_MS)
    assert dialog.summary.text().startswith(f"For “{PROMPT}”")  # Enter asked nothing again
    # Its key brings it back at that row.
    window.context.actions.action("loads.recall").trigger()
    qtbot.waitUntil(lambda: dialog.summary.text().startswith(f"For “{PROMPT}”"), timeout=WAIT_MS)
    current = dialog.tree.currentItem()
    assert current is not None and current.text(1) == name
    # Another agent's file opens by its id.
    topic = row_named(dialog.tree.topLevelItem(0), "feedback_vercel-env-newline.md")
    dialog.tree.itemActivated.emit(topic, 1)
    qtbot.waitUntil(
        lambda: editor.real_path == machine.claude_memory / "feedback_vercel-env-newline.md",
        timeout=WAIT_MS,
    )


def test_escape_closes_it_and_its_key_asks_again(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_recall(qtbot, make_window, machine)
    ask(qtbot, dialog, PROMPT)
    qtbot.keyClick(dialog.prompt, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    window.context.actions.action("loads.recall").trigger()
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.prompt, timeout=WAIT_MS)
    assert dialog.prompt.selectedText() == PROMPT  # typing replaces it


def test_a_description_fixed_while_it_shows_is_recalled(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_recall(qtbot, make_window, machine)
    support.wait_watching(qtbot, window)
    ask(qtbot, dialog, "stripe webhook retries")
    xum = dialog.tree.topLevelItem(2)
    assert not any(row.text(1).startswith("/memories/global/webhooks.md") for row in rows(xum))
    (machine.home.global_root / "webhooks.md").write_text(
        "---\ndescription: Stripe webhook retries back off for 3 days\n---\n\n"
        "A failed stripe webhook retries for 3 days.\n",
        encoding="utf-8",
    )

    def recalled() -> bool:
        return any(
            row.text(0) == "#1" and row.text(1).startswith("/memories/global/webhooks.md")
            for row in rows(dialog.tree.topLevelItem(2))
        )

    qtbot.waitUntil(recalled, timeout=WAIT_MS)


def test_the_why_wraps_at_half_a_laptop(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    _window, dialog = open_recall(qtbot, make_window, machine)
    ask(qtbot, dialog, PROMPT)
    dialog.resize(683, 520)
    qtbot.waitExposed(dialog)
    missed = row_named(dialog.tree.topLevelItem(0), "reference_vercel-cli-rest-api.md")
    column = dialog.tree.header().sectionSize(2)
    line = dialog.tree.fontMetrics().height()
    assert dialog.tree.fontMetrics().horizontalAdvance(missed.text(2)) > column
    qtbot.waitUntil(lambda: dialog.tree.visualItemRect(missed).height() >= 2 * line)
    assert dialog.width() <= 683


def test_ask_the_model_too_shows_its_pick_first_and_a_file_changed_asks_it_no_more(
    qtbot: QtBot,
    make_window: WindowFactory,
    machine: Machine,
    monkeypatch: pytest.MonkeyPatch,
    fake_model_server: FakeModelServer,
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.anthropic_base_url)
    monkeypatch.setenv("MEMTAB_API_KEY", "sk-ant-test-key")
    answer = '{"selected_memories": ["reference_vercel-cli-rest-api.md"]}'
    fake_model_server.add_anthropic_reply(answer, usage=(900, 12))
    window, dialog = open_recall(qtbot, make_window, machine)
    support.wait_watching(qtbot, window)
    dialog.ask_model.setFocus()
    qtbot.keyClick(dialog.ask_model, Qt.Key.Key_Space)
    assert dialog.ask_model.isChecked()
    dialog.prompt.setFocus()
    ask(qtbot, dialog, PROMPT)

    def model_rows() -> list[QTreeWidgetItem]:
        return [row for row in rows(dialog.tree.topLevelItem(0)) if row.text(0) == "model"]

    qtbot.waitUntil(lambda: bool(model_rows()), timeout=WAIT_MS)
    (picked,) = model_rows()
    assert picked.text(1) == "reference_vercel-cli-rest-api.md"
    assert picked.text(2).startswith("fake-model's pick #1, asked as Claude Code asks its model")
    assert isinstance(picked.data(0, PLACE_ROLE), FilePlace)  # it opens as the words' row
    title = dialog.tree.topLevelItem(0).text(0)  # type: ignore[union-attr]
    assert title.startswith("Claude Code — 1 by the model, 1 recalled")
    assert "Memtab asked fake-model as Claude Code asks its model (900 tokens in, 12 out)" in (
        dialog.summary.text()
    )
    how = rows(dialog.tree.topLevelItem(0))[0]
    assert (
        rows(how)[1]
        .text(2)
        .startswith(
            "Asked fake-model as Claude Code asks its model (900 tokens in, 12 out): 1 file"
        )
    )
    # A note changed while it shows: asked again, with no model call (tokens), the pick kept
    (machine.home.global_root / "env-newline.md").write_text(
        "---\ndescription: A vercel env value gains a newline\n---\n\nUse printf.\n",
        encoding="utf-8",
    )

    def xum_rows() -> list[str]:
        return [row.text(1) for row in rows(dialog.tree.topLevelItem(2))]

    qtbot.waitUntil(
        lambda: any(r.startswith("/memories/global/env-newline.md") for r in xum_rows()),
        timeout=WAIT_MS,
    )
    wait_idle(qtbot, window)
    assert len(fake_model_server.requests) == 1
    assert [row.text(1) for row in model_rows()] == ["reference_vercel-cli-rest-api.md"]
