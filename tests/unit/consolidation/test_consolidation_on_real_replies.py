"""Consolidate now on the three real stores with what real local models answered (issue
82): Qwen2.5-Coder on llama-server, replies recorded and replayed leniently (the rails
may answer the model otherwise than when it was recorded). The plan and the journal say
what the run's tools did, never the model's claims ("Viewed …", "Merged MEMORY.md into
…"), which stay in the trace dump; a change is proposed only to a file the run read, and
none loses a line without saying so (the 0.5B deleted MEMORY.md and created it empty)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.consolidation.service import ConsolidationService
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import Workspace
from memtab.store.text.content_lines import content_lines
from memtab.traces.catalog import list_traces
from quality.stores import REAL_STORES, RealStore, install
from support.real_model import CASSETTES as CASSETTE_DIR
from support.real_model import STORE_FIXTURES, fixture_home, lay_out_store
from support.recorded_replies import Replay, cassette_replies, recorded

from .helpers import WS, read

RECORDINGS = [
    "consolidation/qwen2.5-coder-1.5b.json",
    "consolidation/qwen2.5-coder-1.5b-run2.json",
    "consolidation/qwen2.5-coder-0.5b.json",
]
SCOPES = {"codex-memories": Scope.PROJECT, "claude-code-auto-memory": Scope.PROJECT}
RUNS = [(name, store) for name in RECORDINGS for store in recorded(name)]
STORES = {store.folder: store for store in STORE_FIXTURES}


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


def test_a_file_created_with_a_chat_templates_marker_alone_is_refused(tmp_path: Path) -> None:
    # Qwen2.5-Coder 1.5B viewed five lines of Codex's memory_summary.md, then created
    # user_profile.md holding "<tool_response>" and nothing else (issue 82).
    replies = recorded("consolidation/qwen2.5-coder-1.5b-run2.json")["codex-memories"]
    assert '"file_text": "<tool_response>"' in replies[1]
    home, workspace = fixture_home(tmp_path / "home")
    lay_out_store(home, workspace, STORES["memory-stores/codex-memories"])
    model = Replay(list(replies))
    plan = ConsolidationService(home, provider_factory=lambda _: model).plan(workspace.id)
    assert not plan.proposed
    [create] = plan.ops
    assert create.path == "/memories/project/user_profile.md" and not create.proposed
    assert create.note == "refused: the new line “<tool_response>”: it says nothing"
    assert plan.summary.startswith("no changes made (read 1 of the 4 files)"), plan.summary


CASSETTES = sorted(CASSETTE_DIR.glob("*/consolidate-*.json"))


@pytest.mark.parametrize("path", CASSETTES, ids=[f"{p.parent.name}-{p.stem}" for p in CASSETTES])
def test_a_recorded_plan_changes_only_what_it_read_says_what_it_did_and_loses_nothing_unsaid(
    tmp_path: Path, path: Path
) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    home, workspace = fixture_home(tmp_path / "home")
    lay_out_store(home, workspace, STORES[data["store"]])
    replies = cassette_replies(path)
    model = Replay(list(replies))
    plan = ConsolidationService(home, provider_factory=lambda _: model).plan(workspace.id)
    said = {reply.text.strip() for reply in replies if reply.text.strip()}
    assert plan.summary not in said
    viewed: set[str] = set()
    for sent in model.sent:
        for message in sent:
            for call in getattr(message, "tool_calls", ()):
                arguments = call.arguments or {}
                if arguments.get("command") == "view" and isinstance(arguments.get("path"), str):
                    viewed.add(arguments["path"])
    for op in plan.proposed:
        if op.command != "create":
            assert op.path in viewed, (op.path, viewed)
    before = memory_lines(home, workspace)
    service = ConsolidationService(home, provider_factory=lambda _: model)
    service.apply_plan(plan)  # every op the plan proposes, accepted
    removed = set().union(
        *(
            content_lines(op.arguments["old_str"]) - content_lines(op.arguments["new_str"])
            for op in plan.proposed
            if op.command == "str_replace"  # said: "Removed 2 lines from …"
        )
    )
    assert before - memory_lines(home, workspace) <= removed


def memory_lines(home: Home, workspace: Workspace) -> set[str]:
    """Every content line of the workspace's memory."""
    store = MemoryStore(home, workspace)
    return set().union(
        *(
            content_lines(store.read(file.path).content)
            for listing in store.list_all()
            for file in listing.files
        )
    )
