"""The window's start-up boundary (`memtab.gui.first_paint.boundary`): `memtab` imports only
the modules the first paint needs before its tree paints, and loses no log record by
rotating the log only after it.

Each test starts `memtab --screenshot` in a child process, as a user's start (the command
line, the log, the window, a home over and under the outline's size), and records
`sys.modules`, the Qt classes Python has used and the log's handlers at the tree's first
paint.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.homes import HomeShape, build_home, note, relative, scope_roots
from memtab.components.tree.scan import OUTLINE_MIN_FILES
from memtab.gui.first_paint.boundary import (
    FIRST_SCAN_BEFORE_FIRST_PAINT,
    LIBRARIES_BEFORE_FIRST_PAINT,
    MODULES_BEFORE_FIRST_PAINT_MAX,
    NEVER_BEFORE_FIRST_PAINT,
    QT_CLASSES_NEVER_BEFORE_FIRST_PAINT,
    REACHED_AFTER_FIRST_PAINT,
    STRING_FIELDS_BEFORE_FIRST_PAINT_MAX,
)
from memtab.store.home import Home
from support.first_paint_contract import first_paint_reach
from support.memory_home import make_home

# Each start is a process under measure (several seconds): not in `make test-fast`.
pytestmark = pytest.mark.slow

# At the tree's first paint: the modules imported and the log's handlers (memtab's own);
# at exit: the handlers again.
PROBE = """
import sys
record = ["interpreter-module " + name for name in sorted(sys.modules)]  # site's, not memtab's
import importlib.util, logging, typing
from PySide6.QtCore import QEvent, QObject

out_path, argv = sys.argv[1], sys.argv[2:]


def handlers():
    own = [h for h in logging.getLogger().handlers if getattr(h, "_memtab", False)]
    return ",".join(type(handler).__name__ for handler in own)


class FirstTreePaint(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.viewport = window.memory_tab.tree.viewport()
        window.memory_tab.tree_ready.connect(self.arm)

    def arm(self):
        self.viewport.installEventFilter(self)
        self.viewport.update()

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            self.viewport.removeEventFilter(self)
            record.append("paint-handlers " + handlers())
            loaded = [name for name, module in list(sys.modules.items()) if module is not None]
            record.extend("module " + name for name in sorted(loaded))
            for qt_module in ("QtCore", "QtGui", "QtWidgets"):  # its classes Python has used
                classes = vars(sys.modules["PySide6." + qt_module])
                record.extend("qt-class " + name for name in sorted(classes))
            for name in sorted(loaded):  # dataclasses the window's own modules made
                for value in list(vars(sys.modules[name]).values()):
                    own = getattr(value, "__module__", None) == name
                    if own and isinstance(value, type) and "__dataclass_fields__" in vars(value):
                        record.append(f"dataclass {name}.{value.__qualname__}")
                    if own and isinstance(value, type) and issubclass(value, tuple):
                        for field, kind in vars(value).get("__annotations__", {}).items():
                            if isinstance(kind, typing.ForwardRef):  # compiled at import
                                record.append(f"string-field {name}.{value.__qualname__}.{field}")
        return False


class WatchTheWindow:
    # Wraps app.create_main_window once `memtab` imports it, so this probe imports
    # nothing of memtab before `memtab.launch` has started as a user's start does.
    def find_spec(self, name, path=None, target=None):
        if name != "memtab.gui.first_paint.app":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run_module = spec.loader.exec_module

        def run_and_wrap(module):
            run_module(module)
            create_main_window = module.create_main_window

            def watched_window(*args, **kwargs):
                window = create_main_window(*args, **kwargs)
                FirstTreePaint(window)
                return window

            module.create_main_window = watched_window

        spec.loader.exec_module = run_and_wrap
        return spec


class WhichThreadImports:
    # Notes the thread that imports the step after the paint (a finder that finds nothing).
    def find_spec(self, name, path=None, target=None):
        if name == "memtab.gui.window.features":
            import threading

            record.append("settled-step-thread " + threading.current_thread().name)
        return None


sys.meta_path.insert(0, WatchTheWindow())
sys.meta_path.insert(0, WhichThreadImports())
from memtab.launch import main

status = main(argv)
record.append("exit-handlers " + handlers())
logging.getLogger("memtab.probe").info("after the window")
with open(out_path, "w", encoding="utf-8") as out:
    out.write("\\n".join(record) + "\\n")
sys.exit(status)
"""


@dataclass(frozen=True)
class Start:
    """What a start of the window had done at its tree's first paint, and at exit."""

    modules: frozenset[str]
    qt_classes: frozenset[str]
    """The Qt classes Python had used (PySide makes a class's Python type on first use)."""
    dataclasses: frozenset[str]
    """The dataclasses of the imported modules (`module.Class`)."""
    string_fields: frozenset[str]
    """The NamedTuples' fields whose annotation is a string (`module.Class.field`)."""
    interpreter_modules: frozenset[str]
    """What the interpreter had imported before the probe ran (site, its .pth files)."""
    paint_handlers: str
    exit_handlers: str
    log: str
    settled_step_thread: str
    """The thread that imported the step after the paint (`boundary.SETTLED_STEP`)."""


def start_window(home: Home, tmp_path: Path) -> Start:
    """`memtab --home HOME --screenshot` with its config dir beside the home (the
    description cache's too) and its log in `tmp_path`."""
    out = tmp_path / "probe.txt"
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        MEMTAB_CONFIG_DIR=str(home.root.parent / "config"),
        MEMTAB_LOG_DIR=str(tmp_path / "log"),
    )
    command = ["--home", str(home.root), "--screenshot", str(tmp_path / "shot.png")]
    subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = out.read_text(encoding="utf-8").splitlines()
    fields = {line.split(" ", 1)[0]: line.partition(" ")[2] for line in lines}
    return Start(
        modules=frozenset(line.split(" ", 1)[1] for line in lines if line.startswith("module ")),
        qt_classes=frozenset(
            line.split(" ", 1)[1] for line in lines if line.startswith("qt-class ")
        ),
        dataclasses=frozenset(
            line.split(" ", 1)[1] for line in lines if line.startswith("dataclass ")
        ),
        string_fields=frozenset(
            line.split(" ", 1)[1] for line in lines if line.startswith("string-field ")
        ),
        interpreter_modules=frozenset(
            line.split(" ", 1)[1] for line in lines if line.startswith("interpreter-module ")
        ),
        paint_handlers=fields["paint-handlers"],
        exit_handlers=fields["exit-handlers"],
        log=(tmp_path / "log" / "memtab.log").read_text(encoding="utf-8"),
        settled_step_thread=fields.get("settled-step-thread", ""),
    )


