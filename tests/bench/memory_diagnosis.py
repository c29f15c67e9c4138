"""Where the settled window's memory goes: a diagnosis to run by hand, not a benchmark.

Run: .venv/bin/python -m bench.memory_diagnosis [--traced] [--no-check] [HOME]
(from `tests/`, or with `PYTHONPATH=tests`).

Starts `memtab` on a home of 3 × 1000 files (`bench.homes.HOME_3K`, built in HOME, by
default /tmp/memtab-diagnosis-home, and started once so its history is recorded and
its bytecode compiled, as the startup bench does) and prints, at each of `MOMENTS`
seconds after the start: VmRSS, how many modules are loaded and which ones were loaded
since the last moment, where the resident memory is (`/proc/self/smaps`: Python's 1 MiB
object arenas, the C heap, other anonymous memory, mapped files), the objects the garbage
collector tracks by type (the types whose count changed most; the window freezes what it
made at its start, `gc.freeze()`: the report unfreezes it first), and with `--traced` the
Python allocations (tracemalloc, one frame) by file that grew most. At the last moment it
also says what glibc's `malloc_trim(0)` would give back then. The report's own
work (counting every object, tracemalloc's bookkeeping) adds to VmRSS: the bench's
`test_resident_memory_once_loaded` gives the figures; this says where they come from.

What it showed (23 Nov, 3,000 files): the settled window with the check was ~1.3 MiB over
the one without, all of it in Python's arenas; what the check's engine kept was ~2 MiB
(its documents), then ~0.4; and a `malloc_trim(0)` 10 s after the start still gave back
~0.9 MiB the trim at the end of the first check had not (see `gui/check/feature.py`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.floors import child_environment
from bench.homes import HOME_3K, build_home

MOMENTS = (3.0, 8.0, 16.0)
"""Seconds after the start: loaded (the paint with every description), settled, later."""

# The child: memtab as `memtab` starts it, with a thread that reports at each moment.
# The report goes to stdout as one JSON line per moment.
_CHILD = """
import collections, gc, json, sys, threading, time, tracemalloc
TRACED = {traced}
CHECK = {check}
MOMENTS = {moments}
if TRACED:
    tracemalloc.start(1)
from memtab import launch
launch.use_builtin_hashes()
if not CHECK:
    import functools
    from memtab.gui.first_paint import app
    app.create_main_window = functools.partial(app.create_main_window, start_check=False)

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def resident():
    kinds = collections.Counter()
    kind = ""
    for line in open("/proc/self/smaps"):
        words = line.split()
        if not words[0].endswith(":"):
            low, high = (int(end, 16) for end in words[0].split("-"))
            name = words[5] if len(words) > 5 else ""
            if name.startswith("/"):
                kind = "files"
            elif name:
                kind = name  # [heap], [stack]…
            else:
                kind = "arenas" if high - low == 1 << 20 else "anonymous"
        elif words[0] == "Rss:":
            kinds[kind] += int(words[1]) / 1024
    return dict(kinds)

def trimmed():
    import ctypes
    before = rss()
    ctypes.CDLL(None).malloc_trim(0)
    return before - rss()

def report():
    started = time.monotonic()
    for moment in MOMENTS:
        time.sleep(max(0.0, moment - (time.monotonic() - started)))
        gc.unfreeze()
        types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
        files = {{}}
        if TRACED:
            for stat in tracemalloc.take_snapshot().statistics("filename"):
                files[stat.traceback[0].filename] = stat.size
        line = {{"at": moment, "rss": rss(), "modules": sorted(sys.modules),
                 "types": dict(types), "files": files, "resident": resident()}}
        if moment == MOMENTS[-1]:
            line["trimmed"] = trimmed()
        print(json.dumps(line), flush=True)
    import os, signal
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=report, daemon=True).start()
sys.argv[1:] = ["--home", {home!r}]
sys.exit(launch.main())
"""


def _grown(before: dict[str, int], after: dict[str, int], top: int) -> list[tuple[str, int]]:
    change = {key: after.get(key, 0) - before.get(key, 0) for key in {*before, *after}}
    return sorted(change.items(), key=lambda item: -abs(item[1]))[:top]


def main(argv: list[str]) -> int:
    traced = "--traced" in argv
    check = "--no-check" not in argv
    rest = [word for word in argv if not word.startswith("--")]
    root = Path(rest[0]) if rest else Path(tempfile.gettempdir()) / "memtab-diagnosis-home"
    env = child_environment(root.parent / f"{root.name}-pycache")
    if not root.exists():
        build_home(root, HOME_3K)
        first = _CHILD.format(traced=False, check=True, moments=(8.0,), home=str(root))
        subprocess.run([sys.executable, "-c", first], env=env, capture_output=True, check=False)
    child = _CHILD.format(traced=traced, check=check, moments=MOMENTS, home=str(root))
    result = subprocess.run(
        [sys.executable, "-c", child], env=env, capture_output=True, text=True, check=False
    )
    moments = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    if not moments:
        print(result.stderr[-3000:])
        return 1
    previous: dict[str, object] = {"modules": [], "types": {}, "files": {}}
    for moment in moments:
        new = sorted(set(moment["modules"]) - set(previous["modules"]))  # type: ignore[arg-type]
        print(
            f"\n== {moment['at']:.0f} s: VmRSS {moment['rss']:.1f} MiB, "
            f"{len(moment['modules'])} modules ({len(new)} new)"
        )
        where = sorted(moment["resident"].items(), key=lambda item: -item[1])  # type: ignore[attr-defined]
        print("   resident:", ", ".join(f"{kind} {mib:.1f}" for kind, mib in where), "MiB")
        if "trimmed" in moment:
            print(f"   malloc_trim(0) now gives back {moment['trimmed']:.2f} MiB")
        if previous["modules"]:
            print("   new modules:", " ".join(new))
        print("   gc objects by type (change):")
        for name, count in _grown(previous["types"], moment["types"], 25):  # type: ignore[arg-type]
            print(f"     {count:+8d}  {name}")
        if traced:
            total = sum(moment["files"].values()) / 2**20
            print(f"   traced: {total:.2f} MiB; by file (change, KiB):")
            for name, size in _grown(previous["files"], moment["files"], 30):  # type: ignore[arg-type]
                print(f"     {size / 1024:+9.1f}  {name}")
        previous = moment
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
