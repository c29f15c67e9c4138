"""The log: a file in the platform log directory, rotating once `start_rotating` ran (the
commands at once, the window after its first paint); --verbose adds stderr."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from memtab import log_rotation, logs
from memtab.log_rotation import SharedRotatingFileHandler, start_rotating
from memtab.logs import log_dir, own_handlers, setup_logging
from support.private_modes import open_to_others


def test_the_log_goes_to_the_platform_log_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMTAB_LOG_DIR", raising=False)
    assert log_dir() == Path(platformdirs.user_log_dir("memtab", appauthor=False))


@pytest.mark.expect_log("memtab.test", "WARNING", "quiet warning")
def test_records_go_to_the_file_and_stderr_only_with_verbose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path / "log"))
    path = setup_logging()
    assert path == tmp_path / "log" / "memtab.log"
    logging.getLogger("memtab.test").warning("quiet warning")
    assert "quiet warning" in path.read_text()
    assert "quiet warning" not in capsys.readouterr().err

    setup_logging(verbosity=1)
    logging.getLogger("memtab.test").info("loud info")
    assert "loud info" in capsys.readouterr().err
    assert "loud info" in path.read_text()


def test_the_log_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 2000)
    path = setup_logging()
    start_rotating()
    assert path is not None
    for index in range(200):
        logging.getLogger("memtab.test").info("line %d %s", index, "x" * 40)
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["memtab.log", "memtab.log.1", "memtab.log.2", "memtab.log.3"]
    assert path.stat().st_size <= 2000


def test_records_before_the_rotation_starts_are_kept_and_it_rotates_from_then_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 2000)
    path = setup_logging()
    assert path is not None
    for index in range(60):  # past the size: a plain file does not rotate
        logging.getLogger("memtab.test").info("early %d %s", index, "x" * 40)
    assert [type(handler) for handler in own_handlers()] == [logs.PrivateFileHandler]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memtab.log"]
    assert path.stat().st_size > 2000

    start_rotating()
    start_rotating()  # once: the rotating handler is not replaced
    assert [type(handler) for handler in own_handlers()] == [SharedRotatingFileHandler]
    logging.getLogger("memtab.test").info("late")
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["memtab.log", "memtab.log.1"]
    early = (tmp_path / "memtab.log.1").read_text().splitlines()
    assert len(early) == 60 and "early 0 " in early[0] and "early 59 " in early[-1]
    assert "late" in path.read_text()


def test_rotation_starts_only_where_a_log_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(blocker / "log"))
    assert setup_logging() is None
    start_rotating()
    assert [type(handler) for handler in own_handlers()] == [logging.StreamHandler]
    assert "cannot write the log" in capsys.readouterr().err


@pytest.mark.expect_log("memtab.test", "WARNING", "still visible")
def test_a_file_in_the_way_of_the_log_dir_is_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(blocker / "log"))
    assert setup_logging() is None
    assert logs.log_file() is None
    assert "cannot write the log" in capsys.readouterr().err
    logging.getLogger("memtab.test").warning("still visible")
    assert "still visible" in capsys.readouterr().err


@pytest.mark.expect_log("watchdog.observers.inotify", "ERROR", "^some other inotify error$")
def test_watchdogs_error_while_its_observer_stops_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logs.quiet_library_warnings()
    inotify = logging.getLogger("watchdog.observers.inotify")
    inotify.error("InotifyEmitter.queue_events() called when the thread is inactive")
    inotify.error("some other inotify error")
    assert [record.getMessage() for record in caplog.records] == ["some other inotify error"]


def test_rotating_imports_no_logging_handlers(tmp_path: Path) -> None:
    """Its pickle and sockets stayed in the settled window (~0.5 MiB resident)."""
    probe = (
        "import logging, sys\n"
        "from memtab.logs import setup_logging\n"
        "from memtab.log_rotation import start_rotating\n"
        "setup_logging(); start_rotating()\n"
        "logging.getLogger('memtab.test').warning('rotating')\n"
        "print([type(h).__name__ for h in logging.getLogger().handlers], "
        "'logging.handlers' in sys.modules)\n"
    )
    env = {**os.environ, "MEMTAB_LOG_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.split() == ["['SharedRotatingFileHandler']", "False"]
    assert "rotating" in (tmp_path / "memtab.log").read_text()


def test_a_rotation_refused_keeps_appending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where renaming an open file is refused (Windows), the record is still written and
    the next write past the size tries again."""
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 2000)
    path = setup_logging()
    start_rotating()
    assert path is not None

    def refused(_source: object, _target: object) -> None:
        raise PermissionError("in use by another process")

    with monkeypatch.context() as patched:
        patched.setattr(log_rotation.os, "replace", refused)
        for index in range(60):
            logging.getLogger("memtab.test").info("held %d %s", index, "x" * 40)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memtab.log"]
    assert "held 59 " in path.read_text()
    logging.getLogger("memtab.test").info("free")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memtab.log", "memtab.log.1"]
    assert "free" in path.read_text()


def test_what_other_processes_appended_counts_toward_the_rotation(tmp_path: Path) -> None:
    """The window and a command append to one log: the size that rotates it is the file's,
    not what this process wrote."""
    path = tmp_path / "memtab.log"
    handler = SharedRotatingFileHandler(path, max_bytes=2000, backups=2)
    record = logging.LogRecord("memtab.test", logging.INFO, __file__, 1, "mine", None, None)
    try:
        handler.emit(record)
        with path.open("a", encoding="utf-8") as other_process:
            other_process.write("theirs\n" * 400)  # 2,800 bytes past this handler's writes
        handler.emit(record)
    finally:
        handler.close()
    assert (tmp_path / "memtab.log.1").exists()
    assert path.read_text(encoding="utf-8") == "mine\n"


def test_the_log_is_private_whatever_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask: int
) -> None:
    folder = tmp_path / "state" / "log"
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(folder))
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 2000)
    path = setup_logging()
    start_rotating()
    assert path is not None
    for index in range(100):
        logging.getLogger("memtab.test").info("line %d %s", index, "x" * 40)
    assert (folder / "memtab.log.1").exists()
    assert open_to_others(folder) == []


def test_a_log_an_older_memtab_left_open_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "log"
    folder.mkdir(mode=0o755)
    for name in ("memtab.log", "memtab.log.1", "memtab.log.3"):
        (folder / name).write_text("a memory quoted\n")
        os.chmod(folder / name, 0o644)
    os.chmod(folder, 0o755)
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(folder))
    assert setup_logging() == folder / "memtab.log"
    assert open_to_others(folder) == []
    assert (folder / "memtab.log").read_text() == "a memory quoted\n"  # appended to, kept


def test_the_log_is_never_written_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("kept\n")
    folder = tmp_path / "log"
    folder.mkdir()
    (folder / "memtab.log").symlink_to(precious)
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(folder))
    path = setup_logging()
    logging.getLogger("memtab.test").info("a line")
    assert path is not None and not path.is_symlink() and "a line" in path.read_text()
    assert precious.read_text() == "kept\n"
