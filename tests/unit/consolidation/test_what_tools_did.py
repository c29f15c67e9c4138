"""A model's consolidation is recorded by what its tools did, never by what the model
said (issue 82): the journal, the runs log and the footer read the run's ops, and a
change to a file the run has not read is refused."""

from __future__ import annotations

from memtab.consolidation.guard import READ_FIRST_RULE
from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply, ToolCall
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from quality.stores import CODEX, install
from support.scripted_provider import ScriptedProvider

from .helpers import WS, exists, put, read

# What the 0.5B model answered on the Codex store (issue 82): no tool call, only prose.
PROSE_PLAN = (
    "delete /memories/project/memory_summary.md; delete /memories/project/MEMORY.md; "
    "delete /memories/project/rollout_summaries"
)


def memory(call_id: str, **arguments: object) -> ToolCall:
    return ToolCall(call_id, "memory", dict(arguments))


def run_with(home: Home, replies: list[ModelReply]) -> ConsolidationService:
    return ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(replies))


def test_a_model_that_only_talks_is_journaled_as_changing_nothing_and_reading_nothing(
    home: Home, store: MemoryStore
) -> None:
    written = install(store, CODEX, scope=Scope.PROJECT, derived=False)
    record = run_with(home, [ModelReply(PROSE_PLAN)]).run(WS)
    summary = f"no changes made (read none of the {len(written)} files)."
    assert record.ops == () and record.summary == summary
    assert Journal(home).load().workspaces[WS].summary == summary
    (run,) = RunsLog(home).runs()
    assert run.summary == summary and "delete" not in run.summary
    for path in written:
        assert exists(store, path)


def test_a_change_to_a_file_the_run_has_not_read_is_refused_and_said(
    home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/project/a.md", "- alpha\n")
    put(store, "/memories/project/b.md", "- beta\n")
    delete_a = memory("1", command="delete", path="/memories/project/a.md")
    create = memory("2", command="create", path="/memories/project/c.md", file_text="- c\n")
    record = run_with(home, [ModelReply("", (delete_a, create)), ModelReply(PROSE_PLAN)]).run(WS)
    assert [(op.command, op.applied) for op in record.ops] == [
        ("delete", False),
        ("create", False),
    ]
    assert READ_FIRST_RULE in (record.ops[0].note or "")
    assert "has read no memory file yet" in (record.ops[1].note or "")
    assert exists(store, "/memories/project/a.md") and not exists(store, "/memories/project/c.md")
    assert record.summary == (
        "no changes made (read none of the 2 files); 2 changes refused (the first: "
        f"/memories/project/a.md was not read in this run: {READ_FIRST_RULE})."
    )


def test_what_a_model_changed_after_reading_is_said_in_words_not_its_own(
    home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/project/a.md", "- alpha\n- stale\n")
    put(store, "/memories/project/b.md", "- beta\n")
    replies = [
        ModelReply("", (memory("1", command="view", path="/memories/project/a.md"),)),
        ModelReply(
            "",
            (
                memory(
                    "2", command="str_replace", path="/memories/project/a.md",
                    old_str="- stale\n", new_str="",
                ),
                memory("3", command="delete", path="/memories/project/b.md"),
            ),
        ),
        ModelReply("Merged everything into one tidy file and fixed every description."),
    ]  # fmt: skip
    record = run_with(home, replies).run(WS)
    assert read(store, "/memories/project/a.md") == "- alpha\n"
    assert exists(store, "/memories/project/b.md")  # never read: not deleted
    assert record.summary == (
        "Removed 1 line from a.md; 1 change refused (the first: /memories/project/b.md "
        f"was not read in this run: {READ_FIRST_RULE})."
    )
    (run,) = RunsLog(home).runs()
    assert run.summary == record.summary


def test_a_model_that_only_talks_is_reminded_once_of_the_tool_and_then_reads(
    home: Home, store: MemoryStore
) -> None:
    put(store, "/memories/project/a.md", "- alpha\n- alpha\n")
    view = memory("1", command="view", path="/memories/project/a.md")
    edit = memory(
        "2", command="str_replace", path="/memories/project/a.md",
        old_str="- alpha\n- alpha\n", new_str="- alpha\n",
    )  # fmt: skip
    model = ScriptedProvider(
        [ModelReply(PROSE_PLAN), ModelReply("", (view,)), ModelReply("", (edit,)), ModelReply("")]
    )
    record = ConsolidationService(home, provider_factory=lambda _: model).run(WS)
    assert read(store, "/memories/project/a.md") == "- alpha\n"
    assert record.summary == "Removed 1 line from a.md."
    reminder = model.messages[1][-1]
    assert "nothing was read or changed yet" in getattr(reminder, "text", "")
