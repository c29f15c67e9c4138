"""Consolidate now on the three real stores with what real local models answered (issue
82): Qwen2.5-Coder on llama-server, replies recorded and replayed. The plan and the
journal say what the run's tools did — here, that it read and changed nothing — never the
model's claims ("Viewed …", "Merged MEMORY.md into …"), which stay in the trace dump."""

from __future__ import annotations

import json

import pytest

from memtab.consolidation.service import ConsolidationService
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from memtab.traces.catalog import list_traces
from quality.stores import REAL_STORES, RealStore, install
from support.recorded_replies import Replay, recorded

from .helpers import WS, read

RECORDINGS = ["consolidation/qwen2.5-coder-1.5b.json", "consolidation/qwen2.5-coder-0.5b.json"]
SCOPES = {"codex-memories": Scope.PROJECT, "claude-code-auto-memory": Scope.PROJECT}
RUNS = [(name, store) for name in RECORDINGS for store in recorded(name)]


def real(folder: str) -> RealStore:
    store = next(store for store in REAL_STORES if store.folder == folder)
    return RealStore(folder, SCOPES.get(folder, store.scope))


@pytest.mark.parametrize(("recording", "folder"), RUNS)
def test_the_plan_and_the_journal_say_only_what_the_run_did(
    home: Home, store: MemoryStore, recording: str, folder: str
) -> None:
    written = install(store, real(folder), derived=False)
    replies = recorded(recording)[folder]
    service = ConsolidationService(home, provider_factory=lambda _: Replay(list(replies)))
    plan = service.plan(WS)
    record = service.run(WS)
    for path, data in written.items():
        assert read(store, path).encode() == data  # nothing the model said was done
    said = " ".join(replies)
    for summary in (plan.summary, record.summary, Journal(home).load().workspaces[WS].summary):
        assert summary not in said and "Viewed" not in summary and "Merged" not in summary
    (run,) = RunsLog(home).runs()
    assert run.summary == record.summary and run.trace_dump is not None
    dumps = [summary.path.read_text(encoding="utf-8") for summary in list_traces(home)]
    assert any(json.dumps(replies[0])[1:40] in dump for dump in dumps)  # its words: there
    if not any(op.applied for op in record.ops):
        assert record.summary.startswith("no changes made (read ")
