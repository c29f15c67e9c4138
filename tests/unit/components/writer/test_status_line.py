"""The writer's corner of the status bar without Qt: the line for each status, a failed
run's trace link, the last run's news as a link only while the writer idles here, the
dot's colour and the pause button's words."""

from __future__ import annotations

from pathlib import Path

from memtab.components.writer.supervision import (
    DOT_COLORS,
    NEWS_LINK,
    TRACE_LINK,
    NewsKind,
    WriterActivity,
    WriterNews,
    WriterStatus,
    status_view,
)

NEWS = WriterNews(
    kind=NewsKind.RECORDED,
    workspace_id="main",
    workspace_name="Main",
    memory_path="/memories/workspace/notes.md",
    count=3,
    at_ms=1,
)


def test_a_failed_run_links_its_trace_and_names_the_workspace() -> None:
    failed = WriterStatus(
        WriterActivity.FAILED, workspace_name="A <b> app", message="boom", trace_path=Path("/t")
    )
    view = status_view(failed, None, paused=False)
    assert (
        view.html
        == f'Memory writer failed for A &lt;b&gt; app · <a href="{TRACE_LINK}">view trace</a>'
    )
    assert view.text == "Memory writer failed for A <b> app"
    assert view.tooltip == "boom" and view.dot_color == DOT_COLORS["failed"]
    untraced = status_view(WriterStatus(WriterActivity.FAILED), None, paused=False)
    assert "href" not in untraced.html


def test_the_news_is_a_link_only_while_the_writer_idles_here() -> None:
    idle = status_view(WriterStatus(), NEWS, paused=False)
    assert idle.html.startswith(f'<a href="{NEWS_LINK}">Recorded 3 notes')
    assert idle.tooltip == NEWS.details()
    standby = status_view(WriterStatus(standby=True), NEWS, paused=False)
    assert standby.text == "Memory writer runs in another Memtab window"
    assert "href" not in standby.html
    running = status_view(
        WriterStatus(WriterActivity.RUNNING, workspace_id="w"), NEWS, paused=False
    )
    assert running.text == "Writing memory for w…" and "href" not in running.html


def test_a_paused_writer_offers_resume_and_its_dot_says_paused_while_idle() -> None:
    paused = status_view(WriterStatus(paused=True), None, paused=True)
    assert paused.text == "Memory writer paused" and paused.toggle == "Resume"
    assert paused.dot_color == DOT_COLORS["paused"]
    assert paused.toggle_name == "Resume the memory writer"
    news = status_view(WriterStatus(paused=True), NEWS, paused=True)
    assert news.text.endswith(" · writer paused")
    running = status_view(WriterStatus(WriterActivity.RUNNING), None, paused=True)
    assert running.dot_color == DOT_COLORS["running"]
    assert status_view(WriterStatus(), None, paused=False).toggle == "Pause"
