"""Live updates end to end: another process writes while the window is open.

A second Python process (standing in for mux, an agent or a second Memtab) writes a memory
file and journals a consolidation run; the tree and the footer must show both within 2 s.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.components.tree.nodes import file_key
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, PROJECT

home = support.home
make_window = support.make_window

APP_DIR = Path(__file__).resolve().parents[2] / "app"

WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from memtab.store.home import Home
    from memtab.store.sidecars.journal import ConsolidationRecord, JournalOp, Journal
    from memtab.store.paths import parse_file_path
    from memtab.store.scopes.memory import MemoryStore

    home = Home(Path(sys.argv[1]))
    store = MemoryStore.open(home, sys.argv[2])
    store.create_file(
        parse_file_path("/memories/workspace/from-agent.md"),
        "---\\ndescription: Written by another process\\n---\\n\\nHello.\\n",
    )
    record = ConsolidationRecord(
        last_run_at=int(time.time() * 1000),
        trigger="compaction",
        summary="merged two notes",
        ops=(JournalOp(command="create", path="/memories/workspace/from-agent.md", applied=True),),
    )
    Journal(home).save_run(sys.argv[2], sys.argv[3], record)
    """
)


def test_a_second_process_writing_updates_tree_and_footer_within_2_s(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home, MAIN)
    support.wait_watching(qtbot, window)
    tab = window.memory_tab
    footer = tab.controller.footer
    assert footer.line_text("Workspace") == "never"  # type: ignore[attr-defined]
    key = file_key(parse_file_path("/memories/workspace/from-agent.md"))
    assert tab.model.node_for_key(key) is None

    subprocess.run(
        [sys.executable, "-c", WRITER, str(home.root), MAIN, PROJECT],
        check=True,
        env={"PYTHONPATH": str(APP_DIR), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )

    qtbot.waitUntil(lambda: tab.model.node_for_key(key) is not None, timeout=2000)
    qtbot.waitUntil(
        lambda: footer.line_text("Workspace").endswith("compaction · 1 file changed"),  # type: ignore[attr-defined]
        timeout=2000,
    )
    node = tab.model.node_for_key(key)
    assert node is not None and node.description == "Written by another process"
    physical = str(home.workspace_root(MAIN) / "from-agent.md")
    assert physical in tab.agent_edited  # not written by this Memtab
    # The run's change was to a workspace file: the project's line counts none.
    assert footer.line_text("Project").endswith("compaction · no file changed")  # type: ignore[attr-defined]
