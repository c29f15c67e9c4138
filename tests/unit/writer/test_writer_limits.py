"""Which limit ended a writer run, said in its result: the run's own (`writer.timeout_s`)
or one request's (`request_timeout_s`); either is `timedOut`, never "No reply" beside
`timedOut: false` (issue 82)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memtab.llm.openai import OpenAIProvider
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.reader import read_transcript
from memtab.writer.config import WriterSettings
from memtab.writer.job.run import run_writer
from support.fake_model_server import FakeModelServer

from .conftest import FAST
from .helpers import mux_message, write_chat


@pytest.fixture
def events(home: Home, workspace: Workspace, tmp_path: Path) -> list[TranscriptEvent]:
    path = home.transcript_path(workspace.id)
    write_chat(path, [mux_message("u1", "user", "Tests run with `bun test`.", sequence=0)])
    return read_transcript(path, "mux").events


@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: No reply within 0.3 s")
@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", r"Memory writer failed: timed out: no")
def test_a_request_past_its_own_limit_is_a_timeout_naming_the_setting_that_raises_it(
    fake_model_server: FakeModelServer,
    home: Home,
    workspace: Workspace,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_openai_reply("late", delay=10)
    options = replace(
        FAST, timeout_s=0.3, timeout_hint="request_timeout_s in settings.json raises it"
    )
    with OpenAIProvider("qwen", None, fake_model_server.openai_base_url, options=options) as model:
        result = run_writer(home, workspace, events, model, settings=WriterSettings(timeout_s=60))
    assert result.outcome == "failed" and result.timed_out
    assert result.error == (
        "timed out: no reply within 0.3 s, the time limit of one request; "
        "request_timeout_s in settings.json raises it (step 1)"
    )
    assert result.to_json()["timedOut"] is True


@pytest.mark.expect_log(
    "memtab.writer.job.run", "WARNING", r"Memory writer failed: timed out after"
)
def test_the_runs_own_limit_names_writer_timeout_s(
    fake_model_server: FakeModelServer,
    home: Home,
    workspace: Workspace,
    events: list[TranscriptEvent],
) -> None:
    fake_model_server.add_openai_reply("late", delay=10)
    with OpenAIProvider("qwen", None, fake_model_server.openai_base_url, options=FAST) as model:
        result = run_writer(home, workspace, events, model, settings=WriterSettings(timeout_s=1))
    assert result.timed_out
    assert result.error == (
        "timed out after 1 s, the run's time limit; writer.timeout_s in settings.json "
        "(memtab write --timeout) raises it (step 1)"
    )
