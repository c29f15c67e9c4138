"""WriterStatusWidget: the status line, the "view trace" link and the pause toggle."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel, QToolButton
from pytestqt.qtbot import QtBot

from memtab.components.writer.supervision import WriterActivity, WriterStatus
from memtab.gui.tasks.jobs import JobService
from memtab.gui.writer.feedback import TRACE_LINK, WriterStatusWidget, WriterSupervisor
from memtab.store.home import Home

FAILED = WriterStatus(
    activity=WriterActivity.FAILED,
    workspace_id="a1b2c3d4e5",
    workspace_name="main",
    message="timed out after 60 s",
    trace_path=Path("/home/x/debug_obj/a1b2c3d4e5/system1_memory_writer/1_m.json"),
)


def parts(widget: WriterStatusWidget) -> tuple[QLabel, QToolButton]:
    label = widget.findChild(QLabel, "writerStatusText")
    toggle = widget.findChild(QToolButton, "writerPauseToggle")
    assert label is not None and toggle is not None
    return label, toggle


def test_each_activity_has_its_line(qtbot: QtBot) -> None:
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    assert widget.text() == "Memory writer idle"
    widget.set_status(WriterStatus(WriterActivity.RUNNING, workspace_name="main"))
    assert widget.text() == "Writing memory for main…"
    widget.set_status(FAILED)
    label, _ = parts(widget)
    assert widget.text() == "Memory writer failed for main"
    assert f'href="{TRACE_LINK}"' in label.text() and label.toolTip() == FAILED.message
    widget.set_status(WriterStatus(paused=True))
    assert widget.text() == "Memory writer paused" and "href" not in label.text()
    widget.set_status(WriterStatus(standby=True))
    assert widget.text() == "Memory writer runs in another Memtab window"


def test_view_trace_emits_the_dump_path(qtbot: QtBot) -> None:
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    widget.set_status(FAILED)
    label, _ = parts(widget)
    with qtbot.waitSignal(widget.trace_requested) as requested:
        label.linkActivated.emit(TRACE_LINK)
    assert requested.args == [FAILED.trace_path]


def test_a_failure_without_a_dump_has_no_link(qtbot: QtBot) -> None:
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    widget.set_status(WriterStatus(WriterActivity.FAILED, workspace_name="main"))
    label, _ = parts(widget)
    assert "href" not in label.text()
    with qtbot.assertNotEmitted(widget.trace_requested):
        label.linkActivated.emit(TRACE_LINK)


def test_the_toggle_pauses_and_resumes(qtbot: QtBot) -> None:
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    _, toggle = parts(widget)
    assert toggle.text() == "Pause" and not widget.isPaused()
    with qtbot.waitSignal(widget.paused_changed) as changed:
        toggle.click()
    assert changed.args == [True] and widget.isPaused() and toggle.text() == "Resume"
    with qtbot.waitSignal(widget.paused_changed) as changed:
        widget.setPaused(False)
    assert changed.args == [False] and toggle.text() == "Pause"


def test_attached_it_pauses_the_supervisor_and_follows_its_status(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    supervisor = WriterSupervisor(Home(tmp_path / "home"), jobs)
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    widget.attach(supervisor)
    try:
        _, toggle = parts(widget)
        toggle.click()
        assert supervisor.paused and widget.text() == "Memory writer paused"
        supervisor.set_paused(False)
        assert not widget.isPaused() and toggle.text() == "Pause"
    finally:
        supervisor.shutdown()
