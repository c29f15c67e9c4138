"""Consolidation with real HTTP providers (Anthropic and OpenAI wire formats) against the
fake model server: what the model is shown, what lands on disk and in the journal."""

from __future__ import annotations

import dataclasses
import json
import logging

import pytest

from memtab.consolidation.engine.runner import RunLimits
from memtab.consolidation.errors import RunFailedError
from memtab.consolidation.guard import PROJECT_SCOPE_REJECTION
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal

from .helpers import MULTI, PROJECT, WS, Wire, exists, put, read, store_for

TESTING = "/memories/project/testing.md"
TIPS = "/memories/project/test-tips.md"
BUDGET_NOTE = "Mutation budget exhausted (8 per run); stop and summarize."


def seed_duplicates(store: MemoryStore) -> None:
    put(store, TESTING, "---\ndescription: How to test\n---\n# Testing\n\n- make test\n")
    put(store, TIPS, "# Test tips\n\n- make test\n- pytest --lf reruns failures\n")


def view(path: str) -> dict[str, str]:
    return {"command": "view", "path": path}


def test_a_multi_step_run_merges_two_files_and_is_journaled(
    wire: Wire, home: Home, store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seed_duplicates(store)
    wire.memory(view(TESTING), view(TIPS))
    wire.memory(
        {
            "command": "str_replace",
            "path": TESTING,
            "old_str": "- make test\n",
            "new_str": "- make test\n- pytest --lf reruns failures\n",
        }
    )
    wire.memory({"command": "delete", "path": TIPS})
    wire.reply("  Merged test-tips.md into testing.md.\n")

    record = wire.service(home).run(WS)

    # What its tools did, not what the model said it did.
    assert record.summary == "Combined test-tips.md into testing.md."
    assert [(op.command, op.path, op.applied) for op in record.ops] == [
        ("str_replace", TESTING, True),
        ("delete", TIPS, True),
    ]
    assert (record.input_tokens, record.output_tokens) == (40, 20)  # 4 replies × (10, 5)
    assert read(store, TESTING).endswith("- make test\n- pytest --lf reruns failures\n")
    assert not exists(store, TIPS)
    journal = Journal(home).load()
    assert journal.workspaces[WS] == record
    assert journal.projects[PROJECT] == record
    # The model saw one tool, `memory`, with the store's schema, and the file list.
    first = wire.server.requests[0].body
    tools = first["tools"]
    names = [tool.get("name") or tool["function"]["name"] for tool in tools]
    assert names == ["memory"]
    assert "untrusted" in json.dumps(first)
    assert TIPS in json.dumps(first)
    assert wire.tool_results(1)[0][0].startswith("1\t---")
    # The key never reaches the journal or the logs.
    assert wire.key not in home.journal_path.read_text()
    assert wire.key not in caplog.text


@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"rate limited \(HTTP 429\).*retrying")
def test_rate_limited_then_success(wire: Wire, home: Home) -> None:
    wire.server.add_error(429, headers={"retry-after": "0"})
    wire.reply("no changes needed")
    record = wire.service(home).run(WS)
    assert record.summary == "no changes needed" and record.ops == ()
    assert len(wire.server.requests) == 2
    assert Journal(home).load().workspaces[WS] == record


@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*HTTP 500")
@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 500")
@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"HTTP 500.*retrying")
def test_server_errors_past_the_retry_bound_fail_the_run_and_journal_nothing(
    wire: Wire, home: Home
) -> None:
    for _ in range(3):  # one try plus FAST_HTTP.max_retries
        wire.server.add_error(500)
    service = wire.service(home)
    with pytest.raises(RunFailedError) as failure:
        service.run(WS)
    assert failure.value.kind == "error"
    assert "HTTP 500" in str(failure.value)
    assert len(wire.server.requests) == 3
    assert not home.journal_path.exists()


