"""Each trust command's report kept for its next run (`kept.reports`, docs/formats.md §19.10):
a run in which nothing changed is answered from it with what a cold run finds; one file
changed, the engine's code changed, the history or the projects' names changed, or the cache
damaged: worked out again, as a cold run on that home finds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.health import trust_report
from memtab.cli.main import main
from memtab.fs.atomic import atomic_write_text
from memtab.kept import reports
from memtab.kept.per_file import cache_file_for
from memtab.store.home import Home
from memtab.trust import memories
from memtab.trust.contradictions import engine as contradictions_engine
from memtab.trust.contradictions.disagreements import Disagreements, disagreements
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.times import BlamedTimes
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.records import DuplicatesReport
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.memories import MemoryEngine
from support.memory_home import OTHER_PROJECT, PROJECT, make_home

Engine = type[DuplicatesEngine] | type[ContradictionsEngine] | type[LeaksEngine]
ENGINES: dict[str, tuple[Engine, str]] = {
    "duplicates": (DuplicatesEngine, "report_of"),
    "contradictions": (ContradictionsEngine, "report_of"),
    "leaks": (LeaksEngine, "leaks_of"),
}
"""Each command's engine, and the method that works its report out."""
CACHES = {
    "duplicates": ("duplicates", "duplicates-pairs", "duplicates-report", "texts"),
    "contradictions": ("contradictions", "contradictions-blame", "contradictions-report", "texts"),
    "leaks": ("leaks", "leaks-report", "texts"),
}


LATER = 60 * 1_000_000_000


@pytest.fixture(autouse=True)
def _settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run lists the memory a minute after it was written: no file is racily clean."""
    monkeypatch.setattr(MemoryEngine, "now_ns", staticmethod(lambda: time.time_ns() + LATER))


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "ports.md", "# Ports\n\n- The API runs on port 8000.\n")
    atomic_write_text(
        home.project_root(PROJECT) / "local.md", "# Local\n\n- The API runs on port 8080.\n"
    )
    atomic_write_text(
        home.project_root(PROJECT) / "copy.md", "# Ports\n\n- The API runs on port 8000.\n"
    )
    atomic_write_text(
        home.global_root / "web.md", f"# Web\n\nThe app lives in {OTHER_PROJECT}/src/app.tsx.\n"
    )
    return home


def _cold(home: Home, command: str) -> Any:
    """What a run with nothing kept finds."""
    for name in CACHES[command]:
        cache_file_for(home, name).unlink(missing_ok=True)
    return ENGINES[command][0](home, sources=False).find()


def _counted(monkeypatch: pytest.MonkeyPatch, command: str) -> list[int]:
    """How many times the next runs work the report out (one item a time)."""
    engine, method = ENGINES[command]
    worked: list[int] = []
    original = getattr(engine, method)

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        worked.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(engine, method, counting)
    return worked


def _warm(home: Home, command: str) -> Any:
    """A next process's run, as the command asks (no model judges)."""
    return ENGINES[command][0](home, sources=False).find(reuse=True)


def _findings(report: Any) -> Any:
    return report.to_json()


