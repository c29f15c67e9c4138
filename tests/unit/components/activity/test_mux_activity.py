"""Whether mux may be running on a home: processes and recent writes (no Qt)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from memtab.components.activity.mux_activity import (
    is_mux_command_line,
    mux_activity,
    running_command_lines,
)
from memtab.store.home import Home

NOW = 2_000_000_000.0


def test_mux_commands_are_recognised_by_their_program() -> None:
    assert is_mux_command_line(["/opt/Xum/xum", "--no-sandbox"])
    assert is_mux_command_line(["mux"])
    assert is_mux_command_line(["/usr/bin/node", "/usr/lib/node_modules/@coder/xum/bin/mux", "run"])
    assert not is_mux_command_line(["/usr/bin/python3", "-m", "memtab"])
    assert not is_mux_command_line(["tmux", "attach"])
    assert not is_mux_command_line(["vim", "mux"])


def test_no_process_and_no_recent_writes_means_not_running(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    quiet = mux_activity(home, command_lines=lambda: [["bash"], ["memtab"]], clock=lambda: NOW)
    assert quiet.running is False and not quiet.may_run


def test_a_mux_process_or_a_recent_transcript_write_means_it_may_run(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    seen = mux_activity(home, command_lines=lambda: [["/opt/Xum/xum"]], clock=lambda: NOW)
    assert seen.running is True and "process" in seen.reason
    transcript = home.transcript_path("a1b2c3d4e5")
    transcript.parent.mkdir(parents=True)
    transcript.write_text("{}\n")
    os.utime(transcript, (NOW - 60, NOW - 60))
    recent = mux_activity(home, command_lines=lambda: [["bash"]], clock=lambda: NOW)
    assert recent.running is True and "wrote" in recent.reason
    old = mux_activity(home, command_lines=lambda: [["bash"]], clock=lambda: NOW + 3600)
    assert old.running is False


def test_when_processes_cannot_be_listed_the_warning_stays(tmp_path: Path) -> None:
    unknown = mux_activity(Home(tmp_path / "home"), command_lines=lambda: None, clock=time.time)
    assert unknown.running is None and unknown.may_run


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_running_processes_are_listed() -> None:
    command_lines = running_command_lines()
    assert command_lines is not None
    assert any("pytest" in " ".join(argv) for argv in command_lines)  # this very test run