@pytest.mark.expect_log(
    "memtab.consolidation.engine.runner", "WARNING", r"run failed: the consolidation run timed out"
)
def test_a_timeout_fails_the_run_and_journals_only_what_it_applied(
    wire: Wire, home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/workspace/a.md", "a line that stays put\n")
    wire.memory(
        view("/memories/workspace/a.md"),
        {
            "command": "create",
            "path": "/memories/workspace/b.md",
            "file_text": "a line that stays put\n",
        },
    )
    wire.reply("too late", delay=5.0)
    service = wire.service(home, limits=RunLimits(timeout_s=0.5))
    with pytest.raises(RunFailedError) as failure:
        service.run(WS)
    assert failure.value.kind == "timeout"
    assert wire.server.replies_sent == 1, "the late reply was not waited for"
    assert exists(store, "/memories/workspace/b.md")  # what happened, happened
    # ...and the journal says so (issue 19: whatever stops a run, it tells what applied)
    record = failure.value.record
    assert record is not None and [(op.command, op.applied) for op in record.ops] == [
        ("create", True)
    ]
    assert record.summary.startswith("Stopped midway after 1 change of 1 attempted: ")
    assert Journal(home).load().workspaces[WS] == record


def test_malformed_arguments_go_back_to_the_model_and_the_run_continues(
    wire: Wire, home: Home
) -> None:
    wire.reply("", [("memory", '{"command": "view", "path": ')])
    wire.reply("no changes needed")
    record = wire.service(home).run(WS)
    [(content, is_error)] = wire.tool_results(1)
    assert is_error and "Invalid arguments for tool 'memory'" in content
    assert record.summary == "no changes needed" and record.ops == ()


def test_an_unknown_tool_gets_an_error_and_the_run_continues(wire: Wire, home: Home) -> None:
    wire.reply("", [("shell", {"cmd": "rm -rf /"})])
    wire.reply("no changes needed")
    record = wire.service(home).run(WS)
    [(content, is_error)] = wire.tool_results(1)
    assert is_error and "Unknown tool 'shell'" in content
    assert record.ops == ()


def test_pins_scope_and_budget_are_enforced_and_journaled(wire: Wire, home: Home) -> None:
    store = store_for(home, MULTI)
    put(store, "/memories/workspace/pinned.md", "keep me\n", pinned=True)
    put(store, "/memories/global/tools/git.md", "git\n", pinned=True)
    creates = [
        {"command": "create", "path": f"/memories/workspace/new{i}.md", "file_text": "keep me\n"}
        for i in range(9)
    ]
    wire.memory(
        view("/memories/workspace/pinned.md"),
        view("/memories/global/tools"),
        {"command": "delete", "path": "/memories/workspace/pinned.md"},
        {"command": "delete", "path": "/memories/global/tools"},
        {"command": "create", "path": "/memories/project/x.md", "file_text": "x\n"},
        *creates,
    )
    wire.reply("Stopped at the budget.")

    record = wire.service(home).run(MULTI)

    notes = [(op.command, op.path, op.applied, op.note) for op in record.ops]
    assert notes[0][:3] == ("delete", "/memories/workspace/pinned.md", False)
    assert "is pinned" in (notes[0][3] or "")
    assert notes[1][:3] == ("delete", "/memories/global/tools", False)
    assert "contains pinned files (git.md)" in (notes[1][3] or "")
    assert notes[2] == ("create", "/memories/project/x.md", False, PROJECT_SCOPE_REJECTION)
    assert [n[2] for n in notes[3:]] == [True] * 8 + [False]
    assert notes[-1][3] == BUDGET_NOTE
    results = wire.tool_results(1)
    assert results[-1] == (BUDGET_NOTE, True)
    assert exists(store, "/memories/workspace/pinned.md")
    assert exists(store, "/memories/global/tools/git.md")
    assert not home.projects_root.exists()
    assert [exists(store, f"/memories/workspace/new{i}.md") for i in range(9)] == [True] * 8 + [
        False
    ]
    journal = Journal(home).load()
    assert journal.workspaces[MULTI] == record
    assert journal.projects == {}  # no project identity: workspace bucket only
    assert "UNAVAILABLE" in json.dumps(wire.server.requests[0].body)


def test_a_run_that_hits_the_step_cap_is_journaled_with_what_it_did(
    wire: Wire, home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/global/a.md", "alpha\n")
    wire.memory(view("/memories/global/a.md"))
    wire.memory(view("/memories/global/a.md"))
    record = wire.service(home, limits=RunLimits(max_steps=2)).run(WS)
    assert "Stopped after 2 steps" in record.summary
    assert Journal(home).load().workspaces[WS] == record


def test_provider_settings_never_show_the_key(wire: Wire) -> None:
    settings = wire.settings()
    assert wire.key not in repr(settings) and wire.key not in settings.describe()
    assert wire.key not in repr(dataclasses.replace(settings, model="other"))
