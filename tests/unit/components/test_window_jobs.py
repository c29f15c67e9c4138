"""The window's jobs run in place, without Qt: a job is a plain function of its context,
cancelled through it, its result a value (beside each feature's presenter in components/)."""

from __future__ import annotations

import functools
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from memtab.components.jobs import JobCancelledError, JobContext
from memtab.components.search import search
from memtab.components.search.search import SearchQuery
from memtab.components.tree import scan_policy as tree
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.components.window import menus as home_ops
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from support import memory_home
from support.memory_home import MAIN

home = memory_home.home


def test_a_job_runs_in_place_reports_progress_and_ends_at_its_cancel() -> None:
    said: list[tuple[int, int, str]] = []
    ctx = JobContext.standalone(lambda *progress: said.append(progress))
    ctx.report_progress(1, "reading")
    ctx.raise_if_cancelled()
    ctx.cancel_event.set()
    assert ctx.is_cancelled() and said == [(0, 1, "reading")]
    with pytest.raises(JobCancelledError):
        ctx.raise_if_cancelled()


def test_the_scan_presents_what_it_read_and_a_cancelled_one_ends_cancelled(home: Home) -> None:
    def count(scan: HomeScan) -> int:
        return sum(len(scope.listing.files) for scope in scan.scopes)

    outcome = tree.scan(ScanRequest(home, MAIN), count, JobContext.standalone())
    assert outcome.scan.home == home and outcome.presented == count(outcome.scan) > 0
    cancelled = JobContext.standalone()
    cancelled.cancel_event.set()
    with pytest.raises(JobCancelledError):
        tree.scan(ScanRequest(home, MAIN), count, cancelled)


def test_a_query_that_narrows_the_last_looks_only_at_its_matches(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_at: list[Collection[str] | None] = []
    real = search.find_matches

    def recording(*args: Any, candidates: Collection[str] | None = None, **kw: Any) -> Any:
        looked_at.append(candidates)
        return real(*args, candidates=candidates, **kw)

    monkeypatch.setattr(search, "find_matches", recording)
    scan = tree.scan(ScanRequest(home, MAIN), None, JobContext.standalone()).scan
    searcher = search.Searcher()
    run = functools.partial(searcher.search, scan)
    wide = run(SearchQuery.parse("ruff"), JobContext.standalone())
    narrow = run(SearchQuery.parse("ruff use"), JobContext.standalone())
    everything = run(SearchQuery.parse(""), JobContext.standalone())
    assert wide.match_count == narrow.match_count == 1 and everything.match_count == 0
    assert looked_at[0] is None and looked_at[1] is not None and len(looked_at[1]) == 1


def test_a_workspace_of_a_folder_not_here_is_added_only_when_the_user_says_so(
    home: Home, tmp_path: Path
) -> None:
    ctx = JobContext.standalone()
    elsewhere = str(tmp_path / "not-here")
    refused = home_ops.register_workspace(home, elsewhere, "away", False, ctx)
    assert refused.workspace_id is None and refused.missing
    assert refused.error == f"{elsewhere} does not exist on this machine."
    added = home_ops.register_workspace(home, elsewhere, "away", True, ctx)
    assert added.error is None and added.workspace_id is not None
    assert load_registry(home).workspace(added.workspace_id) is not None
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    assert home_ops.check_folder(str(a_file)).problem == f"{a_file} is not a folder."
