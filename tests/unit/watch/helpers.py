"""What the recorder's tests share: a machine with mux memory in every scope, a recorder
running on a thread, another process changing files, and waiting for history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.watch.recorder import Recorder
from support.agent_machine import Machine, build_machine

WAIT_S = 20.0  # a loaded CI machine; the bench measures how fast it really is


def machine_with_notes(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Machine, MemoryStore]:
    """The agent machine (its `~` as HOME, so discovery finds Claude Code and Codex) and
    its workspace's store, with three notes in each of mux's scopes."""
    machine = build_machine(root)
    monkeypatch.setenv("HOME", str(machine.user))
    workspace = load_registry(machine.home).workspaces[0]
    store = MemoryStore(machine.home, workspace)
    for scope in (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE):
        folder = store.root(scope)
        folder.mkdir(parents=True, exist_ok=True)
        for index in range(3):
            (folder / f"note{index}.md").write_text(f"# {scope.value} {index}\n", "utf-8")
    return machine, store


@contextmanager
def running_recorder(home: Home, **options: object) -> Iterator[Recorder]:
    """A recorder on a thread, its first sync done, stopped when the block ends."""
    recorder = Recorder(home, **options)  # type: ignore[arg-type]
    failure: list[BaseException] = []

    def run() -> None:
        try:
            recorder.run()
        except BaseException as error:  # the test reports it
            failure.append(error)

    thread = threading.Thread(target=run, name="recorder")
    thread.start()
    try:
        assert recorder.ready.wait(WAIT_S) or failure, "the recorder did not start"
        assert not failure, failure
        yield recorder
    finally:
        recorder.stop()
        thread.join(WAIT_S)
    assert not failure, failure


def change_in_another_process(
    delete: list[Path] = (),
    rewrite: dict[Path, str] | None = None,  # type: ignore[assignment]
) -> None:
    """Delete and rewrite files from a child process (as an agent would)."""
    script = (
        "import json, os, sys\n"
        "todo = json.loads(sys.argv[1])\n"
        "for path in todo['delete']: os.unlink(path)\n"
        "for path, text in todo['rewrite'].items():\n"
        "    open(path, 'w', encoding='utf-8').write(text)\n"
    )
    todo = {
        "delete": [str(p) for p in delete],
        "rewrite": {str(p): t for p, t in (rewrite or {}).items()},
    }
    subprocess.run([sys.executable, "-c", script, json.dumps(todo)], check=True, env=os.environ)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Wait until `condition()` holds (at most WAIT_S: a failure, not a timing test)."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)
