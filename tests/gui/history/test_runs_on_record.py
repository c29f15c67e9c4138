"""Every run on record, linked to its trace (issue 96 point 3), in the window: Consolidate now
with a local model server that is down said so in the footer and in Traces, but Runs…
(Failed only) said "No runs match these filters" — the CLI's `consolidate` logged its failed
run. Now the window's run (a plan to review, in a child process) is logged the same way, and
Runs… opens its trace."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.gui.traces.feature import TracesTab
from memtab.gui.window import keys
from memtab.store.history.runs import trace_path
from support.memory_home import MAIN, make_home
from support.ports import refused_port

make_window = support.make_window

RUN_MS = 60_000  # a child process's start on a loaded machine; the refusal itself is at once


@pytest.mark.slow  # slow: Consolidate now in a child process, the Traces tab built
def test_consolidate_now_against_a_server_that_is_down_is_in_runs_with_its_trace(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path / "home")
    window = make_window(home, MAIN, start_writer=False)
    consolidation = window.part(keys.CONSOLIDATION)
    with refused_port() as port:  # llama.cpp's server, say, not started
        monkeypatch.setenv("MEMTAB_PROVIDER", "openai")
        monkeypatch.setenv("MEMTAB_MODEL", "qwen2.5-coder-1.5b")
        monkeypatch.setenv("MEMTAB_BASE_URL", f"http://127.0.0.1:{port}/v1")
        with qtbot.waitSignal(consolidation.run_failed, timeout=RUN_MS) as failed:
            window.part(keys.FOOTER).consolidate_button.click()  # reviews first: a plan
    said = str(failed.args[0])
    assert "Connection refused" in said and "Traces tab" in said

    dialog = window.part(keys.HISTORY).open_runs()
    dialog.failed_only.setChecked(True)
    wait_for(qtbot, lambda: dialog.runs and dialog.detail is not None and not dialog.busy)
    [run] = dialog.runs
    assert run.failed and run.kind == "consolidation" and run.trigger == "manual"
    assert run.error is not None and run.error in said
    trace = trace_path(home, run)
    assert trace is not None and trace.is_file()
    assert dialog.trace_button.isEnabled()

    dialog.trace_button.click()  # Open trace: the Traces tab, on the run's dump
    wait_for(qtbot, lambda: window.shown_traces_tab is not None)
    traces = window.shown_traces_tab
    assert isinstance(traces, TracesTab)
    wait_for(qtbot, lambda: traces.selected_path() == trace)
