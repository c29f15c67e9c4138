"""The demo's memory as an agent recalls it through `memtab mcp` once checked (docs/formats.md
§19.8): the worktree's moved settings file and its `make serve` marked beside their lines
with why, Claude Code's note that disagrees with the workspace's port marked in its own
file (another agent's, by file id), and `list` rows of both agents carrying their state."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from memtab.agent_server.pages import recall_marks
from memtab.agent_server.service import MemoryService
from memtab.check.recalled import RecallChecks
from memtab.checked import cache as cache_module
from memtab.checked.cache import CheckCache
from memtab.checked.marks import LIST_NOTE, MARK
from memtab.demo import MAIN_ID
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home

SETTINGS = "`src/acme/settings_local.py` is not in fix-token-refresh"


def test_the_demo_recalled_with_its_marks(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    checks = RecallChecks(home, cache=CheckCache(home, path=tmp_path / "checks.json"))
    checks.check_now(MAIN_ID)
    workspace = load_registry(home).require_workspace(MAIN_ID)
    service = MemoryService(home, workspace, writes="off", checks=checks)

    setup = service.call("view", {"path": "/memories/workspace/dev-setup.md"}, "t").text
    lines = setup.splitlines()
    assert lines[5].startswith("6\t- Local settings live in") and f"{MARK} {SETTINGS}" in lines[5]
    assert "Name src/acme/config/settings_local.py instead" in lines[5]  # the fix, as evidence
    assert lines[6].endswith(f"{MARK} `make serve`: Makefile has no target `serve`")
    assert MARK not in lines[7]  # the port line: the other memory is the older one

    rows = json.loads(service.call("list", {"scope": "claude-code"}, "t").text)["files"]
    (local,) = [row for row in rows if row["path"].endswith("reference_local-services.md")]
    assert local["check"].startswith("1 line false or stale (9)")
    assert "physicalPath" in local  # another agent's row keeps its own fields
    viewed = service.call("view", {"path": local["path"]}, "t").text
    (marked,) = [line for line in viewed.splitlines() if line.startswith("9\t")]
    assert "port 8080" in marked and "says 8000" in marked.split(MARK, 1)[1]

    found = json.loads(service.call("search", {"query": "make serve"}, "t").text)["results"]
    best = next(hit for hit in found if hit["path"] == "/memories/workspace/dev-setup.md")
    assert best["check"] == "2 lines false or stale (6, 7)"


def test_a_fresh_homes_first_search_says_its_results_are_not_checked_yet(tmp_path: Path) -> None:
    """Claude Code 2.1.332's first `search` of a fresh demo home: `make serve` unmarked and
    nothing saying so, where `view` of the same file said it was being checked. Now the
    answer says how many of its files the check has not read yet, as `list`'s page does;
    once checked, the result is marked and the notes say what `check` means."""
    home = copied_demo_home(tmp_path / "demo")
    checks = RecallChecks(home, cache=CheckCache(home, path=tmp_path / "checks.json"))
    checks.stop()  # no background check: this test checks when it says
    workspace = load_registry(home).require_workspace(MAIN_ID)
    service = MemoryService(home, workspace, writes="off", checks=checks)

    first = json.loads(service.call("search", {"query": "make serve"}, "t").text)
    setup = next(hit for hit in first["results"] if hit["path"].endswith("dev-setup.md"))
    assert MARK not in setup["snippet"] and "check" not in setup
    unread = len(first["results"])
    assert first["notes"] == [
        f"memtab check has not read {unread} files of these yet (new, or not one it reads); "
        "it is checking them in the background."
    ]

    checks.check_now(MAIN_ID)
    after = json.loads(service.call("search", {"query": "make serve"}, "t").text)
    setup = next(hit for hit in after["results"] if hit["path"].endswith("dev-setup.md"))
    assert setup["snippet"].endswith(f"{MARK} `make serve`: Makefile has no target `serve`")
    assert after["notes"][0] == LIST_NOTE
    assert not any("has not read" in note and f"{unread} files" in note for note in after["notes"])


def test_a_file_the_check_flags_ranks_after_what_is_still_true(tmp_path: Path) -> None:
    """Issue 72 point 1: a stale memory is demoted in search, never dropped — the demo's
    dev-setup notes (`make serve`, a moved settings file) fall behind a true note that
    matches the query less well."""
    home = copied_demo_home(tmp_path / "demo")
    workspace = load_registry(home).require_workspace(MAIN_ID)
    true_note = home.root / "memory" / "global" / "serving.md"
    true_note.write_text(  # one mention of each word, in a long note: the engine ranks it lower
        "# Local API\nThe API runs locally with `make run`: to serve it on another port, set "
        "PORT first. It reloads on change; stop it with Ctrl+C. Logs go to the terminal, and "
        "nothing is written to disk while it runs. The database it talks to is the local "
        "Postgres started by docker compose; its data lives in a named volume, so it survives "
        "a restart. Seed it once with the fixtures script before the first run, and again "
        "after a reset.\n"
    )
    checks = RecallChecks(home, cache=CheckCache(home, path=tmp_path / "checks.json"))
    unmarked = MemoryService(home, workspace, writes="off")
    checks.check_now(MAIN_ID)
    marked = MemoryService(home, workspace, writes="off", checks=checks)

    def ranked(service: MemoryService) -> list[str]:
        found = json.loads(service.call("search", {"query": "serve make", "limit": 2}, "t").text)
        return [hit["path"] for hit in found["results"]]

    setup, serving = "/memories/workspace/dev-setup.md", "/memories/global/serving.md"
    assert ranked(unmarked) == [setup, serving]  # the engine alone: the stale notes first
    assert ranked(marked) == [serving, setup]  # checked: still found, after the true one


def test_a_check_marks_a_file_changed_within_the_racy_margin_to_be_known_by_its_digest(
    tmp_path: Path,
) -> None:
    """A file written just before the check (the demo's, copied now) may change again in
    the same clock tick with its stat kept: its entry says so (its digest decides); one
    checked an hour after its last change is known by its stat alone."""
    home = copied_demo_home(tmp_path / "demo")
    cache = CheckCache(home, path=tmp_path / "checks.json")
    RecallChecks(home, cache=cache).check_now(MAIN_ID)
    files = cache.files()
    assert files and all(entry.racy for entry in files.values())
    hour_later = time.time_ns() // 1_000_000 + 3_600_000
    RecallChecks(home, cache=cache, clock=lambda: hour_later).check_now(MAIN_ID)
    again = cache.files()
    assert again.keys() == files.keys() and not any(entry.racy for entry in again.values())
    assert all(cache.state(physical).checked for physical in again)


def test_a_page_of_results_looks_at_the_check_cache_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 97: a search of look-alike notes stat'ed the check cache's file once a result (20
    a page); a page's files are read from one look at it, and each still stat'ed itself."""
    home = copied_demo_home(tmp_path / "demo")
    checks = RecallChecks(home, cache=CheckCache(home, path=tmp_path / "checks.json"))
    checks.check_now(MAIN_ID)
    checks.stop()
    workspace = load_registry(home).require_workspace(MAIN_ID)
    service = MemoryService(home, workspace, writes="off", checks=checks)
    looked: list[object] = []
    stamp = cache_module._file_stamp
    monkeypatch.setattr(
        cache_module, "_file_stamp", lambda path: looked.append(path) or stamp(path)
    )

    found = json.loads(service.call("search", {"query": "the"}, "t").text)["results"]

    assert len(found) > 3
    assert looked == [tmp_path / "checks.json"]


def test_a_files_place_is_worked_out_once_and_its_edit_seen_at_the_next_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 97: every search parsed each result's path again to find its file; a session keeps
    each file's place, and still stats the file itself: an edit drops its marks at once."""
    home = copied_demo_home(tmp_path / "demo")
    checks = RecallChecks(home, cache=CheckCache(home, path=tmp_path / "checks.json"))
    checks.check_now(MAIN_ID)
    checks.stop()
    workspace = load_registry(home).require_workspace(MAIN_ID)
    service = MemoryService(home, workspace, writes="off", checks=checks)
    parsed: list[str] = []
    parse = recall_marks.parse_file_path
    monkeypatch.setattr(
        recall_marks, "parse_file_path", lambda raw: parsed.append(raw) or parse(raw)
    )

    def setup_hit() -> dict[str, str]:
        found = json.loads(service.call("search", {"query": "make serve"}, "t").text)["results"]
        return next(hit for hit in found if hit["path"] == "/memories/workspace/dev-setup.md")

    assert setup_hit()["check"] == "2 lines false or stale (6, 7)"
    first = len(parsed)
    assert first > 0 and setup_hit()["check"] == "2 lines false or stale (6, 7)"
    assert len(parsed) == first  # the second search worked out no place again
    edited = home.workspace_root(MAIN_ID) / "dev-setup.md"
    edited.write_text(edited.read_text() + "- Run `make serve` after a pull.\n")
    assert setup_hit()["check"] != "2 lines false or stale (6, 7)"
