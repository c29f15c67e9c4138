"""The check as the window and the CLI call it: what it reads, once per project, staleness,
re-checking one file, cancelling, and the settings it reads."""

from __future__ import annotations

import gc
import json
import os
import threading
import types
from pathlib import Path

import pytest

from memtab.check.documents import Document, pack_text
from memtab.check.engine import CheckEngine
from memtab.check.programs import which_in
from memtab.check.settings import DEFAULT_STALE_DAYS, load_stale_days
from memtab.demo import MAIN_ID, acme_api, demo_worktree, webapp
from memtab.fs.config.settings_file import save_settings_section
from memtab.sources.codex.source import bucket_name
from memtab.store.sidecars.meta import project_key
from support.demo_homes import copied_demo_home, demo_home_moved_away

from .helpers import DAY, NOW, check, home_with_project, make_checkout, of_kind, programs


def test_the_demo_s_projects_moved_away_are_each_one_finding_not_on_this_disk(
    tmp_path: Path,
) -> None:
    home = demo_home_moved_away(tmp_path / "demo")
    acme, web = acme_api(home), webapp(home)
    report = check(home, tmp_path, stale_days=90, now=None or NOW)
    missing = of_kind(report, "project-missing")
    assert [(f.subject, f.path, f.line) for f in missing] == [
        (acme, "/memories/project", None),
        (web, "/memories/project", None),
    ]
    # acme-api's memory is mux's and Claude Code's: still one finding, which counts both.
    assert "of mux" in missing[0].why and "of Claude Code" in missing[0].why
    # Gemini CLI keys its memory by the directory it ran in: the main workspace's worktree.
    assert set(report.projects) == {acme, web, str(demo_worktree(home))}


def test_one_workspace_sees_its_project_once_and_not_the_others(tmp_path: Path) -> None:
    home = demo_home_moved_away(tmp_path / "demo")
    report = check(home, tmp_path, MAIN_ID)
    assert [f.subject for f in of_kind(report, "project-missing")] == [acme_api(home)]


def test_a_workspace_is_checked_against_its_own_checkout_first(tmp_path: Path) -> None:
    worktree = make_checkout(tmp_path / "worktree", {"src/app.py": "", "Makefile": "t:\n\ttrue\n"})
    home, _ = home_with_project(
        tmp_path,
        "/nowhere/acme",
        workspace_memory={"notes.md": "- `make check` then edit `src/main.py`\n"},
        workspace_path=str(worktree),
    )
    report = check(home, tmp_path)
    assert {(f.kind, f.subject) for f in report.findings} == {
        ("missing-script", "make check"),
        ("missing-path", "src/main.py"),
        ("project-missing", "/nowhere/acme"),
    }
    assert {f.checkout for f in report.findings if f.kind != "project-missing"} == {str(worktree)}


def test_memory_unused_for_the_set_days_is_stale(tmp_path: Path) -> None:
    home, _ = home_with_project(
        tmp_path, "/nowhere/acme", {"old.md": "old\n", "used.md": "used\n", "new.md": "new\n"}
    )
    root = home.project_root("/nowhere/acme")
    for name, age in (("old.md", 200), ("used.md", 200), ("new.md", 1)):
        os.utime(root / name, ((NOW - age * DAY) / 1000, (NOW - age * DAY) / 1000))
    meta = {
        "entries": {
            project_key("/nowhere/acme", "used.md"): {
                "pinned": False,
                "accessCount": 3,
                "lastAccessedAt": NOW - 5 * DAY,
                "lastWriteAt": None,
            }
        }
    }
    home.meta_path.write_text(json.dumps(meta))
    stale = of_kind(check(home, tmp_path, stale_days=90), "stale")
    assert [(f.path, f.line) for f in stale] == [("/memories/project/old.md", None)]
    assert stale[0].message == "Not used or changed in 200 days"
    assert of_kind(check(home, tmp_path, stale_days=0), "stale") == []


