"""memory_read / memory_write (compare-and-swap) / no_new_memories over the store."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.llm.types import ToolCall, ToolOutcome
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore, SaveResult
from memtab.store.sidecars.meta import workspace_key
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.tools import (
    EMPTY_OLD_STRING,
    OLD_STRING_IN_EMPTY_FILE,
    STALE_CHANGED,
    STALE_NOT_FOUND,
    AttemptTally,
    WriterTools,
    redact_added_lines,
    replace_text,
)
from support.memory_paths import vpath

PATH = DEFAULT_MEMORY_PATH


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id=f"call-{name}", name=name, arguments=arguments)


@pytest.fixture
def store(home: Home, workspace: Workspace) -> MemoryStore:
    return MemoryStore(home, workspace)


@pytest.fixture
def tools(store: MemoryStore) -> WriterTools:
    return WriterTools(store, vpath(PATH))


def file_text(home: Home, workspace: Workspace) -> str:
    return (home.workspace_root(workspace.id) / "notes.md").read_text(encoding="utf-8")


# --- replace_text ----------------------------------------------------------------------


def test_a_unique_old_string_is_replaced() -> None:
    assert replace_text("a\nb\nc\n", "b\n", "B\n", 1) == "a\nB\nc\n"


def test_an_ambiguous_old_string_is_refused_naming_the_count() -> None:
    refusal = replace_text("x x x", "x", "y", 1)
    assert not isinstance(refusal, str)
    assert "occurs 3 times" in refusal.message and "-1" in refusal.message


def test_replace_count_replaces_that_many_first_occurrences() -> None:
    assert replace_text("x x x", "x", "y", 2) == "y y x"


def test_replace_count_minus_one_replaces_all() -> None:
    assert replace_text("x x x", "x", "y", -1) == "y y y"


def test_replace_count_above_the_occurrences_is_refused() -> None:
    refusal = replace_text("x x", "x", "y", 3)
    assert not isinstance(refusal, str) and "only 2" in refusal.message


def test_a_missing_old_string_is_reported_as_stale() -> None:
    refusal = replace_text("abc", "zzz", "y", 1)
    assert not isinstance(refusal, str) and refusal.message == STALE_NOT_FOUND


def test_an_old_string_for_an_empty_file_says_how_to_write_one() -> None:
    """Not "it may have changed since you read it": Qwen2.5-Coder 1.5B re-read the empty
    file and sent the same old_string three times on that (issue 82)."""
    for empty in ("", " \n"):
        refusal = replace_text(empty, "## Directives\n## Fixes", "y", 1)
        assert not isinstance(refusal, str) and refusal.message == OLD_STRING_IN_EMPTY_FILE
    assert 'old_string set to ""' in OLD_STRING_IN_EMPTY_FILE


def test_an_empty_old_string_writes_a_blank_file_whole() -> None:
    assert replace_text("", "", "new\n", 1) == "new\n"
    assert replace_text("  \n", "", "new\n", 1) == "new\n"


def test_an_empty_old_string_is_refused_on_a_non_empty_file() -> None:
    refusal = replace_text("content", "", "new", 1)
    assert not isinstance(refusal, str) and refusal.message == EMPTY_OLD_STRING


# --- the tools ---------------------------------------------------------------------------


def test_reading_a_missing_file_then_creating_it(
    tools: WriterTools, home: Home, workspace: Workspace
) -> None:
    read = tools.execute(call("memory_read"))
    assert json.loads(read.content) == {"exists": False, "content": ""}
    write = tools.execute(call("memory_write", old_string="", new_string="# Notes\n"))
    assert not write.is_error, write.content
    assert file_text(home, workspace) == "# Notes\n"
    assert json.loads(tools.execute(call("memory_read")).content) == {
        "exists": True,
        "content": "# Notes\n",
    }
    assert tools.tally == AttemptTally(wrote=True)
    assert tools.written == "# Notes\n"


def test_a_write_counts_as_a_write_in_memory_meta(
    tools: WriterTools, store: MemoryStore, workspace: Workspace
) -> None:
    tools.execute(call("memory_write", old_string="", new_string="x\n"))
    entry = store.meta_entries()[workspace_key(workspace.id, "notes.md")]
    assert entry.last_write_at is not None


def test_a_failed_write_marks_the_attempt(tools: WriterTools) -> None:
    outcome = tools.execute(call("memory_write", old_string="nope", new_string="x"))
    assert outcome.is_error
    assert tools.tally.write_failed and not tools.tally.wrote


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"new_string": "x"}, "required strings"),
        ({"old_string": "", "new_string": "x", "replace_count": 0}, "positive integer or -1"),
        ({"old_string": "", "new_string": "x", "replace_count": True}, "positive integer or -1"),
        ({"old_string": "", "new_string": "x", "replace_count": "2"}, "positive integer or -1"),
    ],
)
def test_bad_arguments_are_tool_errors(
    tools: WriterTools, arguments: dict[str, Any], message: str
) -> None:
    outcome = tools.execute(call("memory_write", **arguments))
    assert outcome.is_error and message in outcome.content


def test_a_write_over_the_file_cap_is_refused(tools: WriterTools) -> None:
    outcome = tools.execute(
        call("memory_write", old_string="", new_string="x" * (MAX_FILE_BYTES + 1))
    )
    assert outcome.is_error and "limited to 102400 bytes" in outcome.content


def test_no_new_memories_satisfies_the_policy_unless_a_write_failed(tools: WriterTools) -> None:
    tools.execute(call("no_new_memories"))
    assert tools.tally.satisfied
    tally = tools.start_attempt()
    tools.execute(call("memory_write", old_string="missing", new_string="x"))
    tools.execute(call("no_new_memories"))
    assert tally is tools.tally
    assert tally.no_new_memories and tally.write_failed and not tally.satisfied


class RacingStore(MemoryStore):
    """A store where another writer changes the file right before each save (mux racing us)."""

    concurrent = "# Notes\n- written by mux meanwhile\n"

    def save(self, raw_path: str, content: str, expected_sha256: str | None) -> SaveResult:
        super().save(raw_path, self.concurrent, self.read(raw_path).sha256)
        return super().save(raw_path, content, expected_sha256)


def test_a_change_between_read_and_save_is_a_stale_cas_and_writes_nothing(
    home: Home, workspace: Workspace
) -> None:
    MemoryStore(home, workspace).create_file(vpath(PATH), "# Notes\n- old\n")
    tools = WriterTools(RacingStore(home, workspace), vpath(PATH))
    outcome = tools.execute(call("memory_write", old_string="- old\n", new_string="- old\n- new\n"))
    assert outcome == ToolOutcome("call-memory_write", STALE_CHANGED, is_error=True)
    assert file_text(home, workspace) == RacingStore.concurrent
    assert tools.tally.write_failed


def test_added_lines_are_redacted_and_existing_lines_are_left_alone(
    tools: WriterTools, store: MemoryStore, home: Home, workspace: Workspace
) -> None:
    store.create_file(vpath(PATH), "- my own note: password=hunter2hunter2\n")
    outcome = tools.execute(
        call(
            "memory_write",
            old_string="- my own note: password=hunter2hunter2\n",
            new_string=(
                "- my own note: password=hunter2hunter2\n"
                "- the key was sk-abcdefghijklmnopqrstuvwxyz0123\n"
            ),
        )
    )
    assert not outcome.is_error
    assert file_text(home, workspace) == (
        "- my own note: password=hunter2hunter2\n- the key was [REDACTED_SECRET]\n"
    )


def test_a_multi_line_private_key_added_at_once_is_redacted_whole() -> None:
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc123\n-----END RSA PRIVATE KEY-----"
    result = redact_added_lines("# Notes\n", f"# Notes\n{key}\n")
    assert "MIIEowIBAAKCAQEA" not in result and result.startswith("# Notes\n")


def test_the_answers_text_is_pinned(tools: WriterTools) -> None:
    """What the model reads (docs/formats.md §10.2), byte for byte."""
    assert tools.execute(call("memory_read")).content == '{"exists": false, "content": ""}'
    written = tools.execute(call("memory_write", old_string="", new_string="# Notes — é\n"))
    assert written.content == '{"success": true}'
    assert tools.execute(call("memory_read")).content == (
        '{"exists": true, "content": "# Notes — é\\n"}'
    )
    assert tools.execute(call("no_new_memories")).content == '{"success": true}'
