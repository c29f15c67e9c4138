"""The window's start-up boundary: what may be imported before the tree's first paint (the
"first-paint" contract, within the budgets below: tests/gui/test_startup_boundary.py), and
`settled_step()`, the one step after it. Modules on that path use slotted classes or
NamedTuples, not dataclasses, and name enum-heavy Qt classes through `QtGui`/`QtWidgets`.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Callable
from types import ModuleType

# How many of memtab's modules the outline's start loads at most (the list itself is the
# contract's: tests/support/first_paint_contract.py).
MODULES_BEFORE_FIRST_PAINT_MAX = 122

# The NamedTuples' fields annotated with a string that the start compiles into a ForwardRef
# before its first paint: fields naming what is imported after it or a class defined later.
STRING_FIELDS_BEFORE_FIRST_PAINT_MAX = 17

# Reached by the contract, imported after the paint (when scanned, asked or first used).
REACHED_AFTER_FIRST_PAINT = frozenset(
    {
        "memtab.components.window.mnemonics",  # dialog_layout's
        "memtab.fs.config.settings_file",
        "memtab.gui.tasks.file_channel",
        "memtab.gui.toolkit.crash_dialog",
        "memtab.gui.toolkit.dialog_layout",
        "memtab.gui.toolkit.keyboard_return",
        "memtab.sources",
        "memtab.sources.config",
    }
)

# What a small home's first scan (`components.tree.full_scan`) imports on its worker before
# the first paint shows it; a big home's outline paints before any of them is loaded.
FIRST_SCAN_BEFORE_FIRST_PAINT = frozenset(
    {
        "memtab.components.tree.full_scan",
        "memtab.store.text.free_text",
        "memtab.store.sidecars.journal",
        "memtab.store.sidecars.scope_runs",
    }
)

# The only libraries (not the standard library's) imported before the first paint: Qt's
# bindings (and the modules they make at start) and platformdirs (the config and log dirs).
LIBRARIES_BEFORE_FIRST_PAINT = frozenset(
    {
        "PySide6",
        "shiboken6",
        "shibokensupport",
        "signature_bootstrap",
        "__feature__",
        "platformdirs",
    }
)

# Libraries the first paint never waits for (each costs the start milliseconds): loaded by
# the step after the paint, a worker thread, or the feature that uses it.
NEVER_BEFORE_FIRST_PAINT = (
    "pydantic",
    "pydantic_core",
    "httpx2",
    "yaml",
    "watchdog",
    "filelock",
    "logging.handlers",
    "_hashlib",  # OpenSSL's hashes: the window's process uses Python's own (`memtab.launch`)
    "secrets",  # with hmac: temp names and ids are `os.urandom(n).hex()`
    "signal",  # its three enums: the MCP bridge's and Ctrl+C's, after the paint
    "hmac",
    "multiprocessing",
    "sqlite3",
    "tantivy",  # the search engine, loaded by the first search
    "memtab.demo",
    "memtab.cli.common",
    "memtab.consolidation",
    "memtab.writer",
    "memtab.llm",
    "memtab.check",
    "memtab.gui.editor",
    # the store's writing side: history, the scope locks and changes, the files opened to
    # change them (`MemoryStore` and `MemoryStore.of(view)` are made after the paint)
    "memtab.store.history",
    "memtab.store.scopes.memory",
    "memtab.store.scopes.scope_store",
    "memtab.store.scopes.scope_access",
    "memtab.sources.model",  # what sources are: the first scan with sources loads it
    "memtab.file_protocol.memory_file",
    "memtab.sources.open_file",
    "memtab.components.files",
)

# Qt classes Python never touches before the first paint (PySide builds all of a class's
# enum types when Python first uses it): modules on the path name them through `QtGui` or
# `QtWidgets`.
QT_CLASSES_NEVER_BEFORE_FIRST_PAINT = (
    "QStyle",
    "QGradient",
    "QMessageBox",
    "QKeySequence",
    "QDialogButtonBox",
    "QFileDialog",
    "QFontDatabase",
    "QAction",
    "QDialog",
    "QDockWidget",
    "QItemSelection",
    "QItemSelectionModel",
)


# The one step after the paint, imported by name here only (the contract "first-paint"
# holds this package to never importing it).
SETTLED_STEP = "memtab.gui.window.features"


class _Loading:
    """The worker thread importing the step after the paint, while it runs."""

    thread: threading.Thread | None = None


def settled_step() -> ModuleType:
    """The step after the first paint (`memtab.gui.window.features`), imported the first
    time the window runs its features' list (`WINDOW_FEATURES`: the Memory tab assembled,
    or an error it shows before); once `load_settled_step`'s import has ended, if it runs."""
    loading = _Loading.thread
    if loading is not None and loading is not threading.current_thread():
        loading.join()  # never two threads importing its modules at once
    return importlib.import_module(SETTLED_STEP)


def load_settled_step(done: Callable[[], object]) -> None:
    """Import the step after the paint on a worker thread, then call `done` there (a signal's
    `emit`: queued to the GUI thread). Its ~340 modules are 1–2 s of CPU during which the GUI
    thread would take no key, scroll or paint; on the worker it gives the interpreter back
    every millisecond (`app.prefer_the_gui_thread`)."""
    if SETTLED_STEP in sys.modules or _Loading.thread is not None:
        done()
        return

    def load() -> None:
        # An import that fails here fails again, and is reported, on the GUI thread.
        with contextlib.suppress(Exception):
            importlib.import_module(SETTLED_STEP)
        with contextlib.suppress(RuntimeError):  # its window was closed (and deleted) meanwhile
            done()

    _Loading.thread = threading.Thread(target=load, name="settled-step-import", daemon=True)
    _Loading.thread.start()
