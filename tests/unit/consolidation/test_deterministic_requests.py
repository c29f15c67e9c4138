"""Consolidate now asks the model at temperature 0 (issue 95): the same store gives the same
plan, on each wire, every request of a run."""

from __future__ import annotations

from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore

from .helpers import WS, Wire, put

TESTING = "/memories/project/testing.md"


def test_every_request_of_a_run_asks_for_temperature_0(
    wire: Wire, home: Home, store: MemoryStore
) -> None:
    put(store, TESTING, "# Testing\n\n- make test\n")
    wire.memory({"command": "view", "path": "/memories"}, {"command": "view", "path": TESTING})
    wire.reply("Nothing to change: testing.md says one thing once.")
    wire.service(home).run(WS)
    temperatures = [request.body.get("temperature") for request in wire.server.requests]
    assert temperatures == [0.0, 0.0]
