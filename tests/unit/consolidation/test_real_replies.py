"""Consolidate now on the fixture stores, replaying what a real model answered.

`scripts/real-model --record` asked Qwen2.5-Coder (served by llama.cpp's `llama-server`
on one CPU thread) for a plan, as the window's review-first run does, on each store of
tests/support/real_model.py laid out in a project scope, and kept each reply
(tests/fixtures/real-model/). Replayed here through the real provider, tool loop, guard
and plan — only the network is the cassette — each plan proposes what it proposed then."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.consolidation.engine.runner import RunLimits
from memtab.consolidation.errors import ConsolidationError
from memtab.consolidation.service import ConsolidationService
from memtab.llm.http import HttpOptions
from memtab.llm.settings import ProviderSettings
from support.ports import refused_port
from support.real_model import (
    STORE_FIXTURES,
    CassetteTransport,
    cassette_params,
    fixture_home,
    lay_out_store,
)

_STORES = {store.folder: store for store in STORE_FIXTURES}


@pytest.mark.parametrize(
    "path",
    cassette_params(
        "consolidation", "memtab.consolidation.engine.runner", "consolidation run failed"
    ),
)
def test_a_recorded_plan_replays_to_the_same_proposals(path: Path, tmp_path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    home, workspace = fixture_home(tmp_path / "home")
    assert lay_out_store(home, workspace, _STORES[data["store"]]) == data["files"]
    transport = CassetteTransport(data["exchanges"])
    try:
        with refused_port() as port:  # a server running here is not the one recorded
            service = ConsolidationService(
                home,
                settings=ProviderSettings("openai", "qwen", f"http://127.0.0.1:{port}/v1"),
                http_options=HttpOptions(transport=transport, max_retries=0),
                limits=RunLimits(timeout_s=data["runLimitS"]),
            )
            plan = service.plan(workspace.id, trigger="manual")
    except ConsolidationError as error:
        assert (data["outcome"], data["error"]) == ("failed", str(error))
    else:
        ops = [
            {"description": op.description, "proposed": op.proposed, "note": op.note}
            for op in plan.ops
        ]
        assert (data["outcome"], data["summary"], data["ops"]) == ("planned", plan.summary, ops)
    assert transport.used == len(transport.exchanges), "every recorded reply was asked for"
