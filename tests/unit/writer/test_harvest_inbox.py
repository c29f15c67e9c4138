"""mux's harvest inbox in the Inbox: read as mux writes it, accepted with provenance,
edited, rejected, and the harvest file left as mux expects (docs/formats.md §10.5)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.harvest import (
    HARVEST_DIR,
    HarvestError,
    HarvestInbox,
    parse_harvest,
    without_candidates,
)
from memtab.writer.inbox.inbox import Inbox, InboxError, harvest_run_id
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import PROJECT_NOTES
from memtab.writer.offline.notes import DIRECTIVES, FINDINGS, Note
from support.memory_paths import vpath

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"
HARVEST_PATH = f"{HARVEST_DIR}/{HARVEST_NAME}"
MUX_TEXT = (FIXTURES / HARVEST_NAME).read_text(encoding="utf-8")


@pytest.fixture
def harvested(home: Home, workspace: Workspace) -> Path:
    """The workspace with mux's harvest file and the transcript its evidence names."""
    folder = home.workspace_root(workspace.id) / "harvest"
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)
    shutil.copyfile(FIXTURES / "chat.jsonl", home.transcript_path(workspace.id))
    return folder / HARVEST_NAME


def test_reads_the_candidates_as_mux_writes_them() -> None:
    harvest = parse_harvest(HARVEST_PATH, MUX_TEXT)
    assert harvest.boundary == "summary-9f2c1e"
    assert harvest.epoch == "4"
    first, second, third = harvest.candidates
    assert (first.category, first.evidence, first.confidence) == ("preference", ("msg-u1a2",), 0.95)
    assert second.text == (
        "Database migrations live in db/migrations and are applied with `make migrate`;\n"
        "never edit an applied migration, add a new one."
    )
    assert second.evidence == ("msg-u3c4", "msg-a5d6")
    assert second.confidence == 1.0
    assert third.rationale == "A tool result showed the bind error on 8080 and the fix."
    assert len({c.id for c in harvest.candidates}) == 3
    assert all(c.id.startswith("h") and len(c.id) == 11 for c in harvest.candidates)
    # The same candidate in the same file keeps its id however it is spaced.
    respaced = MUX_TEXT.replace("prefers pytest's", "prefers  pytest's")
    assert parse_harvest(HARVEST_PATH, respaced).candidates[0].id == first.id


def test_removing_candidates_keeps_every_other_byte() -> None:
    harvest = parse_harvest(HARVEST_PATH, MUX_TEXT)
    first, second, third = harvest.candidates
    left = without_candidates(harvest, {second.id})
    assert left is not None
    assert "Database migrations" not in left
    assert left == MUX_TEXT.replace(
        MUX_TEXT[MUX_TEXT.index("## project") : MUX_TEXT.index("## environment")], ""
    )
    last_removed = without_candidates(harvest, {third.id})
    assert last_removed is not None and last_removed.endswith("applied migration.\n")
    assert without_candidates(harvest, {first.id, second.id, third.id}) is None


def test_a_block_that_is_not_a_candidate_is_kept_and_keeps_the_file() -> None:
    broken = MUX_TEXT.replace("Confidence: 0.85\n", "")
    harvest = parse_harvest(HARVEST_PATH, broken)
    assert len(harvest.candidates) == 2  # the third's block is kept as it is
    left = without_candidates(harvest, {c.id for c in harvest.candidates})
    assert left is not None and "The dev server listens on port 8081" in left
    # A heading inside a candidate's text does not start a new one.
    nested = MUX_TEXT.replace(
        "never edit an applied migration", "## other\nnever edit an applied migration"
    )
    assert len(parse_harvest(HARVEST_PATH, nested).candidates) == 3


