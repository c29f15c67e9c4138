"""Test configuration shared by every suite.

Qt runs offscreen; no test ever sees the developer's real memory home, settings or keys.
"""

from __future__ import annotations

import gc
import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from support import flushes, model_tester

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # `support` helpers

pytest_plugins = [
    "pytester",
    "support.fake_model_server",
    "support.gui_thread_io",
    "support.logfail",
    "support.sync_fixtures",
    "support.hostile_files",
    "support.private_modes",
    "support.worker_reports",
]

# Property tests draw the same examples on every run, so a run's verdict (CI's included)
# does not depend on luck, and no example fails for taking long on a loaded machine.
# HYPOTHESIS_PROFILE=explore draws new examples each run, to look for what these miss.
settings.register_profile("repeatable", derandomize=True, deadline=None)
# The fast tier's (make test-fast): as repeatable, a quarter of the examples — the edit
# loop's check; CI's `make test` keeps repeatable's 100 a test.
settings.register_profile("quick", settings.get_profile("repeatable"), max_examples=25)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# A byte-for-byte copy of ../shared/fixtures, so a clean clone tests against the same data.
FIXTURES_DIR = Path(__file__).resolve().parent / "fixtures" / "shared"

_ISOLATED_ENV = (
    "MEMTAB_HOME",
    "XUM_ROOT",
    "MUX_ROOT",
    "MEMTAB_PROVIDER",
    "MEMTAB_MODEL",
    "MEMTAB_BASE_URL",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "MEMTAB_API_KEY",
    # Other agents' homes: this machine may have a real ~/.claude, ~/.codex or ~/.gemini.
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "LOKI_DIR",
    "GEMINI_CLI_HOME",
    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
    "GEMINI_CLI_TRUST_WORKSPACE",
    "GEMINI_RESTRICTED_MODE",
    "MEMTAB_LOG_DIR",
    "MEMTAB_MCP_SHARED",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--bench", action="store_true", help="run the benchmarks in tests/bench")
    parser.addoption(
        "--no-fsync",
        action="store_true",
        help="the fast tier (make test-fast): no flush to disk, but in tests marked fsync",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--bench"):
        return
    skip = pytest.mark.skip(reason="benchmark: run with --bench (make bench)")
    for item in items:
        if "bench" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """A collection runs without the cycle collector: its ~320,000 objects live on, and its
    passes over them as they grew took ~0.6 s of each worker's ~4.7 s collection (six runs
    alternated, load ~3); its ~90,000 objects of garbage go in the full collection after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if collecting:
            gc.enable()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the collection loaded (~275,000 objects: modules, test items) is never garbage:
    kept out of the cycle collector (`gc.freeze`), its full collections scan only what
    tests make — ~10% of the unit tests' CPU (tests/unit: 65.6–66.0 s → 58.2–59.9 s, load
    4), and a full collection after each GUI test took ~0.2 s instead of a few ms.

    The youngest generation is collected every 10,000 allocations instead of 700: tests
    allocate in bursts that mostly die young by reference counting, and the collector's
    passes over them took ~1.7 s of the fast tier's CPU (~0.9 s now)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def _machine_pip_settings() -> dict[str, str]:
    """pip's cache and index settings as this machine has them, read before HOME is faked.

    The wheel test installs PySide6 into a new venv from them (a cache or a local index,
    not the network); they name packages, none of a user's data.
    """
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    settings = {"PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR") or f"{cache}/pip"}
    for candidate in (os.environ.get("PIP_CONFIG_FILE"), f"{config}/pip/pip.conf"):
        if candidate and Path(candidate).is_file():
            settings["PIP_CONFIG_FILE"] = candidate
            break
    return settings


_PIP_SETTINGS = _machine_pip_settings()


def _fake_user_env(fake_user: Path) -> dict[str, str | None]:
    """HOME, Memtab's config and the XDG dirs inside `fake_user`; no home or key from outside
    (None: the variable is unset)."""
    runtime = fake_user / "run"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    env: dict[str, str | None] = dict.fromkeys(_ISOLATED_ENV)
    env |= {
        "HOME": str(fake_user),
        "MEMTAB_CONFIG_DIR": f"{fake_user}/config",
        "XDG_DATA_HOME": f"{fake_user}/data",
        "XDG_CONFIG_HOME": f"{fake_user}/xdg-config",
        "XDG_STATE_HOME": f"{fake_user}/state",  # the log
        "XDG_CACHE_HOME": f"{fake_user}/cache",
        "XDG_RUNTIME_DIR": str(runtime),
        # Gemini CLI's system settings (/etc/gemini-cli/…) are this machine's, not a test's.
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": f"{fake_user}/etc/gemini-cli/settings.json",
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": f"{fake_user}/etc/gemini-cli/system-defaults.json",
        # Every `memtab mcp` a test starts serves itself, as an agent's did before hosts;
        # the tests of the warm host (tests/unit/agent_server/hosting/) turn it back on.
        "MEMTAB_MCP_SHARED": "off",
    }
    return env | _PIP_SETTINGS


def _set_env(values: dict[str, str | None]) -> dict[str, str | None]:
    """Set (or, for None, unset) each variable; returns what they were, for `_set_env` again.

    A variable that already has its value is left alone: a test's fake user changes 9 of
    its 29 (the others are the session's), and each change goes through putenv (2,000
    fake users: 0.069–0.074 → 0.051 ms a test to set and restore them, load 6)."""
    before: dict[str, str | None] = {}
    for name, value in values.items():
        before[name] = current = os.environ.get(name)
        if current == value:
            continue
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value
    return before


@pytest.fixture(autouse=True, scope="session")
def _isolated_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A fake user for what runs before a test's own (module and session fixtures).

    Under pytest-xdist each worker is its own session, with its own temp dir.
    """
    before = _set_env(_fake_user_env(tmp_path_factory.mktemp("session-user")))
    yield
    _set_env(before)


@pytest.fixture(autouse=True)
def _each_test_alone(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """What every test runs in, one fixture for all of it (pytest's own work for each
    autouse fixture and the `monkeypatch` they shared cost every test ~0.1 ms): its own
    fake user, so no test writes where another reads; flushes silenced under --no-fsync
    but where tested (support/flushes.py); Memtab's item models checked (support/
    model_tester.py); and after it, Qt's deferred deletes run.

    The variables a test sets with `monkeypatch` are undone before these are (its
    `monkeypatch` is set up after this fixture), so each returns to the session's value.
    """
    unsilence = flushes.silence_unless_tested(request)
    model_tester.check_models_built_from_now()
    before = _set_env(_fake_user_env(_new_fake_user(tmp_path_factory)))
    try:
        yield
        _delete_what_qt_deletes_later()
    finally:
        _set_env(before)
        unsilence()


_fake_users = itertools.count()


def _new_fake_user(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new folder for a test's fake user, `user<n>` in the session's temp dir as
    `mktemp("user")` names it: `mktemp` checks each time that the name resolves inside that
    dir (`Path.resolve`, a system call a component), a third of this fixture's CPU (2,000
    empty tests: 0.37–0.40 s → 0.25–0.29 s)."""
    fake_user = tmp_path_factory.getbasetemp() / f"user{next(_fake_users)}"
    fake_user.mkdir(mode=0o700)
    return fake_user


def _delete_what_qt_deletes_later() -> None:
    """Delete now what the test (or pytest-qt, closing its widgets) asked Qt to delete later.

    `deleteLater` waits for an event loop to come back to its level; after a test none
    does, so a window would live on into the next test (its slots running there) or to
    the end of the process, where Qt destroys it after Python has torn its wrappers down
    (a slot then finds no attributes).
    """
    if "PySide6.QtCore" in sys.modules:
        from PySide6.QtCore import QCoreApplication, QEvent

        if QCoreApplication.instance() is not None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def fixtures_dir() -> Path:
    """The shared real-world transcripts (read-only)."""
    if not FIXTURES_DIR.is_dir():
        pytest.skip(f"shared fixtures not found at {FIXTURES_DIR}")
    return FIXTURES_DIR
