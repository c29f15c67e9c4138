"""The Inbox without Qt: its rows and words, which files' changes reload it, its buttons,
whose change an accepted item is, what the details show for a selection, and the list's
height."""

from __future__ import annotations

from pathlib import Path

from memtab.components.writer.inbox_view import (
    LIST_LINES,
    Accepting,
    InboxButtons,
    InboxPresenter,
    accepted_text,
    agent_queues,
    details_html,
    inbox_places,
    list_heights,
    queues_touched,
    row_text,
    row_tooltip,
    text_gist,
    where_text,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.model import Layout, Source
from memtab.store.home import PathKind, PathPlace
from memtab.store.proposals.queue import GLOBAL_QUEUE
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.inbox import Evidence, InboxItem

NOTES = "/memories/workspace/notes.md"
WORKSPACE = Workspace("main", "Main", "/src/app", "/src/app", "app")


def _item(item_id: str, kind: str = "suggestion", **fields: object) -> InboxItem:
    values: dict[str, object] = {
        "id": item_id,
        "kind": kind,
        "workspace_id": "main",
        "text": "Always use\n  pnpm.",
        "section": "Directives",
        "memory_path": NOTES,
        "source": "writer",
    }
    values.update(fields)
    return InboxItem(**values)  # type: ignore[arg-type]


def _agent(item_id: str, command: str, **fields: object) -> InboxItem:
    """An agent's proposal: its memory-tool `command` (the item's category)."""
    values: dict[str, object] = {"source": "mcp:claude-code", "category": command, "section": ""}
    values.update(fields)
    return _item(item_id, "agent", **values)


def _presenter(*items: InboxItem) -> InboxPresenter[InboxItem]:
    presenter: InboxPresenter[InboxItem] = InboxPresenter()
    presenter.workspace = WORKSPACE
    presenter.items = items
    return presenter


def test_a_row_says_who_proposed_it_and_its_text_on_one_line() -> None:
    harvest = _item("h", "harvest", category="tooling", confidence=0.8)
    assert row_text(harvest) == "mux 0.80 · Always use pnpm."
    assert row_tooltip(harvest) == "mux harvest · tooling · confidence 0.80\nAlways use\n  pnpm."
    assert row_text(_item("s")) == "writer · Always use pnpm."
    assert where_text(_item("s"), None) == f"Goes to {NOTES}, under “Directives”."
    assert where_text(_item("s", section=""), "/memories/global/x.md") == (
        "Goes to /memories/global/x.md."
    )


def test_the_details_escape_what_a_transcript_says() -> None:
    item = _item(
        "s",
        rationale="<b>twice</b>",
        evidence=(Evidence(id="m1", role="user", text="a\nb & c"), Evidence(id="m2")),
    )
    html = details_html(item)
    assert "<i>Why:</i> &lt;b&gt;twice&lt;/b&gt;" in html
    assert "<li><code>m1</code> (user): a<br>b &amp; c</li>" in html
    assert "<li><code>m2</code> — not in the transcript</li>" in html


def test_the_inbox_reloads_on_its_workspaces_places_and_the_global_proposals() -> None:
    gemini = PathPlace(PathKind.AGENT_INBOX)  # Gemini CLI's patches, outside the home
    assert inbox_places(None) == {PathPlace(PathKind.PROPOSALS, GLOBAL_QUEUE), gemini}
    places = inbox_places(WORKSPACE)
    assert PathPlace(PathKind.SUGGESTIONS, "main") in places
    assert PathPlace(PathKind.WORKSPACE_SCOPE, "main", harvest=True) in places
    assert gemini in places
    # The folders holding the harvest folder: one that goes takes its candidates along.
    assert PathPlace(PathKind.WORKSPACE_DIR, "main") in places
    assert PathPlace(PathKind.WORKSPACE_DIR) in places
    assert len(places) == 7


def test_a_review_queue_that_comes_or_goes_with_its_folder_reads_the_inbox_again() -> None:
    presenter = _presenter()
    claude = Source("claude-code:user", "claude-code", Layout.CLAUDE_USER, Path("/u/.claude"), "")
    first, second = (
        Source(f"gemini:memory-{p}", "gemini", Layout.GEMINI_MEMORY, Path(f"/g/{p}/memory"), "")
        for p in ("acme", "web")
    )
    assert agent_queues([claude, first]) == {first.root}
    assert not presenter.queues_found(agent_queues([claude]))  # none: nothing more to read
    assert presenter.queues_found(agent_queues([claude, first]))  # its first extraction
    assert not presenter.queues_found(agent_queues([first, claude]))  # found again, the same
    assert presenter.queues_found(agent_queues([first, second]))
    assert presenter.queues_found(agent_queues([second]))  # a folder removed: its patches go
    # The first time, one there at all: what was written before the watcher followed it.
    assert _presenter().queues_found(agent_queues([first]))


def test_a_review_queues_notes_changed_reads_the_inbox_again() -> None:
    # Its folder removed and made again between two listings: the same queue, new notes.
    claude = Source("claude-code:user", "claude-code", Layout.CLAUDE_USER, Path("/u/.claude"), "")
    gemini = Source("gemini:memory-a", "gemini", Layout.GEMINI_MEMORY, Path("/g/a/memory"), "")
    found = [claude, gemini]
    assert queues_touched(found, [MemoryFileRef("gemini:memory-a", "MEMORY.md")])
    assert not queues_touched(found, [MemoryFileRef("claude-code:user", "CLAUDE.md")])
    assert not queues_touched(found, [MemoryFileRef("mux", "/memories/global/a.md")])
    assert not queues_touched([claude], [MemoryFileRef("gemini:memory-a", "MEMORY.md")])


def test_buttons_wait_for_a_decision_and_edit_takes_one() -> None:
    presenter = _presenter(_item("a"), _item("b"))
    assert presenter.buttons([]) == InboxButtons(accept=False, edit=False, reject=False)
    two = presenter.buttons(["a", "b"])
    assert two.accept and two.reject and not two.edit
    assert presenter.buttons(["a"]).edit
    token = object()
    presenter.deciding(token)
    assert not presenter.buttons(["a"]).accept and presenter.has_decisions
    presenter.decided(token)
    assert presenter.buttons(["a"]).accept and not presenter.has_decisions


def test_an_agents_deletion_or_rename_has_no_text_to_edit() -> None:
    presenter = _presenter(
        _agent("d", "delete"), _agent("r", "rename"), _agent("c", "create"), _agent("i", "insert")
    )
    assert [presenter.buttons([name]).edit for name in "drci"] == [False, False, True, True]
    assert presenter.buttons(["d"]).accept and presenter.buttons(["d"]).reject


def test_after_a_decision_the_next_of_the_same_sort_is_selected_never_a_deletion() -> None:
    presenter = _presenter(
        _agent("a", "create"), _agent("b", "str_replace"), _agent("c", "delete"),
        _item("n"), _agent("d", "create"),
    )  # fmt: skip
    presenter.deciding(object(), ["a", "b"])
    presenter.items = presenter.items[2:]
    assert presenter.selection_after_decision() == "d"  # not the deletion, not the note
    presenter.deciding(object(), ["n"])
    presenter.items = (presenter.items[0],)  # only the deletion is left
    assert presenter.selection_after_decision() is None
    presenter.items = (*presenter.items, _agent("e", "delete"), _agent("f", "create"))
    presenter.deciding(object(), ["c"])  # a deletion decided: the next deletion follows
    presenter.items = presenter.items[1:]
    assert presenter.selection_after_decision() == "e"


def test_an_agents_row_says_its_file_and_gist_never_the_file_run_together() -> None:
    created = _agent(
        "a", "create", text="---\nname: Shell\ndescription: Which shell\n---\n\n# Shell\nzsh\n",
        memory_path="/memories/global/shell.md",
    )  # fmt: skip
    assert row_text(created) == "Claude Code create · global/shell.md — Which shell"
    headed = _agent("b", "create", text="# Package managers\n\nUse pnpm.\n")
    assert row_text(headed).endswith(" — Package managers")
    deleted = _agent("c", "delete", text="delete /memories/workspace/notes.md")
    assert row_text(deleted) == "Claude Code delete · workspace/notes.md"
    assert text_gist("x" * 300).endswith("…") and len(text_gist("x" * 300)) == 160


def test_accepting_says_where_each_went() -> None:
    notes = [_item("a"), _item("b")]
    assert accepted_text(notes) == f"Accepted 2 memories into {NOTES}"
    assert accepted_text(notes[:1]) == f"Accepted 1 memory into {NOTES}"
    global_note = _item("g", memory_path="/memories/global/notes.md")
    edit = _agent("e", "str_replace", memory_path="/memories/global/gotchas.md")
    new = _agent("n", "create", memory_path="/memories/global/shell.md")
    assert accepted_text([notes[0], global_note, edit, new]) == (
        f"Accepted 4 memories: 1 into {NOTES}, 1 into /memories/global/notes.md, "
        "an edit of /memories/global/gotchas.md, a new file /memories/global/shell.md"
    )
    assert accepted_text([_agent("d", "delete")]) == f"Accepted 1 memory: the deletion of {NOTES}"


def test_once_decided_items_go_the_next_still_waiting_is_selected() -> None:
    presenter = _presenter(*(_item(name) for name in "abcde"))
    presenter.deciding(object(), ["b", "c"])
    presenter.items = tuple(item for item in presenter.items if item.id not in "bc")
    assert presenter.selection_after_decision() == "d"
    assert presenter.selection_after_decision() is None  # asked once
    presenter.deciding(object(), ["e"])  # the last: the nearest before it
    presenter.items = presenter.items[:-1]
    assert presenter.selection_after_decision() == "d"
    token = object()
    presenter.deciding(token, ["a"])
    presenter.decided(token, failed=True)  # it stays, selected: nothing to follow
    assert presenter.selection_after_decision() is None


def test_an_agents_proposal_accepted_as_it_is_stays_the_agents_change() -> None:
    agent = _item("a", "agent", source="mcp:claude-code", category="insert")
    note = _item("s")
    presenter = _presenter(agent, note)
    as_proposed = presenter.accepting(["s", "a"], None, "/memories/global/x.md")
    assert [(w.path, w.agent) for w in as_proposed] == [
        (NOTES, "mcp:claude-code"),
        ("/memories/global/x.md", None),
    ]
    edited = presenter.accepting(["a"], "edited", None)
    assert [(w.path, w.agent) for w in edited] == [(NOTES, None)]


def test_the_details_show_provenance_for_one_note_and_a_review_for_an_agents() -> None:
    agent = _item("a", "agent", source="mcp:codex", category="create")
    note = _item("s", evidence=(Evidence(id="m1"),))
    bare = _item("t")
    presenter = _presenter(agent, note, bare)
    plan = presenter.details(["s"])
    assert plan.one is note and plan.provenance and plan.read_evidence and plan.review is None
    assert presenter.details(["t"]).read_evidence is False
    review = presenter.details(["a"])
    assert review.review is agent and not review.provenance
    several = presenter.details(["s", "t"])
    assert several.one is None and not several.provenance
    presenter.workspace = None
    assert not presenter.details(["s"]).provenance
    assert presenter.is_current(None) and not presenter.is_current("main")


def test_the_list_is_as_tall_as_its_first_rows_and_gives_way_to_its_first_row() -> None:
    line, frame = 10, 2
    assert list_heights([10], line, frame, held=0, first_whole=True) == (12, 12)
    least, most = list_heights([30, 30, 30], line, frame, held=0, first_whole=True)
    assert most == LIST_LINES * line + frame and least == 30 + frame
    assert list_heights([50], line, frame, held=0, first_whole=True)[0] == 3 * line + frame
    assert list_heights([50], line, frame, held=0, first_whole=False)[0] == 2 * line + frame
    assert list_heights([10], line, frame, held=60, first_whole=True)[1] == 60


def _patch(item_id: str, problem: str | None = None) -> InboxItem:
    return _item(
        item_id,
        "gemini",
        text="--- /dev/null\n+++ /m/deploy.md\n@@ -0,0 +1 @@\n+# Deploy\n",
        memory_path="gemini:memory-app:deploy.md",
        source="/m/.inbox/private/extraction.patch",
        category="private",
        rationale="Private memory · extraction.patch · deploy.md (new)",
        section="",
        problem=problem,
    )


def test_a_gemini_patch_is_said_by_what_it_changes_and_only_rejected_when_invalid() -> None:
    valid, invalid = _patch("g1"), _patch("g2", problem="no hunks found in patch")
    presenter = _presenter(valid, invalid, _item("s"))

    assert row_text(valid) == "Gemini patch · Private memory · extraction.patch · deploy.md (new)"
    assert row_text(invalid).startswith("Gemini patch (invalid) · ")
    assert row_tooltip(invalid).endswith("Gemini CLI would not apply it: no hunks found in patch")
    assert presenter.buttons(["g1"]) == InboxButtons(accept=True, edit=False, reject=True)
    assert presenter.buttons(["g2"]) == InboxButtons(accept=False, edit=False, reject=True)
    assert not presenter.buttons(["g1", "g2"]).accept  # one invalid: no accept for the two
    # Its review is what it would write; it writes Gemini CLI's files, no badge of mux's.
    assert presenter.details(["g1"]).review is valid
    assert presenter.accepting(["g1", "s"], None, None) == [Accepting(NOTES, None)]
