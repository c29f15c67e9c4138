"""A scripted model asked as a server on this machine is asked (by schema): the lessons task."""

from __future__ import annotations

from typing import Any

from memtab.llm.types import ModelReply, ToolCall
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.offline.findings import Findings
from support.scripted_provider import ScriptedProvider

NOTES = "/memories/workspace/notes.md"


class LocalModel(ScriptedProvider):
    """A scripted model served as a server on this machine serves one: asked by schema."""

    structured = "calls"

    def __init__(self, replies: list[ModelReply]) -> None:
        super().__init__(replies)
        self.tools: list[list[str]] = []

    def complete(self, system: str, messages: Any, tools: Any, *, cancel: Any = None) -> Any:
        self.tools.append([tool.name for tool in tools])
        return super().complete(system, messages, tools, cancel=cancel)


def lessons_alone() -> Findings:
    """What a run is told the offline writer found: nothing, so what it writes is the model's
    lessons alone (a usable answer adds to the offline notes: `test_writer_fallback`)."""
    return Findings()


def record(*lessons: dict[str, str], call_id: str = "l1") -> ModelReply:
    """A reply calling `record_lessons` once with `lessons`."""
    call = ToolCall(call_id, "record_lessons", {"lessons": list(lessons)})
    return ModelReply("", (call,), "tool_use")


def lesson(kind: str, text: str, evidence: str) -> dict[str, str]:
    return {"kind": kind, "lesson": text, "evidence": evidence}


def notes(home: Home, workspace: Workspace) -> str:
    return MemoryStore(home, workspace).read(parse_file_path(NOTES)).content


def forget_notes(home: Home, workspace: Workspace) -> None:
    MemoryStore(home, workspace).delete(parse_file_path(NOTES), allow_unkept=True)
