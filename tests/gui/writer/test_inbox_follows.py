"""The Inbox follows every agent's proposals as they appear and go: a review queue that
comes or goes with the folder holding it is its proposals coming or going. Gemini CLI's
private memory at its first extraction lists its `.inbox/` patches at once; removed or
moved away (or its `.inbox` alone), they leave the list, and come back with it. mux's
harvest goes with the workspace's memory folder or the workspace's folder. The room
("what needs you") counts what the Inbox lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from gui.writer.test_inbox_panel import harvest
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support.gemini_home import GeminiHome, build_gemini_home
from support.memory_home import MAIN

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window
WORKSPACE = "g1h2i3j4k5"


def waiting(window: MainWindow) -> list[str]:
    """What the Inbox lists: each item's kind."""
    return [item.kind for item in window.memory_tab.controller.inbox.items]


def room_count(window: MainWindow) -> int | None:
    """The room's count of what waits in the Inbox (None: not said yet)."""
    sections = window.part(keys.TRUST).room.sections
    return next((section.count for section in sections if section.key == "inbox"), None)


def gemini_window(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, *, memory: bool = True
) -> tuple[MainWindow, GeminiHome]:
    """A window on a workspace of the project Gemini CLI ran in: its private memory with
    a patch in each of its inbox's folders, or (not `memory`) none yet."""
    project = tmp_path / "src" / "acme-api"
    mux = Home(tmp_path / "home")
    gemini = build_gemini_home(Path.home(), project)
    if not memory:  # Gemini CLI ran in the project, extracted nothing yet
        shutil.rmtree(gemini.memory)
    add_workspace(mux, str(project), "main", workspace_id=WORKSPACE, workspace_path=str(project))
    window = make_window(mux, WORKSPACE)
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_watching(qtbot, window)
    return window, gemini


def test_gemini_clis_first_extraction_lists_its_patches_and_their_folder_going_takes_them(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    project = tmp_path / "src" / "acme-api"
    made = build_gemini_home(tmp_path / "made", project)  # the folder its extraction writes
    window, gemini = gemini_window(qtbot, make_window, tmp_path, memory=False)
    qtbot.waitUntil(lambda: room_count(window) == 0, timeout=WAIT_MS)
    assert waiting(window) == []

    # Its first extraction: the memory folder, its notes and both patches, in one burst.
    shutil.copytree(made.memory, gemini.memory)
    qtbot.waitUntil(lambda: waiting(window) == ["gemini", "gemini"], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: room_count(window) == 2, timeout=WAIT_MS)

    # The folder moved away (a clean-up, another tool): its patches are no longer waiting.
    away = tmp_path / "away"
    gemini.memory.rename(away)
    qtbot.waitUntil(lambda: waiting(window) == [], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: room_count(window) == 0, timeout=WAIT_MS)
    away.rename(gemini.memory)  # and back
    qtbot.waitUntil(lambda: waiting(window) == ["gemini", "gemini"], timeout=WAIT_MS)
    shutil.rmtree(gemini.memory)
    qtbot.waitUntil(lambda: waiting(window) == [], timeout=WAIT_MS)


@pytest.mark.parametrize(("moved", "left"), [(".inbox", 0), (".inbox/private", 1)])
def test_gemini_clis_inbox_folder_moved_away_takes_its_patches_and_brings_them_back(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, moved: str, left: int
) -> None:
    window, gemini = gemini_window(qtbot, make_window, tmp_path)
    qtbot.waitUntil(lambda: len(waiting(window)) == 2, timeout=WAIT_MS)
    away = tmp_path / "away"
    (gemini.memory / moved).rename(away)
    qtbot.waitUntil(lambda: len(waiting(window)) == left, timeout=WAIT_MS)
    away.rename(gemini.memory / moved)
    qtbot.waitUntil(lambda: len(waiting(window)) == 2, timeout=WAIT_MS)


@pytest.mark.parametrize("folder", ["memory", "workspace"])
def test_muxs_harvest_goes_with_the_folder_holding_it_and_comes_back_with_it(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path, folder: str
) -> None:
    harvest(home)
    window = make_window(home, start_writer=False)  # the transcript would wake the writer
    wait_watching(qtbot, window)
    qtbot.waitUntil(lambda: waiting(window) == ["harvest"] * 3, timeout=WAIT_MS)
    moved = home.workspace_root(MAIN) if folder == "memory" else home.workspace_dir(MAIN)
    away = tmp_path / "away"
    moved.rename(away)
    qtbot.waitUntil(lambda: waiting(window) == [], timeout=WAIT_MS)
    away.rename(moved)
    qtbot.waitUntil(lambda: waiting(window) == ["harvest"] * 3, timeout=WAIT_MS)


def test_gemini_clis_memory_moved_away_and_made_again_at_once_lists_what_the_new_one_holds(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    # Between two listings of the sources: the same queue is found, what it holds is new
    # (its patches written before its folder was watched again), and the batch names the
    # folder alone — none of the old patches' paths.
    project = tmp_path / "src" / "acme-api"
    made = build_gemini_home(tmp_path / "made", project)
    (made.inbox("global") / "extraction.patch").unlink()  # the next extraction's: one patch
    window, gemini = gemini_window(qtbot, make_window, tmp_path)
    qtbot.waitUntil(lambda: waiting(window) == ["gemini", "gemini"], timeout=WAIT_MS)
    gemini.memory.rename(tmp_path / "old-memory")  # moved away (a clean-up), made anew
    shutil.copytree(made.memory, gemini.memory)
    (gemini.inbox("private") / "extraction.patch").write_text(
        gemini.private_patch(), encoding="utf-8"
    )
    qtbot.waitUntil(lambda: waiting(window) == ["gemini"], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: room_count(window) == 1, timeout=WAIT_MS)
