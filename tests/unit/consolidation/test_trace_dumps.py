"""A consolidation run leaves a trace dump as the writer's runs do (issue 82): a model's
run or the offline consolidator's, whatever its end (issue 96: offline runs left none); the
Traces view and `memtab traces` read it, the runs log and the CLI name it."""

from __future__ import annotations

import json
import stat

import pytest

from memtab.cli.main import main
from memtab.components.traces import dump_header
from memtab.consolidation.errors import RunFailedError
from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply, ProviderError, ToolCall
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.traces.catalog import list_traces
from memtab.traces.outcome import Outcome
from memtab.traces.reader import parse_trace
from support.scripted_provider import ScriptedProvider

from .helpers import WS, Wire, put, read

PROSE = "I merged every file and deleted the duplicates."


def test_a_model_run_leaves_a_dump_with_what_it_said_and_what_its_tools_did(
    home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/project/a.md", "- alpha\n- stale\n")
    view = ToolCall("1", "memory", {"command": "view", "path": "/memories/project/a.md"})
    edit = ToolCall(
        "2",
        "memory",
        {"command": "str_replace", "path": "/memories/project/a.md", "old_str": "- stale\n",
         "new_str": ""},
    )  # fmt: skip
    replies = [ModelReply("", (view,)), ModelReply("", (edit,)), ModelReply(PROSE)]
    service = ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(replies))
    record = service.run(WS, run_id="run-dumped")
    (summary,) = list_traces(home)
    assert summary.kind == "consolidation" and summary.outcome is Outcome.CHANGED_MEMORY
    assert summary.path.parent == home.consolidation_trace_dir(WS)
    assert stat.S_IMODE(summary.path.stat().st_mode) == 0o600
    dump = parse_trace(summary.path)
    assert dump.record.summary == record.summary == "Removed 1 line from a.md."
    assert dump.record.run_id == "run-dumped" and dump.record.trigger == "manual"
    (attempt,) = dump.attempts
    assert [call.name for call in attempt.record.tool_executions] == ["memory", "memory"]
    assert PROSE in json.dumps(attempt.record.step_results)  # its words: here, not the journal
    assert "Consolidate the memory below." in (dump.record.user_message or "")
    header = dump_header(dump, "main")
    assert header.title == "Consolidation · Changed memory · main"
    assert header.fields["policy"].text == "— (a writer's)"  # not "older dump": it has none
    (run,) = RunsLog(home).runs()
    assert run.trace_dump == summary.path.name


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: HTTP 500")
@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: HTTP 500")
def test_a_model_that_fails_leaves_a_dump_the_failure_and_the_runs_log_name(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    failing = ScriptedProvider(fail=ProviderError("server", "HTTP 500 from the model server"))
    service = ConsolidationService(home, provider_factory=lambda _: failing)
    with pytest.raises(RunFailedError) as failure:
        service.run(WS)
    path = failure.value.trace_path
    assert path is not None and path.parent == home.consolidation_trace_dir(WS)
    (summary,) = list_traces(home, WS)
    assert summary.outcome is Outcome.PROVIDER_ERROR
    assert summary.error == "HTTP 500 from the model server"
    (run,) = RunsLog(home).runs()
    assert run.failed and run.trace_dump == path.name
    assert main(["--home", str(home.root), "runs"]) == 0
    assert f"trace: {path}" in capsys.readouterr().out


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 401")
@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*HTTP 401")
def test_the_cli_names_a_failed_runs_dump_and_the_dump_hides_the_key(
    wire: Wire, home: Home, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_API_KEY", wire.key)  # the fake server is no official host
    wire.server.add_error(401)
    settings = wire.settings()
    arguments = ["--provider", settings.provider, "--model", settings.model]
    arguments += ["--base-url", settings.base_url or ""]
    status = main(["--home", str(home.root), "consolidate", "--workspace", WS, *arguments])
    err = capsys.readouterr().err
    (summary,) = list_traces(home)
    assert status == 1 and f"Trace: {summary.path}" in err
    assert "HTTP 401" in summary.error
    assert wire.key not in summary.path.read_text()


def test_a_model_sees_memory_redacted_its_edit_keeps_the_secret_and_the_dump_holds_none(
    home: Home, store: MemoryStore
) -> None:
    secret = "- prod DB password: hunter22x\n<private>the deploy key lives in 1Password</private>\n"
    put(store, "/memories/project/db.md", f"# DB\n{secret}- stale\n")
    view = ToolCall("1", "memory", {"command": "view", "path": "/memories/project/db.md"})
    shown = "- prod DB password: [REDACTED_SECRET]\n[REDACTED_SECRET]\n- stale\n"
    edit = ToolCall(
        "2",
        "memory",
        {"command": "str_replace", "path": "/memories/project/db.md", "old_str": shown,
         "new_str": shown.replace("- stale\n", "")},
    )  # fmt: skip
    model = ScriptedProvider([ModelReply("", (view,)), ModelReply("", (edit,)), ModelReply("")])
    record = ConsolidationService(home, provider_factory=lambda _: model).run(WS)
    assert record.applied_count == 1
    (result,) = model.messages[1][-1].results  # type: ignore[union-attr]
    assert "hunter22x" not in result.content and "1Password" not in result.content
    assert "prod DB password: [REDACTED_SECRET]" in result.content
    assert read(store, "/memories/project/db.md") == f"# DB\n{secret}"
    (summary,) = list_traces(home)
    dump = summary.path.read_text(encoding="utf-8")
    assert "hunter22x" not in dump and "1Password" not in dump
