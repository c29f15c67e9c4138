"""The versions Memtab runs on, and whether Qt loads at all, looked at in a child Python so the
doctor never loads Qt (in this process in a frozen bundle)."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import logging
import platform
import subprocess
import sys
from collections.abc import Callable

import watchdog.version

from memtab import __version__
from memtab.diagnostics.report import Findings
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import OrNone, Record
from memtab.logs import LOG_FILE_NAME, log_dir, log_file

logger = logging.getLogger(__name__)

QT_CHECK_TIMEOUT_S = 30.0
# Run by a child interpreter; prints the record `QtCheck` as JSON. It imports nothing of Memtab:
# the child may not find it.
QT_CHECK = """
import ctypes, json, pathlib, sys
found = {}
try:
    import PySide6
    from PySide6 import QtCore
    found["pyside6"] = PySide6.__version__
    found["qt"] = QtCore.qVersion()
    plugins = QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.PluginsPath)
    xcb = pathlib.Path(plugins) / "platforms" / "libqxcb.so"
    if sys.platform.startswith("linux") and xcb.is_file():
        try:
            ctypes.CDLL(str(xcb))
        except OSError as error:
            found["platformProblem"] = str(error)
except Exception as error:
    found["problem"] = f"{type(error).__name__}: {error}"
print(json.dumps(found))
"""


class QtCheck(Record):
    """What `QT_CHECK` found: the versions, and why Qt (`problem`) or its xcb plugin
    (`platformProblem`) does not load."""

    pyside6: OrNone[str] = None
    qt: OrNone[str] = None
    platform_problem: OrNone[str] = None
    problem: OrNone[str] = None


QtChecker = Callable[[], QtCheck]


def run_qt_check() -> QtCheck:
    """What `QT_CHECK` found, in a child Python (in this process in a frozen bundle)."""
    if getattr(sys, "frozen", False):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(QT_CHECK, "<qt check>", "exec"), {"__name__": "qt_check"})
        return read_qt_check(output.getvalue(), "")
    try:
        child = subprocess.run(
            [sys.executable, "-c", QT_CHECK],
            capture_output=True,
            text=True,
            timeout=QT_CHECK_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return QtCheck(problem=f"the Qt check could not run ({error})")
    return read_qt_check(child.stdout, child.stderr)


def read_qt_check(stdout: str, stderr: str) -> QtCheck:
    """What the check printed (its last line), or why there is no answer."""
    lines = stdout.strip().splitlines()
    try:
        found = QtCheck.read(parse_json(lines[-1])) if lines else None
    except JsonError:
        found = None
    if found is None:
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        return QtCheck(problem=f"the Qt check ended without an answer ({last})")
    return found


def _distribution_version(*names: str) -> str | None:
    for name in names:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


class Versions(Record, write_only=True):
    """`runtime.versions`: Memtab's, Python's, the platform's and the libraries' (None: not
    found)."""

    memtab: str
    python: str
    platform: str
    pyside6: str | None
    qt: str | None
    watchdog: str
    httpx: str | None
    """Kept for readers of the JSON: httpx's version when installed, else None."""
    httpx2: str
    pydantic: str | None


class RuntimeFacts(Record, write_only=True):
    """`runtime`: the versions, why Qt does not load, whether frozen, and the log file."""

    versions: Versions
    qt_problem: str | None
    frozen: bool
    log_file: str


def check_runtime(qt_check: QtChecker = run_qt_check) -> tuple[RuntimeFacts, Findings]:
    """Versions of Memtab, Python, Qt and the libraries, and whether Qt loads."""
    # lazy: httpx2 only when asked
    import httpx2

    found = Findings("runtime")
    qt = qt_check()
    if qt.problem:
        found.broken(f"Qt does not load, so the window cannot open: {qt.problem}")
    if qt.platform_problem:
        found.broken(
            f"Qt's xcb platform plugin cannot load ({qt.platform_problem}): the window "
            "will not open on X11; `memtab` names the package to install, and "
            "scripts/install-system-deps installs everything Qt needs"
        )
    versions = Versions(
        memtab=__version__,
        python=platform.python_version(),
        platform=platform.platform(),
        pyside6=qt.pyside6 or _distribution_version("PySide6-Essentials", "PySide6"),
        qt=qt.qt,
        watchdog=watchdog.version.VERSION_STRING,
        httpx=_distribution_version("httpx"),
        httpx2=httpx2.__version__,
        # the MCP SDK's (Memtab's own code does not import it): read, not imported
        pydantic=_distribution_version("pydantic"),
    )
    facts = RuntimeFacts(
        versions=versions,
        qt_problem=qt.problem or qt.platform_problem,
        frozen=bool(getattr(sys, "frozen", False)),
        log_file=str(log_file() or log_dir() / LOG_FILE_NAME),
    )
    return facts, found
