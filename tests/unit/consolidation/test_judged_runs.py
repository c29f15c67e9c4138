"""Consolidate now on a server too slow to read the store in the run's time: code proposes,
the model judges (issue 95). Code reads every file (the offline consolidator's plan) and
the model is shown its proposals, numbered, as many as one request holds in the time, and
keeps some with `keep_changes`; each kept change passes the rails a model's own change
passes; the run's summary says what code read and what the model was asked, kept and not
asked. Time is the run's clock, which the fake llama.cpp server moves on as a server
reading and writing at its speed would."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.consolidation.engine.runner import RunLimits
from memtab.llm.pace import SAFETY_SHARE
from memtab.llm.speed import Speed, remember_speed
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from support.fake_model_server import FakeModelServer, RecordedRequest

from .helpers import WS, FakeClock, Wire, put
from .test_run_sized_to_time import LIMIT_MS, SlowLlama, seed

KEEP_CHANGES = "keep_changes"
MEASURED = Speed(10.0, 4.0)
DEPLOY = (
    "# Deploy\n\n- Run `make deploy` from the main branch only.\n"
    "- The staging host is staging.internal, reached over the VPN.\n"
    "- A deploy takes about four minutes.\n"
)
NOTES = "/memories/project/deploy-notes.md"
VAULT = "/memories/project/vault.md"


def seed_proposals(store: MemoryStore) -> None:
    """A store too big to read in the run's time, with two changes code proposes: a note
    and its near copy merged, and a description for a file whose title holds a key (the
    rails refuse that line: it holds a secret)."""
    seed(store)
    put(store, "/memories/project/deploy.md", DEPLOY)
    put(store, NOTES, DEPLOY + "- Deploys are frozen on Fridays.\n")
    put(
        store,
        VAULT,
        "# Vault AKIAZ7QWERTY3UIOPASD\n\n## Rotation\n\n- Keys rotate monthly.\n\n"
        "## Storage\n\n- Keys live under ops/keys.\n",
    )


def exists(store: MemoryStore, path: str) -> bool:
    return store.kind_of(parse_file_path(path)) is not None


class Judge(SlowLlama):
    """A slow llama.cpp server whose model answers `answer` (a keep_changes call's
    arguments, or text)."""

    def __init__(
        self,
        server: FakeModelServer,
        clock: FakeClock,
        answer: dict[str, Any] | str,
        speed: Speed = MEASURED,
    ) -> None:
        super().__init__(server, clock, speed.prompt_per_s, speed.output_per_s)
        self.answer = answer

    def _next_turn(  # type: ignore[override]
        self, messages: list[dict[str, Any]]
    ) -> tuple[str, list[tuple[str, Any]]]:
        if isinstance(self.answer, str):
            return self.answer, []
        return "", [(KEEP_CHANGES, self.answer)]


def run(
    home: Home,
    wire: Wire,
    clock: FakeClock,
    judge: Judge,
    *,
    plan: bool = False,
    limit_s: float = LIMIT_MS / 1000,
) -> tuple[Any, list[RecordedRequest], int]:
    """One Consolidate now (a plan, as the window's review makes, or a run, of `limit_s`):
    what it gave, its requests and its time in ms."""
    started = clock.now
    judge.serve(3)
    service = wire.service(home, clock=clock, limits=RunLimits(timeout_s=limit_s))
    result = service.plan(WS, trigger="manual") if plan else service.run(WS, trigger="manual")
    while wire.server.pending:
        wire.server._script.pop()
    return result, wire.server.requests, clock.now - started


@pytest.fixture
def wire(fake_model_server: FakeModelServer) -> Wire:
    wire = Wire("openai", fake_model_server)
    remember_speed(wire.settings().base_url or "", "gpt-test", Speed(10.0, 4.0))
    return wire


def test_the_model_judges_what_code_proposes_and_the_review_shows_the_kept_change(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed_proposals(store)
    judge = Judge(fake_model_server, clock, {"keep": [1]})

    plan, requests, took_ms = run(home, wire, clock, judge, plan=True)

    (request,) = requests  # one request: the proposals, numbered
    assert took_ms <= LIMIT_MS * (1 - SAFETY_SHARE)
    assert [tool["function"]["name"] for tool in request.body["tools"]] == [KEEP_CHANGES]
    shown = request.body["messages"][-1]["content"]
    assert "1. Edit project/deploy.md: Took 1 item it lacked from project/deploy-notes.md" in shown
    assert "   + - Deploys are frozen on Fridays." in shown
    assert "2. Edit project/vault.md: Added a description" in shown
    assert "AKIAZ7QWERTY3UIOPASD" not in json.dumps(request.body)
    assert "Step 0.1" not in shown  # the files themselves are code's to read
    # the review shows the kept change's text before anything is written
    assert [(op.command, op.path) for op in plan.proposed] == [
        ("insert", "/memories/project/deploy.md"),
        ("delete", NOTES),
    ]
    diffs = "\n".join(file.diff for op in plan.proposed for file in op.files)
    assert "+- Deploys are frozen on Fridays." in diffs
    assert exists(store, NOTES)  # nothing written yet
    assert plan.summary.endswith(
        "(code read every one of the 10 files and proposed 2 changes; "
        "the model was asked about 2 and kept 1)."
    ), plan.summary


def test_a_kept_change_the_rails_refuse_is_refused_and_the_journal_says_why(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed_proposals(store)
    judge = Judge(fake_model_server, clock, {"keep": [2, 1]})

    record, _, took_ms = run(home, wire, clock, judge)

    assert took_ms <= LIMIT_MS * (1 - SAFETY_SHARE)
    assert not exists(store, NOTES)  # the merge was made
    assert "description" not in store.read_text(parse_file_path(VAULT))
    refused = [op for op in record.ops if not op.applied]
    assert [op.path for op in refused] == [VAULT]
    assert refused[0].note is not None and refused[0].note.endswith("it holds a secret")
    assert "1 change refused (the first: refused: the new line" in record.summary
    assert record.summary.endswith("the model was asked about 2 and kept 2)."), record.summary
    (logged,) = RunsLog(home).runs()
    assert logged.summary == record.summary == Journal(home).load().workspaces[WS].summary


def test_nothing_proposed_is_nothing_to_change_the_model_asked_nothing(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed(store)  # too big to read in the time; no copies, nothing to clean
    judge = Judge(fake_model_server, clock, {"keep": [1]})

    record, requests, _ = run(home, wire, clock, judge)

    assert requests == []
    assert record.summary == (
        "no changes needed (code read every one of the 7 files and proposed none: the model "
        "was asked nothing)"
    )
    assert record.ops == ()


@pytest.mark.parametrize(
    "answer",
    [
        "Sure! I would keep the first one because it merges the notes.",
        {"keep": ["all"]},
        {"keep": [7, 0]},
        {"numbers": "1,2"},
    ],
)
def test_a_model_answering_nonsense_changes_nothing_and_the_run_says_so(
    fake_model_server: FakeModelServer,
    home: Home,
    store: MemoryStore,
    clock: FakeClock,
    wire: Wire,
    answer: dict[str, Any] | str,
) -> None:
    seed_proposals(store)
    judge = Judge(fake_model_server, clock, answer)

    record, requests, took_ms = run(home, wire, clock, judge)

    assert len(requests) == 1 and took_ms <= LIMIT_MS * (1 - SAFETY_SHARE)
    assert record.ops == ()
    assert exists(store, NOTES)
    assert record.summary.startswith(
        "no changes made (code read every one of the 10 files and proposed 2 changes; "
        "the model was asked about 2 and "
    ), record.summary
    if isinstance(answer, str):
        assert record.summary.endswith("answered with no keep_changes).")
    elif answer.get("keep") == [7, 0]:
        assert record.summary.endswith("kept 0 (it named 7, 0: not one of the proposed changes)).")


def test_on_a_slower_server_the_model_is_asked_what_the_time_holds_the_rest_left(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed_proposals(store)
    slow = Speed(2.7, 1.6)  # the machine at load 9, its server cold: planned at 2.4, 1.4
    limit = 340.0  # what holds one proposal of the two at that plan
    remember_speed(wire.settings().base_url or "", "gpt-test", slow)
    judge = Judge(fake_model_server, clock, {"keep": [1]}, slow)

    record, requests, took_ms = run(home, wire, clock, judge, limit_s=limit)

    assert took_ms <= limit * 1000 * (1 - SAFETY_SHARE)
    (request,) = requests
    shown = request.body["messages"][-1]["content"]
    assert "1. Edit project/deploy.md" in shown and "2. Edit" not in shown
    assert request.body["tools"][0]["function"]["parameters"]["properties"]["keep"]["maxItems"] == 1
    assert not exists(store, NOTES)
    assert record.summary.endswith(
        "the model was asked about 1 and kept 1; 1 not asked, left for the next run)."
    ), record.summary


def test_with_no_time_to_ask_about_one_change_nothing_is_asked_and_the_run_says_so(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed_proposals(store)
    crawling = Speed(1.0, 0.3)  # not one proposal and its answer in the time: not asked
    remember_speed(wire.settings().base_url or "", "gpt-test", crawling)
    judge = Judge(fake_model_server, clock, {"keep": [1]}, crawling)

    record, requests, _ = run(home, wire, clock, judge)

    assert requests == [] and record.ops == ()
    assert record.summary.startswith(
        "no changes made (code read every one of the 10 files and proposed 2 changes; no time "
        "to ask the model about one (270 s left at 0.6 tokens/s read, 0.2 written): left for "
        "the next run)"
    ), record.summary


def test_a_change_declined_in_review_is_not_shown_to_the_model_again(
    fake_model_server: FakeModelServer, home: Home, store: MemoryStore, clock: FakeClock, wire: Wire
) -> None:
    seed_proposals(store)
    first, _, _ = run(home, wire, clock, Judge(fake_model_server, clock, {"keep": [1]}), plan=True)
    wire.service(home, clock=clock).apply_plan(first, accepted=set())  # the merge declined

    again, requests, _ = run(
        home, wire, clock, Judge(fake_model_server, clock, {"keep": [1]}), plan=True
    )

    shown = requests[-1].body["messages"][-1]["content"]
    assert "deploy" not in shown  # the declined merge, its files unchanged
    assert "1. Edit project/vault.md: Added a description" in shown
    assert exists(store, NOTES)
    assert again.summary.endswith(
        "proposed 1 change; the model was asked about 1 and kept 1; "
        "1 change you declined before not proposed again)."
    ), again.summary
