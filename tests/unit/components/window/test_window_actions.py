"""The window's own actions' words and steps, without Qt."""

from __future__ import annotations

from pathlib import Path

from memtab.components.window.menus import (
    HomeFolder,
    OpenHomeStep,
    about_html,
    open_home_step,
    writer_pause_title,
)


def test_about_says_the_version_the_home_and_the_log_escaped() -> None:
    text = about_html("1.2.3", Path("/homes/a&b"), Path("/logs/<memtab>.log"))
    assert "<b>Memtab 1.2.3</b>" in text
    assert "Home: <code>/homes/a&amp;b</code>" in text
    assert "Log: <code>/logs/&lt;memtab&gt;.log</code>" in text


def test_about_says_when_no_log_is_written() -> None:
    text = about_html("1.2.3", Path("/home"), None)
    assert "Log: not written (run with --verbose to log to the terminal)" in text


def test_the_writers_entry_resumes_once_paused() -> None:
    assert writer_pause_title(False) == "Pause the memory &writer"
    assert writer_pause_title(True) == "Resume the memory &writer"


def test_open_home_refuses_with_why_asks_about_a_new_folder_or_opens() -> None:
    folder = Path("/somewhere")
    assert open_home_step(HomeFolder(folder, False, "It is a file.")) == OpenHomeStep(
        "It is a file.", None
    )
    assert open_home_step(HomeFolder(folder, False)) == OpenHomeStep("Cannot open /somewhere", None)
    assert open_home_step(HomeFolder(folder, True, "Not a memory home yet.")) == OpenHomeStep(
        None, "Not a memory home yet."
    )
    assert open_home_step(HomeFolder(folder, True)) == OpenHomeStep(None, None)