def big_home(root: Path) -> Home:
    """A home the tree first shows as an outline. Its descriptions are plain: the first
    scan reads every file on its worker while the outline paints, and a folded description
    would make it import the YAML parser then, before or after the paint as it happens."""
    home = build_home(root, HomeShape(0, 0, 0))
    for scope_root in scope_roots(home):
        for index in range(OUTLINE_MIN_FILES // 3 + 1):
            path = scope_root.joinpath(*relative(index))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(note(index, f"Plain description {index}"), encoding="utf-8")
    return home


@dataclass(frozen=True)
class StartOn:
    """A start, and whether its tree first showed an outline."""

    start: Start
    outline: bool


@pytest.fixture(params=["outline", "first scan"])
def started(request: pytest.FixtureRequest, tmp_path: Path) -> StartOn:
    """A window started on a home its tree first shows as an outline (a big home), or
    with its first scan (a small one)."""
    if request.param == "outline":
        return StartOn(start_window(big_home(tmp_path / "big"), tmp_path), outline=True)
    return StartOn(start_window(make_home(tmp_path / "small"), tmp_path), outline=False)


def test_the_first_paint_contract_reaches_every_module_imported_before_the_paint(
    started: StartOn,
) -> None:
    """What the start imports is what the contract "first-paint" holds (a module imported
    by name, around the contract, fails), within the budget of modules the start loads."""
    imported = {name for name in started.start.modules if name.split(".")[0] == "memtab"}
    reached = first_paint_reach() | FIRST_SCAN_BEFORE_FIRST_PAINT
    unheld = sorted(imported - reached)
    assert not unheld, (
        f"imported before the tree's first paint, out of the contract's reach: {unheld} — "
        "import them by their name from a module of the contract's sources, or after the paint"
    )
    loaded = imported - (set() if started.outline else FIRST_SCAN_BEFORE_FIRST_PAINT)
    assert len(loaded) <= MODULES_BEFORE_FIRST_PAINT_MAX, (
        f"{len(loaded)} of memtab's modules imported before the tree's first paint, over "
        f"memtab.gui.first_paint.boundary.MODULES_BEFORE_FIRST_PAINT_MAX "
        f"({MODULES_BEFORE_FIRST_PAINT_MAX}): import them after the paint, or raise the budget "
        "on purpose, with what they cost the start (python -X importtime, the startup bench)"
    )
    heavy = sorted(
        name
        for name in started.start.modules
        if any(name == top or name.startswith(top + ".") for top in NEVER_BEFORE_FIRST_PAINT)
    )
    assert not heavy, f"imported before the tree's first paint: {heavy}"
    libraries = {
        name.split(".")[0] for name in started.start.modules - started.start.interpreter_modules
    } - set(sys.stdlib_module_names)
    unlisted_libraries = sorted(libraries - {"memtab"} - LIBRARIES_BEFORE_FIRST_PAINT)
    assert not unlisted_libraries, (
        "libraries imported before the tree's first paint but not in "
        f"memtab.gui.first_paint.boundary.LIBRARIES_BEFORE_FIRST_PAINT: {unlisted_libraries}"
    )


def test_the_step_after_the_paint_is_imported_off_the_gui_thread(started: StartOn) -> None:
    """Its ~340 modules took the GUI thread 1–2 s after the paint: a key or a scroll then
    waited for them (issue 97)."""
    assert started.start.settled_step_thread not in ("", "MainThread")


def test_the_first_paint_uses_no_qt_class_whose_enums_it_does_not_need(started: StartOn) -> None:
    assert "QTreeView" in started.start.qt_classes  # what the probe sees: the classes Python used
    used = sorted(set(QT_CLASSES_NEVER_BEFORE_FIRST_PAINT) & started.start.qt_classes)
    assert not used, (
        f"Python used {used} before the tree's first paint: building their Python enum types "
        "costs the start milliseconds "
        "(memtab.gui.first_paint.boundary.QT_CLASSES_NEVER_BEFORE_FIRST_PAINT)"
    )


def test_no_module_of_the_outline_makes_a_dataclass_before_the_first_paint(
    started: StartOn,
) -> None:
    """Before a big home's outline paints, no module makes a dataclass; before a small
    home's first scan paints, none of the window's own (its scan's readers, on the worker,
    make the journal's: the probe sees them)."""
    if not started.outline:
        assert started.start.dataclasses  # it sees them
    made = sorted(
        name
        for name in started.start.dataclasses
        if started.outline or name.startswith("memtab.gui.")
    )
    assert not made, (
        f"dataclasses made before the tree's first paint: {made} — a dataclass writes and "
        "compiles its methods when its module loads (~3–6 M instructions): a NamedTuple, "
        "or the class in a module loaded after the paint (memtab.gui.first_paint.boundary)"
    )


def test_the_records_compile_few_string_annotations_before_the_first_paint(
    started: StartOn,
) -> None:
    """typing.NamedTuple compiles each string annotation into a ForwardRef when its module
    loads: before the tree's first paint, at most the boundary's budget of them."""
    fields = sorted(started.start.string_fields)
    assert fields  # it sees them (the lazy names' fields)
    assert len(fields) <= STRING_FIELDS_BEFORE_FIRST_PAINT_MAX, (
        f"{len(fields)} string annotations of NamedTuples compiled before the tree's first "
        f"paint: {fields} — a module whose annotations' names all exist when it loads leaves "
        "out `from __future__ import annotations` (memtab.gui.first_paint.boundary)"
    )


def test_the_start_imports_all_the_contract_reaches_but_what_the_boundary_puts_after(
    started: StartOn,
) -> None:
    """The outline's start imports every module the contract reaches but those
    `REACHED_AFTER_FIRST_PAINT` names (and the first scan's readers), and none of those: the
    short lists say what the start does, no more; the first scan's start imports
    `FIRST_SCAN_BEFORE_FIRST_PAINT` too."""
    imported = {name for name in started.start.modules if name.split(".")[0] == "memtab"}
    assert not REACHED_AFTER_FIRST_PAINT & imported
    assert first_paint_reach() >= REACHED_AFTER_FIRST_PAINT
    if started.outline:
        expected = first_paint_reach() - REACHED_AFTER_FIRST_PAINT - FIRST_SCAN_BEFORE_FIRST_PAINT
        assert sorted(expected - imported) == [] and sorted(imported - expected) == []
    else:
        assert sorted(FIRST_SCAN_BEFORE_FIRST_PAINT - imported) == []


def test_the_log_is_a_plain_file_until_the_paint_and_rotates_after_keeping_every_record(
    started: StartOn,
) -> None:
    start = started.start
    assert start.paint_handlers == "PrivateFileHandler"
    assert start.exit_handlers == "SharedRotatingFileHandler"
    # Logged before the paint (by run_app), then through the rotating handler: one file.
    assert " opens " in start.log.splitlines()[0]
    assert "after the window" in start.log.splitlines()[-1]
