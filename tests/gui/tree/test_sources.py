"""Other agents' memory in the window: the tree's sections, the editor, read-only files,
Copy to…, search, the watcher, the footer's note and the settings — on a developer's
machine built from real stores (support.agent_machine)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import replace_in_buffer, saved, settle, type_at_end
from gui.memory_tree_support import (
    WAIT_MS,
    FakeDialogs,
    WindowFactory,
    refresh_menus,
    wait_idle,
    wait_watching,
)
from memtab.components.editor.panel import ViewMode
from memtab.components.files.copy import CopyChoice, CopyTarget
from memtab.components.tree.nodes import NodeKind, SectionId, TreeNode, file_key, ref_key
from memtab.components.tree.sources import (
    agent_group_key,
    project_group_key,
    source_key,
)
from memtab.components.window.mnemonics import without_mnemonic
from memtab.file_protocol.file_ref import MemoryFileRef, parse_file_ref
from memtab.fs.atomic import atomic_write_text
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.settings.dialog import SettingsDialog
from memtab.gui.tasks.jobs import JobService
from memtab.gui.tree.model import KEY_ROLE
from memtab.gui.window import keys
from memtab.sources.agent_file import SourceVersions
from memtab.sources.config import load_sources_settings
from memtab.sources.content import read_source_file, save_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import GENERATED_BY_CODEX, WRITTEN_BY_LOKI
from memtab.sources.listing import source_file
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import trash
from memtab.store.scopes.memory import MemoryStore
from support.agent_machine import WORKSPACE_ID, Machine, build_machine
from support.codex_home import ROLLOUT, import_claude_memory
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_window(make_window: WindowFactory, machine: Machine, qtbot: QtBot) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.memory_tab.controller.dialogs = FakeDialogs()  # type: ignore[assignment]
    return window


def dialogs(window: MainWindow) -> FakeDialogs:
    fake = window.memory_tab.controller.dialogs
    assert isinstance(fake, FakeDialogs)
    return fake


def node(window: MainWindow, key: str) -> TreeNode:
    found = window.memory_tab.model.node_for_key(key)
    assert found is not None, key
    return found


def memory_id(window: MainWindow) -> str:
    scan = window.memory_tab.scan
    assert scan is not None and scan.sources is not None
    return next(
        listing.source.id
        for listing in scan.sources.listings
        if listing.source.id.startswith("claude-code:memory-")
    )


def open_key(qtbot: QtBot, window: MainWindow, key: str) -> None:
    window.memory_tab.controller.editor_link.select_key(key, open_it=True)
    qtbot.waitUntil(lambda: window.memory_tab.controller.editor.current_key == key, timeout=WAIT_MS)
    settle(qtbot, window.memory_tab.controller.editor)


def test_sources_come_after_the_mux_scopes_painted_grouped_by_project(
    qtbot: QtBot, machine: Machine, tmp_path: Path
) -> None:
    from memtab.components.window.ui_state import UiState
    from memtab.gui.first_paint.app import create_main_window

    window = create_main_window(
        machine.home,
        WORKSPACE_ID,
        ui_state=UiState(tmp_path / "ui.json"),
        start_writer=False,
        source_context=lambda _home: machine.context(),
    )
    qtbot.addWidget(window)
    tab = window.memory_tab
    at_first_paint: list[list[str]] = []

    def sections() -> list[str]:
        return [section.key for section in tab.model.root.children]

    tab.loaded.connect(lambda: at_first_paint.append(sections()))
    qtbot.waitUntil(lambda: tab.is_sources_loaded, timeout=WAIT_MS)
    try:
        # The first paint shows mux's scopes only; the sources follow.
        assert at_first_paint == [["section:global", "section:project", "section:workspace"]]
        project = str(machine.project)
        assert sections() == [
            "section:global",
            "section:project",
            "section:workspace",
            project_group_key(project),
            agent_group_key("claude-code"),
            agent_group_key("codex"),
        ]
        group = node(window, project_group_key(project))
        assert group.name == "acme-api" and group.section is SectionId.SOURCES
        assert project in tab.model.data(
            tab.model.index_for_key(group.key), Qt.ItemDataRole.ToolTipRole
        )
        agents = sorted(child.agent or "" for child in group.children)
        assert agents == ["claude-code", "claude-code", "codex", "loki"]
        memory = node(window, source_key(memory_id(window)))
        tooltip = tab.model.data(tab.model.index_for_key(memory.key), Qt.ItemDataRole.ToolTipRole)
        assert str(machine.claude_memory.parent) in tooltip
        # A new section opens once, with its folders (few files).
        assert tab.tree.isExpanded(tab.model.index_for_key(group.key))
        assert tab.tree.isExpanded(tab.model.index_for_key(memory.key))
        topic = node(window, ref_key(MemoryFileRef(memory.ref.source_id, "memory/MEMORY.md")))
        assert topic.warning is not None and topic.tag == "index"
    finally:
        window.close_without_asking()


def test_a_writable_file_of_another_agent_is_edited_and_saved_sha_checked(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    editor = window.memory_tab.controller.editor
    key = ref_key(parse_file_ref("claude-code:user:CLAUDE.md"))
    open_key(qtbot, window, key)
    assert editor.current_ref == parse_file_ref("claude-code:user:CLAUDE.md")
    assert editor.current_path is None and not editor.is_read_only
    assert editor.real_path == machine.claude / "CLAUDE.md"
    type_at_end(qtbot, editor, "- Be brief.")
    assert editor.is_dirty and saved(qtbot, editor)
    claude_md = machine.claude / "CLAUDE.md"
    assert claude_md.read_text(encoding="utf-8").endswith("- Be brief.\n")
    # What the save wrote over is kept in the home's history.
    versions = SourceVersions(machine.home).versions("claude-code:user:CLAUDE.md")
    assert [(v.op, v.actor) for v in versions] == [("edit", "user"), ("seen", "external")]
    # Claude Code (or an editor) changes it; the draft is never lost, the disk never overwritten.
    replace_in_buffer(editor, "Be brief.", "my draft")
    claude_md.write_text("# Written by Claude Code\n", encoding="utf-8")
    assert not saved(qtbot, editor)
    assert claude_md.read_text(encoding="utf-8") == "# Written by Claude Code\n"
    assert editor.buffer_text().endswith("- my draft\n")
    assert "Not saved" in editor.message_bar.text
    # The footer says consolidation leaves it alone, while it is open.
    note = window.memory_tab.controller.footer.mux_only_note
    assert note.isVisibleTo(window) and "Claude Code" in note.full_text
    editor.close_tab(editor.current_tab)  # the draft goes: nothing asks when the window closes
    assert not note.isVisibleTo(window)


def test_the_history_panel_shows_and_restores_what_memtab_wrote_over(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    file_id = "claude-code:user:CLAUDE.md"
    claude_md = machine.claude / "CLAUDE.md"
    original = claude_md.read_text(encoding="utf-8")
    source = next(s for s in discover(machine.context()).sources if s.id == "claude-code:user")
    file = source_file(source, "CLAUDE.md")
    assert file is not None
    history = SourceVersions(machine.home)
    save_source_file(
        source, file, "# Mine\n", read_source_file(source, file).sha256, history=history
    )
    window = open_window(make_window, machine, qtbot)
    window.show()  # the panel reads only while shown
    wait_watching(qtbot, window)  # a save reloads the panel through the watcher
    hub, tab = window.part(keys.HISTORY), window.memory_tab
    assert hub is not None
    open_key(qtbot, window, ref_key(parse_file_ref(file_id)))
    hub.show_history()
    panel = hub.panel
    qtbot.waitUntil(
        lambda: panel.history is not None and panel.history.ref.key == file_id, timeout=WAIT_MS
    )
    assert panel.history is not None
    assert [row.change for row in panel.history.rows][-1] == "First seen by Memtab"
    # Claude Code writes it: "the file now" follows, though history records nothing.
    claude_md.write_text("# Claude's\n", encoding="utf-8")
    qtbot.waitUntil(
        lambda: panel.history is not None and panel.history.current == b"# Claude's\n",
        timeout=WAIT_MS,
    )
    oldest = panel.history.rows[-1].version
    assert panel.select_version(oldest.id)
    qtbot.waitUntil(lambda: panel.diff.result is not None, timeout=WAIT_MS)
    panel.restore_button.click()
    qtbot.waitUntil(lambda: claude_md.read_text(encoding="utf-8") == original, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tab.controller.editor.buffer_text() == original, timeout=WAIT_MS)
    qtbot.waitUntil(  # Claude's content recorded before the restore wrote over it
        lambda: panel.history is not None and len(panel.history.rows) == 4, timeout=WAIT_MS
    )
    assert [row.version.actor for row in panel.history.rows][:2] == ["user", "external"]
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo restore of CLAUDE.md"
    window.context.actions.action(
        "files.undo"
    ).trigger()  # back to what the restore wrote over: Claude's
    qtbot.waitUntil(
        lambda: claude_md.read_text(encoding="utf-8") == "# Claude's\n", timeout=WAIT_MS
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_history_panel_lists_codexs_own_commits_of_a_memories_file(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    root = machine.codex / "memories"
    baseline = (root / "MEMORY.md").read_text(encoding="utf-8")
    identity = ["-c", "user.name=Codex", "-c", "user.email=codex@example.com"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "baseline"]):
        subprocess.run(["git", "-C", str(root), *identity, *args], check=True)
    (root / "MEMORY.md").write_text("# consolidated again\n", encoding="utf-8")
    commit = ["commit", "-q", "-am", "phase 2 consolidation"]
    subprocess.run(["git", "-C", str(root), *identity, *commit], check=True)
    window = open_window(make_window, machine, qtbot)
    window.show()
    hub = window.part(keys.HISTORY)
    assert hub is not None
    open_key(qtbot, window, ref_key(parse_file_ref("codex:memories:MEMORY.md")))
    hub.show_history()
    panel = hub.panel
    qtbot.waitUntil(lambda: bool(panel.history and panel.history.commits), timeout=WAIT_MS)
    assert panel.history is not None
    assert [c.subject for c in panel.history.commits] == ["phase 2 consolidation", "baseline"]
    texts = [panel.versions.topLevelItem(i).text(2) for i in range(2)]  # type: ignore[union-attr]
    assert texts == ["Commit: phase 2 consolidation", "Commit: baseline"]
    panel.versions.setCurrentItem(panel.versions.topLevelItem(1))
    qtbot.waitUntil(lambda: panel.diff.result is not None, timeout=WAIT_MS)
    assert panel.diff.result is not None and panel.diff.result.added == 1
    assert baseline.count("\n") == panel.diff.result.removed
    assert not panel.restore_button.isEnabled()  # Codex's repository is shown, not restored


def test_generated_and_rendered_files_open_read_only_saying_who_writes_them(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    editor = window.memory_tab.controller.editor
    open_key(qtbot, window, ref_key(parse_file_ref(f"codex:memories:{ROLLOUT}")))
    assert editor.is_read_only and not editor.save_button.isEnabled()
    assert editor.message_bar.text == f"Read-only: {GENERATED_BY_CODEX}."
    episode = next(
        n
        for n in window.memory_tab.model.nodes()
        if n.agent and n.ref and "episodic/" in n.ref.path and n.kind is NodeKind.FILE
    )
    open_key(qtbot, window, episode.key)
    # Source shows loki-mode's JSON as it is; Preview (shown first) what Memtab reads in it.
    assert editor.is_read_only and isinstance(json.loads(editor.buffer_text()), dict)
    assert editor.view_mode is ViewMode.PREVIEW
    assert editor.preview.source_text.startswith("# Episode ")
    assert WRITTEN_BY_LOKI in editor.message_bar.text
    assert "loki-mode" in window.memory_tab.controller.footer.mux_only_note.full_text
    summary = next(n for n in window.memory_tab.model.nodes() if n.tag == "older session summary")
    open_key(qtbot, window, summary.key)
    assert editor.is_read_only and "Claude Code" in editor.message_bar.text
    # Back on a mux file, the footer's note goes.
    store = MemoryStore.of(window.memory_tab.view())
    store.create_file(vpath("/memories/global/notes.md"), "# Notes\n")
    window.memory_tab.rescan_all()
    key = file_key(parse_file_path("/memories/global/notes.md"))
    qtbot.waitUntil(lambda: window.memory_tab.model.node_for_key(key) is not None, timeout=WAIT_MS)
    open_key(qtbot, window, key)
    assert not window.memory_tab.controller.footer.mux_only_note.isVisibleTo(window)


def choose(
    key: str, name: str, topic_type: str | None = None
) -> Callable[[Sequence[CopyTarget]], CopyChoice]:
    def pick(targets: Sequence[CopyTarget]) -> CopyChoice:
        target = next(t for t in targets if t.key == key)
        return CopyChoice(target, name, topic_type)

    return pick


def test_copy_to_puts_a_memory_into_another_agents_scope_from_the_tree(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    tab = window.memory_tab
    fake = dialogs(window)
    topic_key = ref_key(MemoryFileRef(memory_id(window), "memory/feedback_vercel-env-newline.md"))
    menu = tab.controller.file_actions.context_menu(node(window, topic_key))
    assert [without_mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()] == [
        "Copy to…",
        "Open containing folder",
    ]
    # A Claude Code feedback memory into mux global: frontmatter converted, history kept.
    assert tab.tree.select_key(topic_key)
    fake.copy_to = choose("mux:global", "vercel")
    tab.controller.file_actions.copy_to_action.trigger()
    target = parse_file_path("/memories/global/vercel.md")
    qtbot.waitUntil(lambda: tab.controller.editor.current_path == target, timeout=WAIT_MS)
    assert (
        "copy",
        "Claude Code · memory/feedback_vercel-env-newline.md",
        "feedback_vercel-env-newline",
        "feedback",
    ) in fake.asked
    text = (machine.home.global_root / "vercel.md").read_text(encoding="utf-8")
    assert text.startswith("---\ndescription: vercel env add") and "type: feedback" not in text
    history = [v for v in ScopeHistory(machine.home, "global").versions() if v.path == str(target)]
    assert [(v.op, v.actor) for v in history] == [("create", "user")]
    assert tab.model.badge_for(node(window, file_key(target))) is None  # Memtab wrote it
    # …and a mux memory into Claude Code's auto memory, as a topic of the chosen type.
    assert tab.tree.select_key(file_key(target))
    fake.copy_to = choose(f"source:{memory_id(window)}", "user_vercel", "user")
    tab.controller.file_actions.copy_to_action.trigger()
    copied = ref_key(MemoryFileRef(memory_id(window), "memory/user_vercel.md"))
    qtbot.waitUntil(lambda: tab.controller.editor.current_key == copied, timeout=WAIT_MS)
    assert node(window, copied).tag == "user"
    assert "type: user" in (machine.claude_memory / "user_vercel.md").read_text(encoding="utf-8")
    # Edit → Undo takes back the last copy, then the one before it.
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo copy to user_vercel.md"
    window.context.actions.action("files.undo").trigger()
    qtbot.waitUntil(lambda: tab.model.node_for_key(copied) is None, timeout=WAIT_MS)
    assert not (machine.claude_memory / "user_vercel.md").exists()

    def undo_text() -> str:
        window.part(keys.MENUS).refresh()
        return window.context.actions.action("files.undo").text()

    # The watcher's rescan may show the copy gone before the undo's own result arrives.
    qtbot.waitUntil(lambda: undo_text() == "&Undo copy to vercel.md", timeout=WAIT_MS)
    assert (
        tab.controller.editor.current_key is None
    )  # the removed copy is closed, not "deleted on disk"
    window.context.actions.action("files.undo").trigger()
    qtbot.waitUntil(  # in Recently deleted
        lambda: [i.path for i in trash(MemoryStore.of(tab.view()))] == [str(target)],
        timeout=WAIT_MS,
    )
    qtbot.waitUntil(lambda: tab.model.node_for_key(file_key(target)) is None, timeout=WAIT_MS)


def test_search_finds_memory_of_every_agent(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    tab = window.memory_tab
    tab.controller.search_box.edit.setText("heredoc")
    key = ref_key(MemoryFileRef(memory_id(window), "memory/feedback_vercel-env-newline.md"))
    qtbot.waitUntil(
        lambda: (hit := tab.model.node_for_key(key)) is not None and hit.content_hits > 0,
        timeout=WAIT_MS,
    )
    found = node(window, key)
    assert found.children  # its matching lines
    files = [n for n in tab.model.nodes() if n.kind is NodeKind.FILE]
    assert all(n.content_hits or "heredoc" in n.name for n in files)
    assert found.children[0].kind is NodeKind.MATCH
    tab.controller.editor_link.select_key(found.children[0].key, open_it=True)
    qtbot.waitUntil(lambda: tab.controller.editor.current_key == key, timeout=WAIT_MS)
    settle(qtbot, tab.controller.editor)
    assert "heredoc" in tab.controller.editor.text_edit.textCursor().selectedText().casefold()
    tab.controller.search_box.edit.setText("")
    qtbot.waitUntil(
        lambda: (
            tab.model.node_for_key(ref_key(parse_file_ref("codex:memories:MEMORY.md"))) is not None
        ),
        timeout=WAIT_MS,
    )


def test_a_claude_auto_memory_file_written_by_claude_reaches_the_tree(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    wait_watching(qtbot, window)
    memory_dir = str(machine.claude_memory)
    qtbot.waitUntil(lambda: (memory_dir, True) in window.watcher.extra_targets, timeout=WAIT_MS)
    key = ref_key(MemoryFileRef(memory_id(window), "memory/feedback_new-rule.md"))
    atomic_write_text(
        machine.claude_memory / "feedback_new-rule.md",
        "---\nname: New rule\ndescription: Prefer podman\ntype: feedback\n---\n\nUse podman.\n",
    )
    qtbot.waitUntil(lambda: window.memory_tab.model.node_for_key(key) is not None, timeout=WAIT_MS)
    assert node(window, key).description == "Prefer podman" and node(window, key).tag == "feedback"
    # An open, clean file follows what Claude Code writes.
    open_key(qtbot, window, key)
    atomic_write_text(
        machine.claude_memory / "feedback_new-rule.md",
        "---\nname: New rule\ndescription: Prefer podman, always\ntype: feedback\n---\n\n"
        "Use podman.\n",
    )
    qtbot.waitUntil(
        lambda: "always" in window.memory_tab.controller.editor.buffer_text(), timeout=WAIT_MS
    )
    qtbot.waitUntil(
        lambda: node(window, key).description == "Prefer podman, always", timeout=WAIT_MS
    )


def test_the_settings_say_where_memtab_looked_and_store_each_agents_choice(
    qtbot: QtBot, machine: Machine, tmp_path: Path, jobs: JobService
) -> None:
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(machine.user)}
    dialog = SettingsDialog(None, env, jobs=jobs, home=machine.home)
    qtbot.addWidget(dialog)
    box = dialog.sources_box
    qtbot.waitUntil(lambda: "found" in box.looked["claude-code"].text(), timeout=WAIT_MS)
    assert "not found" in box.looked["claude-code"].text()  # ~/.config/claude
    assert (
        str(machine.claude) in box.looked["claude-code"].text()
        or "~/.claude" in box.looked["claude-code"].text()
    )
    box.enabled["codex"].setChecked(False)
    assert not box.paths["codex"].isEnabled()
    box.paths["claude-code"].setText(str(tmp_path / "other-claude"))
    dialog.accept()
    stored = load_sources_settings(env)
    assert not stored.agent("codex").enabled
    assert stored.agent("claude-code").path == str(tmp_path / "other-claude")
    assert stored.agent("loki").enabled


def test_tree_rows_of_other_agents_cannot_be_dragged_or_dropped_on(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    model = window.memory_tab.model
    for each in model.nodes():
        if each.agent is None:
            continue
        flags = model.flags(model.index_for_node(each))
        assert not flags & Qt.ItemFlag.ItemIsDragEnabled
        assert not flags & Qt.ItemFlag.ItemIsDropEnabled
    index: QModelIndex = model.index_for_key(source_key("codex:memories"))
    assert model.data(index, KEY_ROLE) == "source:codex:memories"


def test_saving_a_claude_memory_with_a_modified_stamp_sets_it_to_now(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    topic = machine.claude_memory / "feedback_vercel-env-newline.md"
    text = topic.read_text(encoding="utf-8")
    old = "2026-06-04T10:20:30.456Z"
    topic.write_text(
        text.replace("type: feedback\n", f"type: feedback\nmodified: {old}\n"), encoding="utf-8"
    )
    window = open_window(make_window, machine, qtbot)
    editor = window.memory_tab.controller.editor
    ref = MemoryFileRef(memory_id(window), "memory/feedback_vercel-env-newline.md")
    open_key(qtbot, window, ref_key(ref))
    type_at_end(qtbot, editor, "- Checked again.")
    assert saved(qtbot, editor)
    written = topic.read_text(encoding="utf-8")
    stamp = re.search(r"^modified: (\S+)$", written, re.MULTILINE)
    assert stamp is not None and stamp.group(1) != old
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp.group(1))
    # The editor shows what was written (formats §17.2), and has nothing left to save.
    assert editor.buffer_text() == written and not editor.is_dirty


def test_codexs_import_of_a_claude_memory_opens_its_original_and_back(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    """Codex 0.169.0's `extensions/external_agent_import/resources/<key>/` (support.codex_home):
    the copy's row says what it is and its menu opens the original; the original's opens the
    copy (docs/formats.md §17.3)."""
    key = import_claude_memory(
        machine.codex / "memories", machine.claude_memory.parent, str(machine.project)
    ).name
    window = open_window(make_window, machine, qtbot)
    tab = window.memory_tab
    copy_ref = MemoryFileRef(
        "codex:memories", f"extensions/external_agent_import/resources/{key}/MEMORY.md"
    )
    original_ref = MemoryFileRef(memory_id(window), "memory/MEMORY.md")
    copy = node(window, ref_key(copy_ref))
    assert copy.tag == "imported" and copy.linked == original_ref
    open_key(qtbot, window, copy.key)
    menu = tab.controller.file_actions.context_menu(copy)
    first = next(a for a in menu.actions() if not a.isSeparator())
    assert without_mnemonic(first.text()) == "Open the original in Claude Code's memory"
    first.trigger()
    qtbot.waitUntil(
        lambda: tab.controller.editor.current_key == ref_key(original_ref), timeout=WAIT_MS
    )
    original = node(window, ref_key(original_ref))
    menu = tab.controller.file_actions.context_menu(original)
    first = next(a for a in menu.actions() if not a.isSeparator())
    assert without_mnemonic(first.text()) == "Open Codex's import of it"
    first.trigger()
    qtbot.waitUntil(lambda: tab.controller.editor.current_key == ref_key(copy_ref), timeout=WAIT_MS)
