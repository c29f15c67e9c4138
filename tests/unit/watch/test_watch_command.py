"""`memtab watch` as a user runs it: a process of its own that loads no Qt, says whether
it runs and since when, and whose bursts `memtab restore --event` puts back."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from memtab.cli.background.watch_commands import _say_ready
from memtab.cli.main import main
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.watch.sources import RecorderLease
from support.processes import exit_of

from .helpers import WAIT_S, change_in_another_process, machine_with_notes, wait_for

# The recorder's process says at exit which modules it loaded.
_RUN_AND_REPORT = (
    "import atexit, json, sys\n"
    "def report():\n"
    "    with open(sys.argv[1], 'w') as out:\n"
    "        json.dump(sorted(m for m in sys.modules if m.split('.')[0] == 'PySide6'), out)\n"
    "atexit.register(report)\n"
    "from memtab.launch import main\n"
    "sys.exit(main(['watch', '--home', sys.argv[2]]))\n"
)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# slow: starts other processes (the headless recorder; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_the_recorder_runs_headless_records_and_its_burst_restores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    home = str(machine.home.root)
    assert _json(capsys, "watch", "--status", "--home", home)["running"] is False
    loaded = tmp_path / "modules.json"
    process = subprocess.Popen(
        [sys.executable, "-c", _RUN_AND_REPORT, str(loaded), home],
        env=os.environ,
        stderr=subprocess.PIPE,
    )
    try:
        # Its holder file is written right after it takes the lock.
        wait_for(lambda: RecorderLease(machine.home).status().pid is not None, "it runs")
        status = _json(capsys, "watch", "--status", "--home", home)
        assert status["running"] is True and status["pid"] == process.pid
        assert status["since"] > 0 and status["installed"] is False
        wait_for(
            lambda: len(ScopeHistory(machine.home, "global").versions()) == 3,
            "the first sync's baseline",
        )
        notes = [store.root(Scope.GLOBAL) / f"note{index}.md" for index in range(3)]
        change_in_another_process(delete=notes)
        wait_for(
            lambda: sum(v.deleted for v in ScopeHistory(machine.home, "global").versions()) == 3,
            "the deletions recorded",
        )
    finally:
        process.send_signal(signal.SIGTERM)
        status, stderr = exit_of(process, "SIGTERM", WAIT_S)
    assert status == 0, stderr
    assert json.loads(loaded.read_text()) == []  # no Qt
    assert _json(capsys, "watch", "--status", "--home", home)["running"] is False

    (event,) = _json(capsys, "events", "--home", home)["events"]
    assert event["deleted"] == 3 and event["actor"] == "external"
    restored = _json(capsys, "restore", "--event", event["id"], "--home", home)
    assert sorted(restored["restored"]) == [f"/memories/global/note{i}.md" for i in range(3)]
    assert [n.read_text("utf-8") for n in notes] == [f"# global {i}\n" for i in range(3)]


# slow: starts the recorder's process (~0.5 s of CPU or more)
@pytest.mark.slow
@pytest.mark.parametrize(
    ("moment", "number"), [("in-its-wait", "SIGTERM"), ("on-another-thread", "SIGINT")]
)
def test_a_stop_signal_ends_the_recorder_wherever_it_lands(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    moment: str,
    number: str,
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    home = str(machine.home.root)
    signalled = Path(__file__).with_name("signalled_watch.py")
    process = subprocess.Popen(
        [sys.executable, str(signalled), moment, number, home],
        env=os.environ,
        stderr=subprocess.PIPE,
    )
    try:  # it signals itself once its first pass is done, maybe before a look finds it running
        lease = RecorderLease(machine.home)
        wait_for(lambda: lease.status().pid is not None or process.poll() is not None, "it runs")
    finally:
        status, said = exit_of(process, f"it took the lease ({number} {moment})", WAIT_S)
    assert number in said and status == 0, said
    assert _json(capsys, "watch", "--status", "--home", home)["running"] is False


def test_the_ready_line_counts_the_folders_watched(capsys: pytest.CaptureFixture[str]) -> None:
    for watched, said in (([("/m/global", True)], "1 folder"), ([("/a", True)] * 3, "3 folders")):
        _say_ready(SimpleNamespace(watched=watched, backend="inotify"))  # type: ignore[arg-type]
        assert f"watching {said} (inotify) for changes" in capsys.readouterr().err


def test_a_second_recorder_for_the_same_home_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    lease = RecorderLease(machine.home)
    assert lease.acquire()
    try:
        assert main(["watch", "--home", str(machine.home.root)]) != 0
    finally:
        lease.release()
    assert "A recorder already runs" in capsys.readouterr().err


def test_restore_asks_for_a_path_and_version_or_an_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine, _store = machine_with_notes(tmp_path, monkeypatch)
    home = str(machine.home.root)
    assert main(["restore", "--home", home]) != 0
    assert "--event ID" in capsys.readouterr().err
    assert main(["restore", "--event", "nope", "--home", home]) != 0
    assert "No event 'nope'" in capsys.readouterr().err