def test_inbox_shows_harvest_with_evidence_beside_suggestions(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    SuggestionQueue(home, workspace.id).propose(
        [Note(DIRECTIVES, "Run ruff before committing.")], memory_path=DEFAULT_MEMORY_PATH
    )
    items = Inbox(home, workspace).items(with_evidence=True)
    assert [i.kind for i in items] == ["harvest", "harvest", "harvest", "suggestion"]
    migrations = items[1]
    assert migrations.section == FINDINGS
    assert migrations.source == HARVEST_PATH
    assert [(e.id, e.role) for e in migrations.evidence] == [
        ("msg-u3c4", "user"),
        ("msg-a5d6", "assistant"),
    ]
    assert (
        migrations.evidence[1].text == "Added 0008_fix_index.py and ran make migrate.\n[tool:bash]"
    )
    assert items[0].section == DIRECTIVES
    assert items[3].text == "Run ruff before committing." and items[3].evidence == ()


def test_accept_writes_the_note_with_provenance_and_leaves_the_file_as_mux_expects(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    inbox = Inbox(home, workspace)
    first = inbox.items()[0]
    decision = inbox.accept([first.id], to=DEFAULT_MEMORY_PATH)
    assert decision.memory_path == DEFAULT_MEMORY_PATH
    store = MemoryStore(home, workspace)
    notes = store.read_text(vpath(DEFAULT_MEMORY_PATH))
    assert f"## {DIRECTIVES}\n\n- {first.text}" in notes
    assert harvested.read_text(encoding="utf-8") == without_candidates(
        parse_harvest(HARVEST_PATH, MUX_TEXT), {first.id}
    )
    by_path = ScopeHistory(home, f"workspace-{workspace.id}").newest_by_path()
    assert by_path[DEFAULT_MEMORY_PATH].run_id == harvest_run_id(HARVEST_PATH)
    assert by_path[DEFAULT_MEMORY_PATH].actor == "user"
    assert by_path[HARVEST_PATH].run_id == harvest_run_id(HARVEST_PATH)


def test_edit_then_accept_and_reject_the_rest_deletes_the_file(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    inbox = Inbox(home, workspace)
    first, second, third = inbox.items()
    with pytest.raises(InboxError, match="one item at a time"):
        inbox.accept([first.id, second.id], text="x")
    decision = inbox.accept([second.id], text="Migrations:\n  `make migrate`; never edit old ones.")
    assert decision.texts[second.id] == "Migrations: `make migrate`; never edit old ones."
    assert decision.memory_path == PROJECT_NOTES  # mux's 'project': the project's memory
    assert "- Migrations: `make migrate`; never edit old ones." in MemoryStore(
        home, workspace
    ).read_text(vpath(PROJECT_NOTES))
    inbox.reject([first.id, third.id])
    assert not harvested.exists()  # mux keeps no inbox without candidates
    assert inbox.items() == []
    assert "8081" not in MemoryStore(home, workspace).read_text(vpath(PROJECT_NOTES))
    with pytest.raises(InboxError, match="Nothing in the inbox"):
        inbox.reject([first.id])


def test_a_candidate_gone_from_its_file_is_refused(
    home: Home, workspace: Workspace, harvested: Path
) -> None:
    first = Inbox(home, workspace).items()[0]
    harvest = HarvestInbox(MemoryStore(home, workspace))
    harvested.write_text(MUX_TEXT.replace("plain asserts", "bare asserts"), encoding="utf-8")
    with pytest.raises(HarvestError, match="no longer holds"):
        harvest.remove(HARVEST_PATH, [first.id])
    assert "bare asserts" in harvested.read_text(encoding="utf-8")


def test_cli_lists_accepts_and_rejects(
    home: Home, workspace: Workspace, harvested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inbox", "--home", str(home.root), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["items"]
    assert [i["kind"] for i in listed] == ["harvest"] * 3
    assert set(listed[0]) == {
        "id", "kind", "workspaceId", "text", "section", "memoryPath", "source", "category",
        "evidence", "confidence", "rationale", "createdAt", "targetReason", "retargetable",
        "sourceName",
    }  # fmt: skip
    assert listed[0]["evidence"] == [
        {
            "id": "msg-u1a2",
            "role": "user",
            "text": "Please use plain asserts in pytest, not self.assertEqual — remember "
            "that for next time.",
        }
    ]
    assert main(["inbox", "--home", str(home.root)]) == 0
    table = capsys.readouterr().out
    assert "mux harvest" in table and "0.95" in table
    first, second, third = (i["id"] for i in listed)
    status = main(["inbox", "--home", str(home.root), "accept", first, "--json"])
    accepted = json.loads(capsys.readouterr().out)["accepted"]
    assert status == 0 and accepted[0]["id"] == first
    assert main(["inbox", "--home", str(home.root), "reject", second, third]) == 0
    assert capsys.readouterr().out.count("rejected ") == 2
    assert not harvested.exists()
    assert main(["inbox", "--home", str(home.root), "reject", first]) == 1
    assert "Nothing in the inbox" in capsys.readouterr().err
