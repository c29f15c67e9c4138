"""Memtab beside a running xum: nothing lost on either side (docs/formats.md §21.2).

A second process plays xum (`support/xum_player.py`, xum's lock protocol written apart
from Memtab's): hundreds of times it appends a line to a global memory file and counts a
use of it in memory-meta.json, each under xum's target lock and, inside it, xum's
memory-meta.json lock, taking a few milliseconds as xum does. Meanwhile Memtab changes the
same file through the window's save path (`MuxFile.save`, retried on a conflict as the
editor asks), `memtab tool` and a consolidation run. At the end every line each side
added is there, and every use each side counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.service import ConsolidationService
from memtab.file_protocol.memory_file import MuxFile
from memtab.llm.settings import ProviderSettings
from memtab.store.errors import SaveConflictError, ScopeBusyError
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import ConsolidationRecord
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath
from support.xum import player_code

pytestmark = pytest.mark.slow

WS = "a1a1a1a1a1"
SHARED = "/memories/global/shared.md"
XUM_TIMES = 300
WINDOW_SAVES = 40
CLI_CALLS = 15
CONSOLIDATION_RUNS = 5
HEAD = "---\ndescription: Notes xum and Memtab both write\n---\n# Shared\n\n"
REPEATED = "- The staging database is read-only for developers.\n"


def until_saved(save: Callable[[], None]) -> int:
    """Run `save` until it is not refused by a conflict or a busy lock; the retries."""
    for retry in range(200):
        try:
            save()
            return retry
        except (SaveConflictError, ScopeBusyError):
            continue
    raise AssertionError("a save was refused 200 times")


def test_nothing_is_lost_when_memtab_and_xum_change_one_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, "/home/dev/src/app", "main", workspace_id=WS)
    store = MemoryStore(home, load_registry(home).require_workspace(WS))
    store.create_file(vpath(SHARED), HEAD + REPEATED + REPEATED)  # the consolidation's work
    shared = MuxFile(store, parse_file_path(SHARED))

    with subprocess.Popen(
        [sys.executable, "-c", player_code("churn"), str(home.root), "shared.md", str(XUM_TIMES)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as xum:
        assert xum.stdin is not None and xum.stdout is not None
        assert xum.stdout.readline().strip() == "ready"
        failures: list[BaseException] = []
        consolidated: list[ConsolidationRecord] = []

        def window() -> None:  # the editor: load, type a line, save (retry on conflict)
            for number in range(WINDOW_SAVES):

                def save(line: str = f"- window {number}\n") -> None:
                    loaded = shared.read()
                    shared.save(loaded.content + line, loaded.sha256)

                until_saved(save)

        def cli() -> None:
            for number in range(CLI_CALLS):
                call = {
                    "command": "insert",
                    "path": SHARED,
                    "insert_line": 5,
                    "insert_text": f"- cli {number}",
                }
                args = ["--home", str(home.root), "tool", "--workspace", WS, json.dumps(call)]
                until_saved(lambda args=args: _ok(main(args)))

        def consolidation() -> None:
            # A run skips a file that changed on disk while it ran (nothing overwritten):
            # run again, as a user would, until its change is applied.
            offline = ProviderSettings("offline", "offline", "")
            for _ in range(CONSOLIDATION_RUNS):
                record = ConsolidationService(home, settings=offline).run(WS)
                if record.applied_count:
                    consolidated.append(record)
                    return

        def running(work: Callable[[], None]) -> threading.Thread:
            def guarded() -> None:
                try:
                    work()
                except BaseException as error:  # reported below, on the test's thread
                    failures.append(error)

            thread = threading.Thread(target=guarded)
            thread.start()
            return thread

        xum.stdin.write("go\n")
        xum.stdin.flush()
        threads = [running(window), running(cli), running(consolidation)]
        for thread in threads:
            thread.join(120)
        assert xum.stdout.readline().strip() == f"done {XUM_TIMES}"
        xum.stdin.close()
        assert xum.wait(30) == 0
    assert not failures, failures
    capsys.readouterr()

    text = store.read(vpath(SHARED)).content
    lines = text.splitlines()
    # the consolidation's change stands (or, skipped every time, the file is as it was)
    assert text.count(REPEATED) == (1 if consolidated else 2)
    assert [f"xum {i}" for i in range(XUM_TIMES)] == [x for x in lines if x.startswith("xum ")]
    assert sorted(x for x in lines if x.startswith("- window ")) == sorted(
        f"- window {i}" for i in range(WINDOW_SAVES)
    )
    assert sorted(x for x in lines if x.startswith("- cli ")) == sorted(
        f"- cli {i}" for i in range(CLI_CALLS)
    )
    entry = json.loads(home.meta_path.read_text())["entries"]["global:shared.md"]
    assert entry["xumCount"] == XUM_TIMES  # every use xum counted
    # and every write Memtab counted: one per save, per tool call, and the create
    assert entry["accessCount"] - entry["xumCount"] >= 1 + WINDOW_SAVES + CLI_CALLS


def _ok(status: int) -> None:
    if status != 0:
        raise ScopeBusyError(f"memtab tool exited with {status}")
