"""pydantic's first import, from several threads at once, in a window's process.

In the window, pydantic is imported late by whichever worker first needs it (the Traces
tab's scan, the writer's settings, a memory-tool call) while other threads import too.
Before the fix about one window start in three said "Could not list the trace dumps:
ImportError … partially initialized module 'pydantic…'": PySide6's `__feature__` import
hook swaps `builtins.__import__` process-wide while it inspects each new module, so one
thread could put it back while another was inside pydantic's first import, which then
imported itself half-initialized.

The probe starts like the window (Qt and the GUI package first), then repeats a start-up's
imports many times: the models from five threads and the other workers' modules from
three more, each trial back to the state of a fresh start (the modules imported since,
Qt's record of them, the import function). Module execution is slowed a little so the
threads overlap as they do on a busy machine. Before the fix about one trial in seven
failed.
"""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import memtab

pytestmark = pytest.mark.slow

PROCESSES = 2
TRIALS = 15  # per process
MODEL_MODULES = (
    "memtab.traces.schema",
    "memtab.traces.lenient",
    "memtab.store.scopes.tool_args",
)
# What else the window's threads import meanwhile: the Traces tab's scan, the
# consolidation engine preload, the writer.
OTHER_IMPORTS = (
    ("memtab.traces.catalog", "memtab.traces.reader"),
    ("memtab.consolidation.service", "memtab.consolidation.job"),
    ("memtab.writer.job.service",),
)

_PROBE = """
import builtins, importlib, importlib.machinery, random, sys, threading, time

import memtab.gui.first_paint.app  # as the window starts: Qt and the GUI package first

_exec = importlib.machinery.SourceFileLoader.exec_module

def slowed(loader, module):
    if module.__name__.startswith(("pydantic", "importlib", "email")):
        time.sleep(random.uniform(0, 0.003))
    return _exec(loader, module)

importlib.machinery.SourceFileLoader.exec_module = slowed
sys.setswitchinterval(0.001)  # as `create_main_window` sets it
fresh_start_import = builtins.__import__
import pydantic_core  # a compiled module is initialized once per process: it stays
fresh_start_modules = set(sys.modules)

def back_to_a_fresh_start():
    for name in set(sys.modules) - fresh_start_modules:
        del sys.modules[name]
    feature = sys.modules.get("__feature__")  # Qt's record of the modules it inspected
    if feature is not None:
        for name in set(feature.pyside_feature_dict) - fresh_start_modules:
            del feature.pyside_feature_dict[name]
    builtins.__import__ = fresh_start_import

def load(names, delay, errors):
    time.sleep(delay)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:
            errors.append(f"{name}: {type(error).__name__}: {error}")

failures = []
for trial in range(TRIALS):
    errors = []
    groups = [(name,) for name in MODULES] + [tuple(group) for group in OTHERS]
    threads = [
        threading.Thread(target=load, args=(group, random.uniform(0, 0.03), errors))
        for group in groups
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failures += errors[:1]
    back_to_a_fresh_start()
print("\\n".join(failures))
sys.exit(1 if failures else 0)
"""


def _one_process(_: int) -> list[str]:
    script = f"MODULES = {MODEL_MODULES!r}\nOTHERS = {OTHER_IMPORTS!r}\nTRIALS = {TRIALS}\n{_PROBE}"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=240, check=False
    )
    if result.returncode == 0:
        return []
    return (result.stdout + result.stderr).strip().splitlines() or [f"exit {result.returncode}"]


def test_the_models_import_from_many_threads_at_once() -> None:
    with ThreadPoolExecutor(max_workers=PROCESSES) as pool:
        failures = [line for lines in pool.map(_one_process, range(PROCESSES)) for line in lines]
    assert not failures, f"{len(failures)} of {PROCESSES * TRIALS} trials failed:\n{failures[0]}"


# Parsing every module allocates enough to run the cycle collector, which may free Qt
# objects earlier GUI tests left; their handlers' errors are theirs, not this test's.
@pytest.mark.qt_no_exception_capture
def test_pydantic_is_imported_only_through_the_one_helper() -> None:
    """Every module takes pydantic's names from `memtab.fs.pydantic_once`, so its first
    import always happens there, once."""
    package = Path(memtab.__file__).parent
    helper = package / "fs" / "pydantic_once.py"
    direct = []
    for path in sorted(package.rglob("*.py")):
        if path == helper:
            continue
        for node in ast.walk(_parse(path)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            if any(name.split(".")[0] in ("pydantic", "annotated_types") for name in names):
                direct.append(f"{path.relative_to(package)}:{node.lineno}")
    assert direct == []


def _parse(path: Path) -> ast.Module:
    """`path`'s syntax tree, built with the cycle collector off: in a long test run a
    collection while CPython 3.11 builds the tree can run finalizers (Qt objects of
    earlier tests) inside it, which it reports as "SystemError: AST constructor recursion
    depth mismatch"."""
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    finally:
        gc.enable()
