"""The consolidator's rails (issue 82): a merge moves what memory says; new text that
invents a rule, words in the user's mouth or a fact no file states is refused whole,
named in the refusal and the journal, and the file is left as it was."""

from __future__ import annotations

from memtab.consolidation.engine.runner import UNHEARD, UNSTATED_RULE
from memtab.consolidation.guard import DELETE_RULE, EMPTY_RULE, REWRITE_RULE, SAME_TEXT
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


def test_no_file_is_created_empty_over_a_file_or_where_the_run_deleted_one(
    home: Home, store: MemoryStore
) -> None:
    # Qwen2.5-Coder 0.5B on a Claude Code store: create MEMORY.md (it exists) — told to
    # delete it first, it did, then created it empty, its 40 lines gone.
    seed(store)
    put(store, "/memories/project/old/a.md", "- Use pnpm, not npm\n")
    ops = run(
        home,
        memory("1", command="create", path=A, file_text="- Use pnpm, not npm\n"),
        memory("2", command="delete", path=A),
        memory("3", command="create", path=A, file_text=""),
        memory("4", command="create", path=A, file_text="- Use pnpm, not npm\n"),
        memory("5", command="create", path="/memories/project/c.md", file_text="# Notes\n\n"),
    )
    assert ops == [
        ("create", False, f"{A} exists: {REWRITE_RULE}"),
        ("delete", True, None),
        ("create", False, f"{A} was deleted in this run: {REWRITE_RULE}"),
        ("create", False, f"{A} was deleted in this run: {REWRITE_RULE}"),
        ("create", False, f"/memories/project/c.md would hold no memory: {EMPTY_RULE}"),
    ]
    assert not exists(store, A) and not exists(store, "/memories/project/c.md")


def test_no_file_is_deleted_while_it_holds_a_line_no_other_file_holds(
    home: Home, store: MemoryStore
) -> None:
    # What the 0.5B did next: deleted MEMORY.md, the store's index, kept nowhere else.
    seed(store)
    put(store, "/memories/project/c.md", "# Tools\n- Use pnpm, not npm\n")
    put(store, "/memories/project/old/d.md", "- Deploys go through Fly.io\n")
    tabs = "(“- The user prefers tabs in Go files”)"
    ops = run(
        home,
        memory("1", command="delete", path=B),
        memory("v", command="view", path="/memories/project/old"),
        memory("2", command="delete", path="/memories/project/old"),
        memory(
            "3", command="str_replace", path=B, old_str="- `pnpm test` runs the suite\n", new_str=""
        ),
        memory("4", command="delete", path=B),
        memory("5", command="delete", path=A),
    )
    assert ops == [
        ("delete", False, f"{B} holds 2 lines no other memory file holds {tabs}: {DELETE_RULE}"),
        (
            "delete",
            False,
            "/memories/project/old holds 1 line no other memory file holds "
            f"(“- Deploys go through Fly.io”): {DELETE_RULE}",
        ),
        ("str_replace", True, None),
        ("delete", False, f"{B} holds 1 line no other memory file holds {tabs}: {DELETE_RULE}"),
        ("delete", True, None),
    ]
    assert exists(store, B) and exists(store, "/memories/project/old/d.md")
    assert not exists(store, A)