@pytest.mark.parametrize("command", ENGINES)
def test_nothing_changed_is_answered_from_the_kept_report(
    home: Home, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _cold(home, command)
    first = _warm(home, command)  # keeps its report
    worked = _counted(monkeypatch, command)
    again = _warm(home, command)
    assert worked == []
    assert _findings(again) == _findings(first) == _findings(cold)
    assert again.files_read == cold.files_read > 0


def _change_one_file(home: Home) -> None:
    """An agent wrote a note between two runs: a port said otherwise, a leak added."""
    atomic_write_text(
        home.global_root / "ports.md",
        f"# Ports\n\n- The API runs on port 9000.\n- Clone {OTHER_PROJECT} first.\n",
    )


@pytest.mark.parametrize("command", ENGINES)
def test_one_file_changed_is_worked_out_as_a_cold_run_finds(
    home: Home, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _warm(home, command)
    _change_one_file(home)
    worked = _counted(monkeypatch, command)
    after = _warm(home, command)
    assert worked == [1]
    assert _findings(after) != _findings(before)
    assert _findings(after) == _findings(_cold(home, command))


@pytest.mark.parametrize("command", ENGINES)
def test_a_file_changed_within_the_racy_margin_is_read_again(
    home: Home, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written just before a run lists it may be written again within its time's
    tick, its `lstat` the same (git's "racily clean"): no report is kept or reused for it
    until it has settled."""
    _warm(home, command)
    _change_one_file(home)
    monkeypatch.setattr(MemoryEngine, "now_ns", staticmethod(time.time_ns))
    worked = _counted(monkeypatch, command)
    first = _warm(home, command)
    again = _warm(home, command)
    assert worked == [1, 1]
    assert _findings(again) == _findings(first) == _findings(_cold(home, command))


@pytest.mark.parametrize("command", ENGINES)
def test_a_file_that_settled_is_answered_again(
    home: Home, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _change_one_file(home)
    monkeypatch.setattr(MemoryEngine, "now_ns", staticmethod(time.time_ns))
    _warm(home, command)  # racy: nothing kept
    monkeypatch.setattr(MemoryEngine, "now_ns", staticmethod(lambda: time.time_ns() + LATER))
    first = _warm(home, command)
    worked = _counted(monkeypatch, command)
    assert _findings(_warm(home, command)) == _findings(first)
    assert worked == []


@pytest.mark.parametrize("command", ENGINES)
def test_another_version_of_the_code_is_worked_out_again(
    home: Home, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _warm(home, command)
    monkeypatch.setattr(reports, "code_identity", lambda: b"another version of the engines")
    worked = _counted(monkeypatch, command)
    assert _findings(_warm(home, command)) == _findings(first)
    assert worked == [1]


@pytest.mark.parametrize("damage", [b"", b"memtab-trust\nnot a memo", os.urandom(300)])
@pytest.mark.parametrize("command", ENGINES)
def test_a_damaged_kept_report_is_ignored(
    home: Home, command: str, damage: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _warm(home, command)
    cache_file_for(home, f"{command}-report").write_bytes(damage)
    worked = _counted(monkeypatch, command)
    assert _findings(_warm(home, command)) == _findings(first)
    assert worked == [1]


def test_a_report_kept_by_another_command_is_not_this_ones(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report file holding a record of another kind (forged under a valid seal) is
    worked out again, never shown as this command's."""
    _warm(home, "leaks")
    first = _warm(home, "duplicates")
    report = cache_file_for(home, "duplicates-report")
    report.write_bytes(cache_file_for(home, "leaks-report").read_bytes())
    worked = _counted(monkeypatch, "duplicates")
    assert _findings(_warm(home, "duplicates")) == _findings(first)
    assert worked == [1]


def test_a_new_version_in_history_is_worked_out_again(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The contradictions say which side is newer by the history: a history index that
    changed (a version recorded, a sync) is no report kept."""
    _warm(home, "contradictions")
    monkeypatch.setattr(BlamedTimes, "_state", lambda self, key: b"another state")
    worked = _counted(monkeypatch, "contradictions")
    _warm(home, "contradictions")
    assert worked == [1]


def test_other_own_names_are_worked_out_again(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    """The leaks depend on more than the memory: the user's own names, the projects'."""
    _warm(home, "leaks")
    monkeypatch.setenv("USER", "someone-else")  # the user's own names: no leak in their memory
    worked = _counted(monkeypatch, "leaks")
    _warm(home, "leaks")
    assert worked == [1]


def test_a_search_cut_by_time_is_not_kept(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search stopped at its time bound is not the answer: the next run searches again."""
    whole = disagreements

    def cut_short(*args: Any, **kwargs: Any) -> Disagreements:
        searched = whole(*args, **kwargs)
        searched.cut = True
        return searched

    monkeypatch.setattr(contradictions_engine, "disagreements", cut_short)
    assert _warm(home, "contradictions").cut
    monkeypatch.setattr(contradictions_engine, "disagreements", whole)
    worked = _counted(monkeypatch, "contradictions")
    assert not _warm(home, "contradictions").cut
    assert worked == [1]


class _Judge:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_report_the_model_judges_is_the_runs_own(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A configured model judges what the run read (its candidates, its wider net): that run
    is never answered from a kept report; offline, or with no model, it may be."""
    monkeypatch.setattr(trust_report, "_model_settings", lambda: object())
    monkeypatch.setattr(trust_report, "ModelJudge", _Judge)
    asked: list[bool] = []

    def find(reuse: bool) -> str:
        asked.append(reuse)
        return "report"

    judged = trust_report.found_report(home, "duplicates", find, lambda r, _: r, json=True)
    trust_report.found_report(home, "duplicates", find, lambda r, _: r, json=True, offline=True)
    trust_report.found_report(home, "leaks", find, json=True)
    assert judged == "report" and asked == [False, True, True]


def _printed(home: Home, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """What `memtab duplicates --json` prints on `home` (no model configured), and its exit."""
    capsys.readouterr()
    code = main(["--home", str(home.root), "duplicates", "--json", "--no-sources"])
    return code, capsys.readouterr().out


def test_a_warm_json_run_prints_what_the_last_run_did_without_rebuilding_it(
    home: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing changed: `--json` prints what the run before printed, neither working the
    report out nor rebuilding its records (the cost of a warm run)."""
    cold = _printed(home, capsys)
    worked = _counted(monkeypatch, "duplicates")
    rebuilt: list[bytes] = []
    monkeypatch.setattr(reports.KeptReport, "get", lambda self, key: rebuilt.append(key))
    assert _printed(home, capsys) == cold
    assert cold[0] == 1 and json.loads(cold[1])["groups"]
    assert worked == [] and rebuilt == []
    _change_one_file(home)
    changed = _printed(home, capsys)
    assert worked == [1] and changed != cold
    assert changed == (1, _json_of(_cold(home, "duplicates")))


def test_a_cold_json_run_lists_the_memory_and_makes_its_json_once(
    home: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing kept: the run that finds lists the memory the warm path listed, and what it
    keeps for the next run and prints are one JSON, made once (the very bytes printed)."""
    listings: list[int] = []
    made: list[int] = []
    list_memory, to_json = memories.list_memory, DuplicatesReport.to_json
    monkeypatch.setattr(
        memories, "list_memory", lambda *a, **k: listings.append(1) or list_memory(*a, **k)
    )
    monkeypatch.setattr(DuplicatesReport, "to_json", lambda self: made.append(1) or to_json(self))
    cold = _printed(home, capsys)
    assert listings == [1] and made == [1]
    assert cold[0] == 1 and json.loads(cold[1])["groups"]
    assert _printed(home, capsys) == cold and made == [1]


@pytest.mark.parametrize("command", ["contradictions", "leaks"])
def test_each_warm_json_run_prints_the_kept_bytes_without_rebuilding_them(
    home: Home, command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As duplicates: a cold `--json` run makes its JSON once; a warm one prints what it
    printed, neither working the report out nor rebuilding its records."""
    made: list[int] = []
    report = type(_cold(home, command))
    to_json = report.to_json
    monkeypatch.setattr(report, "to_json", lambda self: made.append(1) or to_json(self))
    args = ["--home", str(home.root), command, "--json", "--no-sources"]
    capsys.readouterr()
    cold = main(args), capsys.readouterr().out
    assert made == [1] and cold[0] == 1
    worked = _counted(monkeypatch, command)
    rebuilt: list[bytes] = []
    monkeypatch.setattr(reports.KeptReport, "get", lambda self, key: rebuilt.append(key))
    assert (main(args), capsys.readouterr().out) == cold
    assert worked == [] and rebuilt == [] and made == [1]


def test_a_damaged_printed_report_is_worked_out_again(
    home: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _printed(home, capsys)
    printed = cache_file_for(home, "duplicates-printed")
    printed.write_bytes(printed.read_bytes()[:-7])
    assert _printed(home, capsys) == cold


def test_equal_contexts_are_one_key() -> None:
    """`marshal` marks a value referred to twice: a context built otherwise, equal, keys alike."""
    name = "".join(["dupli", "cates"])
    shared = (name, name)
    apart = ("duplicates", "".join(["dup", "licates"]))
    assert shared == apart
    assert reports.report_key(b"stamps", shared) == reports.report_key(b"stamps", apart)


def _json_of(report: Any) -> str:
    return json.dumps(report.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n"


RUN_LISTING_IMPORTS = (
    "import sys, time\n"
    "from memtab.cli.main import main\n"
    "from memtab.trust.memories import MemoryEngine\n"
    f"MemoryEngine.now_ns = staticmethod(lambda: time.time_ns() + {LATER})  # settled\n"
    "status = main(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write('\\n'.join(sys.modules))\n"
    "sys.exit(status)\n"
)
"""A command run as its process runs it, the modules it imported written to a file."""


@pytest.mark.slow  # slow: three processes running the command, ~0.5 s of CPU each
@pytest.mark.parametrize(
    ("command", "heavy"),
    [
        ("duplicates", ("memtab.trust.duplicates.engine",)),
        ("contradictions", ("memtab.trust.contradictions.engine", "memtab.trust.claims")),
    ],
)
def test_a_warm_json_run_imports_neither_the_engine_nor_its_readers(
    home: Home, tmp_path: Path, command: str, heavy: tuple[str, ...]
) -> None:
    """A warm `--json` run prints what the last one printed: the engine and the readers it
    needs to find (their patterns compiled: a tenth of a warm run's CPU) are imported only
    by a run that finds — a cold one, and one after a file changed."""
    imported = tmp_path / "modules.txt"
    env = {**os.environ, "MEMTAB_CONFIG_DIR": str(tmp_path / "config")}

    def run() -> tuple[int, str, set[str]]:
        args = ["--home", str(home.root), command, "--json", "--no-sources"]
        done = subprocess.run(
            [sys.executable, "-c", RUN_LISTING_IMPORTS, str(imported), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return done.returncode, done.stdout, set(imported.read_text(encoding="utf-8").split())

    cold = run()
    warm = run()
    assert cold[0] == warm[0] == 1 and warm[1] == cold[1]
    assert set(heavy) <= cold[2] and set(heavy) & warm[2] == set()
    _change_one_file(home)
    changed = run()
    assert changed[1] != cold[1] and set(heavy) <= changed[2]