def test_other_agents_files_are_never_called_stale(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    report = check(home, tmp_path, stale_days=1, now=NOW + 3650 * DAY)
    assert {f.agent for f in of_kind(report, "stale")} == {"mux"}


def _reachable(root: object) -> list[object]:
    """Every object `root` holds, directly or not: its data. Modules, classes and
    functions are not entered — a function reaches its module's globals, and through
    them whatever the other tests of the run keep alive."""
    seen: dict[int, object] = {}
    stack = [root]
    code = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    while stack:
        held = stack.pop()
        if id(held) in seen or isinstance(held, code):
            continue
        seen[id(held)] = held
        stack.extend(gc.get_referents(held))
        if isinstance(held, dict):  # a dict of str keys does not name its keys to gc
            stack.extend(held)
    return list(seen.values())


def test_an_engine_keeps_no_document(tmp_path: Path) -> None:
    # What an engine keeps between checks is what the rules found in each file (and what
    # they asked), not the documents nor their texts; a check after an edit reads every
    # file and checks the changed one.
    repo = make_checkout(tmp_path / "acme", {"src/a.py": ""})
    home, _ = home_with_project(
        tmp_path,
        repo,
        {"a.md": "- `src/a.py`\n", "b.md": "- `src/gone.py`\n", "c.md": "- `src/a.py` too\n"},
    )
    path = programs(tmp_path)
    engine = CheckEngine(home, env={"PATH": path}, find_program=which_in(path), stale_days=0)
    first = engine.check()
    assert [f.path for f in first.findings] == ["/memories/project/b.md"]
    gc.collect()
    assert [o for o in gc.get_objects() if isinstance(o, Document)] == []
    texts = {pack_text(text) for text in ("- `src/a.py`\n", "- `src/gone.py`\n")}
    kept = _reachable(engine)
    kept_bytes = {held for held in kept if isinstance(held, bytes)}
    assert kept_bytes and texts.isdisjoint(kept_bytes)  # a digest of each, not the text
    (home.project_root(str(repo)) / "a.md").write_text("- `src/other.py`\n")
    again = engine.check()
    assert [f.path for f in again.findings] == ["/memories/project/a.md", "/memories/project/b.md"]
    assert again.files_checked == 3


def test_an_alias_follows_its_file_from_check_to_check(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "acme", {"src/a.py": ""})
    home, _ = home_with_project(
        tmp_path,
        repo,
        {"notes.md": "- `docker compose up -d` starts the database\n"},
        global_memory={"environment.md": "- Use podman.\n"},
    )
    path = programs(tmp_path, "podman")
    engine = CheckEngine(home, env={"PATH": path}, find_program=which_in(path), stale_days=0)
    environment = home.global_root / "environment.md"

    def missing() -> list[str]:
        return [f.subject for f in of_kind(engine.check(), "missing-program")]

    assert missing() == ["docker"]
    assert missing() == ["docker"]  # unchanged: not read for aliases again
    environment.write_text("- Use podman (`alias docker=podman`).\n")
    assert missing() == []
    environment.write_text("- Use podman.\n")
    assert missing() == ["docker"]
    environment.write_text("- Use podman (`alias docker=podman`).\n")
    assert missing() == []  # the text that defines it, seen before


def test_a_check_stops_between_files_when_cancelled(tmp_path: Path) -> None:
    home, _ = home_with_project(tmp_path, "/nowhere/p", {f"{n}.md": "x\n" for n in range(5)})
    cancel = threading.Event()
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 2:
            cancel.set()

    engine = CheckEngine(home, env={"PATH": ""}, find_program=lambda _: None, stale_days=0)
    report = engine.check(cancel=cancel, progress=progress)
    assert report.cancelled and report.files_checked == 2
    assert seen == [(1, 5), (2, 5)]


def test_records_of_what_happened_are_not_checked_against_the_code(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "showtime", {"src/a.py": ""})
    home, _ = home_with_project(tmp_path, repo)
    loki = repo / ".loki" / "memory"
    (loki / "episodic").mkdir(parents=True)
    (loki / "episodic" / "ep.json").write_text('{"goal": "edit `src/gone.py`"}')
    (loki / "semantic").mkdir()
    (loki / "semantic" / "patterns.json").write_text('{"patterns": [{"pattern": "`src/x.py`"}]}')
    overrides = {"isolated": True, "loki": {"enabled": True, "path": str(tmp_path / "none")}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides))
    report = check(home, tmp_path)
    assert all("episodic" not in f.path for f in report.findings)


def test_an_older_codex_bucket_belongs_to_the_directory_it_hashes(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "tool", {"docs/index.md": ""})
    home, _ = home_with_project(tmp_path, repo)
    codex = tmp_path / "codex"
    bucket = codex / "memories" / bucket_name(str(repo)) / "memory"
    bucket.mkdir(parents=True)
    (bucket / "notes.md").write_text("- Docs in `docs/guide.md`\n")
    overrides = {"isolated": True, "codex": {"enabled": True, "path": str(codex)}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides))
    [found] = of_kind(check(home, tmp_path), "missing-path")
    assert found.agent == "codex" and found.project == str(repo)
    assert found.path == f"codex:memories:{bucket_name(str(repo))}/memory/notes.md"


def test_the_setting_is_read_from_settings_json(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_stale_days() == DEFAULT_STALE_DAYS
    save_settings_section("check", {"stale_days": 30})
    assert load_stale_days() == 30


@pytest.mark.expect_log(
    "memtab.fs.config.declared", "WARNING", r"check\.stale_days = 'soon' is invalid \(a whole"
)
def test_a_bad_setting_falls_back_to_the_default(tmp_path: Path) -> None:
    config = Path(os.environ["MEMTAB_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text('{"check": {"stale_days": "soon"}}')
    assert load_stale_days() == DEFAULT_STALE_DAYS


def test_the_report_is_the_json_contract(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    document = check(home, tmp_path).to_json()
    assert next(iter(document)) == "findings"
    finding = document["findings"][0]
    assert {"path", "line", "kind", "message", "why", "scope", "agent", "subject", "text"} <= set(
        finding
    )
    assert {"workspace", "project", "checkout", "fix", "related"} <= set(finding)
    assert {"filesChecked", "projects", "problems", "cancelled", "staleDays"} <= set(document)


@pytest.mark.parametrize(
    ("last_used_ms", "since"),
    [
        (NOW - 200 * DAY, "2029-08-29"),
        (-1, "1969-12-31"),  # before 1970: the day of the UTC time it was
        (86_400_000 - 1, "1970-01-01"),
        (-31_363_016_019_635, "0976-02-23"),  # a four-digit year, as ISO dates have
    ],
)
def test_a_stale_memory_says_the_utc_day_it_was_last_used(
    tmp_path: Path, last_used_ms: int, since: str
) -> None:
    home, _ = home_with_project(tmp_path, "/nowhere/acme", {})
    engine = CheckEngine(home, clock=lambda: NOW, find_program=lambda _: None, stale_days=90)
    document = Document(
        key="k",
        path="/memories/global/a.md",
        agent="mux",
        scope="global",
        packed=pack_text(""),
        last_used_ms=last_used_ms,
    )
    [stale] = engine._stale([document])
    assert stale.subject == since
