"""The floors Memtab's numbers are compared to, rebuilt and measured in the same run.

- `BARE_WINDOW`: a bare PySide6 program — a QApplication and a `QTreeWidget` of 3000
  rows, shown — that prints when its first paint happens and its peak resident memory
  (Linux: VmHWM, which unlike `ru_maxrss` does not count the forked parent's pages).
  Nothing an app showing a tree of 3000 files can do faster in Python.
- `InotifyFloor`: the file watcher's floor — from a write to the event reaching a
  watchdog handler on the observer thread (inotify on Linux, the same library and event
  filter Memtab's watcher uses), with no Qt in between.
- `SDK_FLOOR`: a Python importing what Memtab's MCP server imports of the SDK and
  answering an agent's first line (`INITIALIZE`, the request the MCP benchmarks send).

Processes are started exactly like Memtab's: the same interpreter, environment and
bytecode cache, and timed from just before the spawn.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from memtab.gui.activity.watch_observer import CHANGE_EVENTS

BARE_WINDOW_ROWS = 3000

BARE_WINDOW = f"""
import sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QTreeWidget, QTreeWidgetItem

app = QApplication(sys.argv)
tree = QTreeWidget()
tree.setHeaderHidden(True)
tree.addTopLevelItems([QTreeWidgetItem([f"note{{i:04d}}.md"]) for i in range({BARE_WINDOW_ROWS})])


class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            status = open("/proc/self/status").read().split("VmHWM:")[1]
            peak = int(status.split()[0]) / 1024
            cpu = time.process_time() * 1000
            line = f"floor-paint {{time.time():.6f}} peak-rss-mb {{peak:.1f}} cpu-ms {{cpu:.0f}}"
            print(line, flush=True)
            app.quit()
        return False


first_paint = FirstPaint()
tree.viewport().installEventFilter(first_paint)
tree.resize(1280, 820)
tree.show()
app.exec()
"""


def child_environment(pycache: Path) -> dict[str, str]:
    """The environment of every timed child: offscreen Qt, compiled bytecode kept in
    `pycache` (as an installed app has it), Memtab's timing lines on, and a config dir
    of the run's own beside it (the window state and description cache a user's earlier
    start left, never the machine's)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MEMTAB_TIMING="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["MEMTAB_CONFIG_DIR"] = str(pycache.parent / "memtab-config")
    return env


@dataclass(frozen=True)
class PaintSample:
    """One start of a program: ms from spawn to its first paint, its peak RSS in MiB, and
    the CPU time it had used by then (ms, every thread: what load elsewhere does not
    stretch)."""

    paint_ms: float
    peak_rss_mb: float
    cpu_ms: float


def run_bare_window(env: dict[str, str]) -> PaintSample:
    """Start the bare window once and time it."""
    started = time.time()
    result = subprocess.run(
        [sys.executable, "-c", BARE_WINDOW], capture_output=True, text=True, env=env, check=True
    )
    words = next(line for line in result.stdout.splitlines() if line.startswith("floor-paint"))
    fields = words.split()
    return PaintSample((float(fields[1]) - started) * 1000.0, float(fields[3]), float(fields[5]))


class _Arrivals(FileSystemEventHandler):
    """Observer thread: note when each path is reported by a move onto it or a create."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[str, float] = {}
        self.event = threading.Event()

    def on_any_event(self, event: FileSystemEvent) -> None:
        now = time.perf_counter()
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if raw:
                self.arrived.setdefault(os.fsdecode(raw), now)
        self.event.set()


class InotifyFloor:
    """Times writes from their start to a watchdog handler seeing the written path."""

    def __init__(self, handler: _Arrivals) -> None:
        self._handler = handler

    def latency_ms(
        self, target: Path, write: Callable[[], object], timeout_s: float = 5.0
    ) -> float:
        """Run `write` (which writes `target`) and return ms until `target` is reported."""
        key = str(target)
        self._handler.arrived.pop(key, None)
        started = time.perf_counter()
        write()
        deadline = started + timeout_s
        while key not in self._handler.arrived:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no event for {target}")
            self._handler.event.wait(0.001)
            self._handler.event.clear()
        return (self._handler.arrived[key] - started) * 1000.0


@contextmanager
def inotify_floor(root: Path) -> Iterator[InotifyFloor]:
    """Watch `root` recursively with watchdog's native observer while the block runs."""
    handler = _Arrivals()
    observer = Observer()
    observer.schedule(handler, str(root), recursive=True, event_filter=CHANGE_EVENTS)
    observer.start()
    try:
        yield InotifyFloor(handler)
    finally:
        observer.stop()
        observer.join(5.0)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}

# What `memtab/agent_server/serving/server.py` imports of the SDK, and an answer once it has.
SDK_FLOOR = """
import sys
import anyio, mcp_types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
sys.stdin.readline()
sys.stdout.write('{"jsonrpc": "2.0", "id": 1, "result": {}}\\n')
sys.stdout.flush()
sys.stdin.read()
"""
