"""The consolidator's rails (issue 82): a merge moves what memory says; new text that
invents a rule, words in the user's mouth or a fact no file states is refused whole,
named in the refusal and the journal, and the file is left as it was."""

from __future__ import annotations

from memtab.consolidation.guard import SAME_TEXT
from memtab.consolidation.rails import UNHEARD, UNSTATED_RULE
from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply, ToolCall
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.rails import PUTS_WORDS_IN_THE_USERS_MOUTH
from support.scripted_provider import ScriptedProvider

from .helpers import WS, exists, put, read

A = "/memories/project/a.md"
B = "/memories/project/b.md"


def memory(call_id: str, **arguments: object) -> ToolCall:
    return ToolCall(call_id, "memory", dict(arguments))


def seed(store: MemoryStore) -> None:
    put(store, A, "# Tools\n- Use pnpm, not npm\n")
    put(store, B, "# Prefs\n- The user prefers tabs in Go files\n- `pnpm test` runs the suite\n")


def run(home: Home, *calls: ToolCall) -> list[tuple[str, bool, str | None]]:
    views = (memory("v1", command="view", path=A), memory("v2", command="view", path=B))
    replies = [ModelReply("", views), ModelReply("", calls), ModelReply("Merged.")]
    record = ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(replies)).run(
        WS
    )
    return [(op.command, op.applied, op.note) for op in record.ops]


def edit(call_id: str, new: str) -> ToolCall:
    return memory(
        call_id, command="str_replace", path=A, old_str="- Use pnpm, not npm\n", new_str=new
    )


def test_a_merge_that_moves_lines_goes_through(home: Home, store: MemoryStore) -> None:
    seed(store)
    moved = (
        "- Use pnpm, not npm\n- The user prefers tabs in Go files\n- `pnpm test` runs the suite\n"
    )
    ops = run(home, edit("e", moved), memory("d", command="delete", path=B))
    assert [(command, applied) for command, applied, _ in ops] == [
        ("str_replace", True),
        ("delete", True),
    ]
    assert read(store, A) == f"# Tools\n{moved}"


def test_new_text_no_file_states_is_refused_whole_and_named(home: Home, store: MemoryStore) -> None:
    seed(store)
    ops = run(
        home,
        edit("1", "- Use pnpm, not npm\n- Always squash-merge pull requests\n"),
        edit("2", "- Use pnpm, not npm\n- The user prefers rebasing over merging\n"),
        edit("3", "- Use pnpm, not npm\n- The project deploys to Kubernetes with Helm charts\n"),
    )
    assert [applied for _, applied, _ in ops] == [False, False, False]
    notes = [note or "" for _, _, note in ops]
    assert notes[0] == (
        f"refused: the new line “- Always squash-merge pull requests”: {UNSTATED_RULE}"
    )
    assert notes[1].endswith(PUTS_WORDS_IN_THE_USERS_MOUTH)
    assert notes[2].endswith(UNHEARD)
    assert read(store, A) == "# Tools\n- Use pnpm, not npm\n" and exists(store, B)


def test_a_replace_that_changes_nothing_is_refused(home: Home, store: MemoryStore) -> None:
    # Qwen2.5-Coder 1.5B replaced a line of the Codex store by itself, four times.
    seed(store)
    ops = run(home, edit("1", "- Use pnpm, not npm\n"))
    assert ops == [("str_replace", False, SAME_TEXT)]
