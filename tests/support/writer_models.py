"""Writer runs without a model: a scripted model, the offline writer, the demo transcript."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from memtab.demo import demo_transcript
from memtab.llm.types import Message, ModelReply, ToolCall, ToolSpec
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import WriterSettings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run, read_for_run
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.run import load_writer_events, run_writer
from memtab.writer.tools import MEMORY_READ, MEMORY_WRITE

DEMO_NOW = 1_800_000_000_000


class WritingModel:
    """A model that reads the (empty) memory file, then writes `content` as the whole file."""

    name = "scripted"
    model = "scripted-model"

    def __init__(self, content: str) -> None:
        self.content = content

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        if len(messages) == 1:
            return ModelReply("", (ToolCall("c1", MEMORY_READ, {}),), stop_reason="tool_use")
        write = {"old_string": "", "new_string": self.content}
        return ModelReply("", (ToolCall("c2", MEMORY_WRITE, write),), stop_reason="tool_use")


def write_demo_transcript(home: Home, workspace_id: str) -> Path:
    """The demo's mux session as the workspace's transcript (user-0001 … assistant-0002)."""
    path = home.transcript_path(workspace_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(m) + "\n" for m in demo_transcript(DEMO_NOW)))
    return path


def run_offline(
    home: Home, workspace: Workspace, transcript: Path, settings: WriterSettings
) -> tuple[WriterRunResult, OfflineWriterProvider]:
    """A run of the offline writer over a mux transcript, as the app makes one."""
    provider = OfflineWriterProvider()
    events, whole = read_for_run(provider, transcript, "mux")
    bound = bind_to_run(provider, home, workspace, events.budget, settings, whole)
    result = run_writer(
        home, workspace, events, bound, settings=settings, transcript_path=transcript
    )
    assert isinstance(bound, OfflineWriterProvider)
    return result, bound


def run_model(
    home: Home,
    workspace: Workspace,
    transcript: Path,
    content: str,
    settings: WriterSettings | None = None,
) -> WriterRunResult:
    """A run in which a model writes `content` as the whole memory file."""
    events = load_writer_events(transcript, "mux")
    return run_writer(
        home,
        workspace,
        events,
        WritingModel(content),
        settings=settings,
        transcript_path=transcript,
    )
