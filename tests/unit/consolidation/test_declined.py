"""A change declined in review is not proposed again until its files change
(docs/formats.md §9.7) — on a real store, with the offline consolidator."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from memtab.consolidation.declined import declined_path, load_declined
from memtab.consolidation.records import DECLINED_NOTE, ConsolidationPlan
from memtab.consolidation.service import ConsolidationService
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ModelReply, ToolCall, UserMessage
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from quality.stores import CLAUDE, CODEX, LOKI, install, real_files
from support.scripted_provider import ScriptedProvider

from .helpers import WS

OFFLINE = ProviderSettings("offline", "offline", "")
DUPLICATE = "/memories/workspace/reference_vercel-cli-rest-api.md"
"""The Claude note saved twice: its workspace copy, which the offline consolidator deletes."""


def install_real_stores(store: MemoryStore) -> None:
    """Codex's, Claude Code's and loki's real memory, a Claude note saved twice."""
    for real in (CODEX, CLAUDE, LOKI):
        install(store, real)
    text = real_files(CLAUDE)["reference_vercel-cli-rest-api.md"].decode()
    (store.root(Scope.WORKSPACE) / "reference_vercel-cli-rest-api.md").write_text(
        text.split("---\n", 2)[2]
    )


def proposed_paths(plan: ConsolidationPlan) -> list[str]:
    return [op.path for op in plan.proposed]


def held_back(plan: ConsolidationPlan) -> list[str]:
    return [op.path for op in plan.ops if (op.note or "").startswith(DECLINED_NOTE)]


def test_a_declined_change_is_not_proposed_again_until_its_file_changes(
    home: Home, store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    install_real_stores(store)
    service = ConsolidationService(home, settings=OFFLINE)
    plan = service.plan(WS)
    assert DUPLICATE in proposed_paths(plan) and len(plan.units) >= 2
    declined = next(op for op in plan.proposed if op.path == DUPLICATE)
    service.apply_plan(plan, [op.index for op in plan.proposed if op is not declined])
    (written,) = load_declined(home)
    assert (written.path, written.command) == (DUPLICATE, "delete")
    assert written.scope_key == f"workspace:{WS}"

    # The next plan, and a run applied directly, leave it out; the plan says why.
    again = service.plan(WS)
    assert DUPLICATE not in proposed_paths(again) and held_back(again) == [DUPLICATE]
    assert "1 change you declined before is not proposed again" in again.summary
    duplicate = store.physical(parse_file_path(DUPLICATE))
    before = duplicate.read_bytes()
    direct = service.run(WS)
    assert duplicate.read_bytes() == before
    assert [op.path for op in direct.ops if op.applied] == []

    # `memtab declined` shows it; once the file changes it is proposed again.
    assert main(["--home", str(home.root), "declined", "--workspace", WS, "--json"]) == 0
    (shown,) = json.loads(capsys.readouterr().out)["declined"]
    assert shown["path"] == DUPLICATE and shown["description"] == declined.description
    duplicate.write_bytes(before.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n")  # a line less
    assert DUPLICATE in proposed_paths(service.plan(WS))
    assert main(["--home", str(home.root), "declined", "--workspace", WS, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["declined"] == []


def test_forgetting_the_declines_proposes_them_again(
    home: Home, store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    install_real_stores(store)
    service = ConsolidationService(home, settings=OFFLINE)
    plan = service.plan(WS)
    service.apply_plan(plan, [op.index for op in plan.proposed if op.path != DUPLICATE])
    assert DUPLICATE not in proposed_paths(service.plan(WS))
    assert main(["--home", str(home.root), "declined", "--workspace", WS, "--forget"]) == 0
    assert capsys.readouterr().out == "Forgot 1 declined change\n"
    assert DUPLICATE in proposed_paths(service.plan(WS))
    assert json.loads(declined_path(home).read_text()) == {"declined": []}


def test_a_plan_applied_whole_declines_nothing(home: Home, store: MemoryStore) -> None:
    install_real_stores(store)
    service = ConsolidationService(home, settings=OFFLINE)
    service.apply_plan(service.plan(WS))
    assert load_declined(home) == () and not declined_path(home).exists()


def test_a_model_is_told_what_was_declined_and_cannot_make_it_again(
    home: Home, store: MemoryStore
) -> None:
    install_real_stores(store)
    offline = ConsolidationService(home, settings=OFFLINE)
    plan = offline.plan(WS)
    declined = next(op for op in plan.proposed if op.path == DUPLICATE)
    offline.apply_plan(plan, [op.index for op in plan.proposed if op is not declined])
    call = ToolCall("1", "memory", {"command": "delete", "path": DUPLICATE})
    model = ScriptedProvider([ModelReply("", (call,)), ModelReply("deleted the duplicate")])
    record = ConsolidationService(home, provider_factory=lambda _: model).run(WS)
    (op,) = record.ops
    assert not op.applied and (op.note or "").startswith(DECLINED_NOTE)
    assert store.physical(parse_file_path(DUPLICATE)).exists()
    (first, *_) = model.messages[0]
    message = first.text if isinstance(first, UserMessage) else ""
    assert "The user declined these changes in review" in message
    assert f"- {declined.description}" in message
