"""The window's start-up boundary: what is imported before the tree's first paint, and the
step that loads what comes right after it.

`memtab` without a command shows the Memory tab's tree as soon as it can: before that
first paint only the modules the import contract "first-paint" lets its sources reach are
imported (the parser, the store's reading side, the outline, the tree and the window and
Memory tab's frames; the test derives the list from the contract) but those
`REACHED_AFTER_FIRST_PAINT` names, at most `MODULES_BEFORE_FIRST_PAINT_MAX` of them, and,
for a home small enough to show its first full scan at once,
`FIRST_SCAN_BEFORE_FIRST_PAINT` (that scan's readers, loaded by its worker); no library but
those in `LIBRARIES_BEFORE_FIRST_PAINT`, and none of `NEVER_BEFORE_FIRST_PAINT`
(tests/gui/test_startup_boundary.py starts the window and compares). A new import on that
path passes the budget only when it is raised here on purpose, with what it costs the start
(measure it: `python -X importtime`, or tests/bench/test_startup_bench.py). Two costs hide
in a module's top level: a Qt class imported by name builds all its Python enum types
(`QT_CLASSES_NEVER_BEFORE_FIRST_PAINT` lists those the first paint never needs), and a
dataclass is made by writing and compiling its methods (~3.4 M instructions each): the
modules on the path keep their records as NamedTuples or slotted classes (the test holds
every module of a big home's start to it). A NamedTuple's class costs ~0.67 M to make (its
`__new__` is compiled from a string), a slotted class with its `__init__` ~0.1 M: a record
never used as a tuple (unpacked, indexed, compared, hashed, `_replace`d) is a slotted
class. A NamedTuple compiles each of its annotations that is a string into a `ForwardRef`
as its module loads (~10 µs a field): a module on the path whose annotations' names all
exist when it loads does without `from __future__ import annotations`, and
`STRING_FIELDS_BEFORE_FIRST_PAINT_MAX` caps the fields left.

This package (`memtab.gui.first_paint`) and all it imports is held statically by that
contract (imports inside functions and for annotations count there). After the paint,
`MemoryTab.assemble()` (the three start-up steps are in `gui/first_paint/memory_tab.py`'s
docstring) has the window run its features' list, which the window takes from the one step
after the paint, `SETTLED_STEP`, imported by name with `settled_step()`: that list starts
the log's rotation, hands rows' backgrounds to the widget style (`memtab.gui.toolkit.paint`)
and builds the Memory tab's controller with its parts and the window's other features.
Whatever only the window's later life needs is imported there, never by a module of this
package.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# What the start may import before its tree first paints is what the import contract
# "first-paint" (pyproject.toml) lets its sources reach: the test derives that list from the
# contract (tests/support/first_paint_contract.py), so it is kept nowhere by hand. What is
# kept here is what the contract cannot say: how many of memtab's modules the outline's start
# loads at most (a new import on the path raises it on purpose, with what it costs the start:
# `python -X importtime`, tests/bench/test_startup_bench.py), and the modules the contract
# reaches that the start imports later (inside a function or for annotations). 117: the
# workspace picker's rows (components.tree.workspace_rows), code the paint ran already, now
# in a module of its own out of the Qt widget's; the job service's Qt-free rules
# (components/jobs.py, split from gui/tasks/runner.py and jobs.py, which the start
# already loads; ~0.2 ms of class building). 118: the walk of a scope (store/scope_walk.py,
# split from store/files.py at 598 lines; its importing +2.6 M instructions, the outline's
# walk 4.5 M fewer: callgrind). 119: the base that gives the start's slotted records their
# repr (fs/slotted.py; 0.09 ms to import, 0.19 ms with its lookup: -X importtime). 120:
# the one rule for private files (fs/private.py: the log is opened 0600 and the description
# cache the first scan reads made private before the paint, issue 70; 0.21 ms to import,
# -X importtime, its bytecode compiled). 121: the one way a record is read
# (fs/records/reading.py), out of fs/records/compiler.py with the generated readers gone:
# importing fs.records 118.8 → 117.5 M instructions, the start to the tree's first paint the
# same (callgrind; docs/performance.md "Records"). 122: this machine's name for a lock's holder
# file (fs/host.py, `os` alone: 0.19–0.28 ms to import, -X importtime), imported at the lock
# module's top rather than by its first lock (issue 75: imports back at the top).
MODULES_BEFORE_FIRST_PAINT_MAX = 122

# The NamedTuples' fields annotated with a string that the start compiles before its
# first paint (see the module docstring). 17: the registry's records and NamedTuples are
# evaluated as it loads (its records read their types before the paint anyway); the records
# of fs/locking/lease_lock.py, components/window/phases.py and gui/actions.py (whose
# annotations name Qt's enums, which cost more evaluated: +6.3 M) are slotted classes;
# left: fields naming what is imported after the paint (`TYPE_CHECKING`) or a class
# defined later (components/tree/nodes.py, components/tree/scan.py, store/paths.py, …).
STRING_FIELDS_BEFORE_FIRST_PAINT_MAX = 17

# Reached by the contract, imported after the paint: settings' file and other agents'
# sources once scanned, the desktop's file manager and the crash dialog when asked, the
# file channel with the first file operation, leftovers with the doctor's look, this
# machine's name with the first long lock's holder.
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

# What a small home's first scan (the full scan, `components.tree.full_scan`) imports on its
# worker before the tree's first paint, which shows that scan; a big home's outline
# paints before any of them is loaded (they cost the start ~24M instructions, ~2%, when
# the consolidation journal's records were five dataclasses; they are records now). The
# runs of one scope alone (`scope_runs`, the footer's lines with the journal's) add one
# record: 0.64 ms of import on that worker (python -X importtime, three runs, load ~8).
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

# Libraries the first paint never waits for: each costs the start milliseconds (pydantic
# ~100, httpx2 ~40, yaml ~15, logging.handlers ~7, watchdog ~10, OpenSSL's hashes ~3) and
# is loaded by the step after the paint, a worker thread, or the feature that uses it.
NEVER_BEFORE_FIRST_PAINT = (
    "pydantic",
    "pydantic_core",
    "httpx2",
    "yaml",
    "watchdog",
    "filelock",
    "logging.handlers",
    "_hashlib",  # OpenSSL's hashes: the window's process uses Python's own (`memtab.launch`)
    "secrets",  # with hmac ~3.3 M instructions: temp names and ids are `os.urandom(n).hex()`
    "hmac",
    "multiprocessing",
    "sqlite3",
    "tantivy",  # the search engine: ~28 ms and ~7 MiB, loaded by the first search
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
    time the window runs its features' list (`WINDOW_FEATURES`: the Memory tab assembled,
    or an error it shows before)."""
    return importlib.import_module(SETTLED_STEP)
