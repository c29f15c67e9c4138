"""The window's start-up boundary: what is imported before the tree's first paint, and the
step that loads what comes right after it.

`memtab` without a command shows the Memory tab's tree as soon as it can: before that
first paint only the modules in `BEFORE_FIRST_PAINT` are imported (the parser, the
store's reading side, the outline, the tree and the window frame) and, for a home small
enough to show its first full scan at once, `FIRST_SCAN_BEFORE_FIRST_PAINT` (that scan's
readers, loaded by its worker), no library but those in
`LIBRARIES_BEFORE_FIRST_PAINT`, and none of `NEVER_BEFORE_FIRST_PAINT`
(tests/gui/test_startup_boundary.py starts the window and compares). A new import on
that path — a module-level import in one of these modules — fails the test until it is
added here on purpose, with what it costs the start (measure it: `python -X importtime`,
or tests/bench/test_startup_bench.py). Two costs hide in a module's top level: a Qt class
imported by name builds all its Python enum types (`QT_CLASSES_NEVER_BEFORE_FIRST_PAINT`
lists those the first paint never needs), and a dataclass is made by writing and compiling
its methods (~3–6 M instructions each): the window's own modules on the path (`memtab.gui`)
keep their records as NamedTuples (the test holds them to it).

This package (`memtab.gui.first_paint`) and all it imports is held statically too, by the
import contract "first-paint" in pyproject.toml (imports inside functions and for
annotations count there). After the paint, `MemoryTab.assemble()` (the three start-up
steps are in `gui/first_paint/memory_tab.py`'s docstring) imports the one step after it,
`SETTLED_STEP`, by name with `settled_step()`: that module starts the log's rotation,
hands rows' backgrounds to the widget style (`memtab.gui.toolkit.paint`) and builds the tab's
parts and the window's features. Whatever only the window's later life needs is
imported there, never by a module of this package.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# memtab's modules a window imports before its tree first paints (with a home over
# `components.tree.scan.OUTLINE_MIN_FILES` files: an outline; under it, the first scan).
BEFORE_FIRST_PAINT = frozenset(
    {
        "memtab",
        # the command line: its parser and options, the log (a plain file until rotating)
        "memtab.cli",
        "memtab.cli.main",
        "memtab.cli.options",
        "memtab.invocation",
        "memtab.launch",
        "memtab.logs",
        "memtab.resources",
        "memtab.humanize",
        # the floor: atomic files, locks, sidecars, the config dir
        "memtab.fs",
        "memtab.fs.atomic",
        "memtab.fs.clock",
        "memtab.fs.config",
        "memtab.fs.config.config_dir",
        "memtab.fs.confined",
        "memtab.fs.jsonfile",
        "memtab.fs.lazy_re",
        # the one codec (stdlib only, ~5 ms at rest): lock holders, the sidecars' records;
        # a class's reader is compiled by its first read
        "memtab.fs.record_codec",
        "memtab.fs.record_compiler",
        "memtab.fs.record_markers",
        "memtab.fs.record_output",
        "memtab.fs.records",
        "memtab.fs.locking",
        "memtab.fs.locking.lease_lock",  # xum's lock files, taken by memory-meta.json's writes
        "memtab.fs.locking.locks",
        "memtab.fs.sidecar",
        "memtab.fs.terminal_text",  # the CLI's error line (two small patterns)
        "memtab.fs.user_files",  # --screenshot FILE is written through it (no imports of its own)
        # the store's reading side, the scan reads through (`store.scopes.scope_view`): not its
        # writing side (NEVER_BEFORE_FIRST_PAINT)
        "memtab.store",
        "memtab.store.actors",  # the badges name their actors (one dict, no imports)
        "memtab.store.conflict_copies",
        "memtab.store.description_cache",
        "memtab.store.errors",
        "memtab.store.files",
        "memtab.store.text",
        "memtab.store.text.frontmatter",
        "memtab.markdown",  # the one line classifier: titles (stdlib only)
        "memtab.store.home",
        "memtab.store.sidecars",
        "memtab.store.sidecars.meta",
        "memtab.store.notebook_owner",  # the registry resolves whose notebook (stdlib only)
        "memtab.store.xum_notes",  # the tree names adopted notes and checkpoints (stdlib only)
        "memtab.store.paths",
        "memtab.store.sidecars.registry",
        "memtab.store.scopes",
        "memtab.store.scopes.scope_view",
        "memtab.store.xum_locks",  # paths and hashes only, ~1 ms (store.sidecars.meta's writes)
        "memtab.loads",
        "memtab.loads.limits",  # xum's hot-set limits: the tree marks a pinned file past them
        "memtab.file_protocol",
        "memtab.file_protocol.file_ref",
        # the scan and the tree it builds, Qt-free
        "memtab.components",
        "memtab.components.activity",
        "memtab.components.activity.badges",
        "memtab.components.activity.change_batch",  # the context's classified batches (stdlib)
        "memtab.components.activity.own_writes",
        "memtab.components.cancel",
        "memtab.components.glossary",
        "memtab.components.search",
        "memtab.components.search.highlight",
        "memtab.components.tree",
        "memtab.components.tree.marks",
        "memtab.components.tree.nodes",
        "memtab.components.tree.scan",
        "memtab.components.tree.scan_steps",  # what each scan the tab shows fans out to
        "memtab.components.tree.text",
        "memtab.components.tree.tree",
        "memtab.components.window",
        "memtab.components.window.phases",  # the window runs its features by phase (stdlib)
        # this package: the start, the window's and the Memory tab's frames
        "memtab.gui.first_paint",
        "memtab.gui.first_paint.app",
        "memtab.gui.first_paint.boundary",
        "memtab.gui.first_paint.geometry",
        "memtab.gui.first_paint.main_window",
        "memtab.gui.first_paint.memory_tab",
        "memtab.gui.first_paint.status_bar",
        # the tree and what the frames are made with
        "memtab.gui",
        "memtab.gui.actions",
        "memtab.gui.activity",
        "memtab.gui.activity.watch",
        "memtab.gui.consolidation",
        "memtab.gui.consolidation.lazy",
        "memtab.gui.context",
        "memtab.gui.memory_tab",
        "memtab.gui.memory_tab.layout",
        "memtab.gui.memory_tab.overlay",
        "memtab.gui.memory_tab.panes",
        "memtab.gui.memory_tab.workspace_picker",
        "memtab.gui.tasks",
        "memtab.gui.tasks.runner",
        "memtab.gui.tasks.scan",
        "memtab.gui.tree",
        "memtab.gui.tree.fill",
        "memtab.gui.tree.reconcile",
        "memtab.gui.tree.model",
        "memtab.gui.tree.rows",
        "memtab.gui.tree.scan_scheduler",
        "memtab.gui.tree.view",
        "memtab.gui.toolkit",
        "memtab.gui.toolkit.clock",
        "memtab.gui.toolkit.crash_reports",
        "memtab.gui.toolkit.icons",
        "memtab.gui.toolkit.paint",
        "memtab.gui.toolkit.screen_room",  # two QtCore sizes: the window's room on its screen
        "memtab.gui.toolkit.style",
        "memtab.gui.toolkit.ui_state",
        "memtab.gui.toolkit.widgets",
    }
)

# What a small home's first scan (the full scan, `components.tree.full_scan`) imports on its
# worker before the tree's first paint, which shows that scan; a big home's outline
# paints before any of them is loaded (they cost the start ~24M instructions, ~2%: the
# consolidation journal's records are five dataclasses).
FIRST_SCAN_BEFORE_FIRST_PAINT = frozenset(
    {
        "memtab.components.tree.full_scan",
        "memtab.store.text.free_text",
        "memtab.store.sidecars.journal",
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

# Libraries the first paint never waits for: each costs the start milliseconds (pydantic
# ~100, httpx ~60, yaml ~15, logging.handlers ~7, watchdog ~10, OpenSSL's hashes ~3) and
# is loaded by the step after the paint, a worker thread, or the feature that uses it.
NEVER_BEFORE_FIRST_PAINT = (
    "pydantic",
    "pydantic_core",
    "httpx",
    "yaml",
    "watchdog",
    "filelock",
    "logging.handlers",
    "_hashlib",  # OpenSSL's hashes: the window's process uses Python's own (`memtab.launch`)
    "multiprocessing",
    "sqlite3",
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

# Qt classes Python never touches before the first paint. PySide builds all of a class's
# Python enum types the first time Python uses the class (its name imported, an object of
# it handed over), in millions of instructions: QStyle's 20 ~48 M (~9 ms), QGradient's
# ~13 M (`QPainter.fillRect` and `QBrush(…)` build them resolving their overloads; the
# row painters do without both: `memtab.gui.toolkit.paint`), the dialogs' and actions' ~30 M
# together (QMessageBox ~6, QKeySequence ~6, QDialogButtonBox ~4, QFileDialog ~4,
# QFontDatabase ~3, QAction ~2: modules on the path name them through `QtGui` or
# `QtWidgets`, or are loaded with their dialog).
QT_CLASSES_NEVER_BEFORE_FIRST_PAINT = (
    "QStyle",
    "QGradient",
    "QMessageBox",
    "QKeySequence",
    "QDialogButtonBox",
    "QFileDialog",
    "QFontDatabase",
    "QAction",
)


# The one step after the paint: the module that imports the settled window's features. It
# is imported by name, here only, so nothing in this package imports it (the contract
# "first-paint" in pyproject.toml holds the package to that).
SETTLED_STEP = "memtab.gui.window.features"


def settled_step() -> ModuleType:
    """The step after the first paint (`memtab.gui.window.features`), imported the first
    time the Memory tab is assembled; its functions build the settled window."""
    return importlib.import_module(SETTLED_STEP)
