"""Gemini CLI's memory patches in Memtab's Inbox (docs/formats.md §17.7): listed in the Inbox
of the workspace whose project Gemini CLI ran in, accepted by applying them as Gemini CLI's
own `/memory inbox` does (then gone from its inbox), rejected as it dismisses them, an
invalid one shown as such and never half applied, every decision taken back by Undo — on a
Gemini home laid out as Gemini CLI 0.61 writes one (`support.gemini_home`)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.jobs import JobCancelledError, JobContext
from memtab.components.writer.jobs import review_patch
from memtab.sources.agent_file import SourceVersions
from memtab.sources.gemini.inbox import EXTRACTION_LOCK
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace, add_workspace, load_registry
from memtab.writer.inbox import gemini as gemini_module
from memtab.writer.inbox.inbox import Inbox, InboxError, InboxItem
from memtab.writer.inbox.undo import take_back
from support.gemini_home import GeminiHome, build_gemini_home

WORKSPACE = "g1h2i3j4k5"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return tmp_path / "src" / "acme-api"


@pytest.fixture
def gemini(project: Path) -> GeminiHome:
    return build_gemini_home(Path.home(), project)


@pytest.fixture
def workspace(home: Home, project: Path, gemini: GeminiHome) -> Workspace:
    add_workspace(home, str(project), "main", workspace_id=WORKSPACE, workspace_path=str(project))
    return load_registry(home).require_workspace(WORKSPACE)


def _patches(inbox: Inbox) -> dict[str, InboxItem]:
    return {item.category or "": item for item in inbox.items() if item.kind == "gemini"}


def test_the_workspace_s_inbox_lists_each_patch_as_the_diff_it_is(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    found = _patches(Inbox(home, workspace))

    private, global_ = found["private"], found["global"]
    assert private.text == gemini.private_patch()
    assert private.source == str(gemini.inbox("private") / "extraction.patch")
    assert private.memory_path == "gemini:memory-acme-api:deploy-checklist.md"
    assert private.rationale == (
        "Private memory · extraction.patch · deploy-checklist.md (new), MEMORY.md"
    )
    assert (private.problem, private.retargetable, private.workspace_id) == (None, False, WORKSPACE)
    assert private.source_name == "Gemini CLI auto memory"
    assert global_.memory_path == "gemini:user:GEMINI.md"
    # A workspace that is not this project's has none of them; the global Inbox neither.
    assert not _patches(Inbox(home, None))


def test_accepting_applies_it_as_gemini_cli_does_and_empties_its_inbox(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    private = _patches(inbox)["private"]
    index_before = (gemini.memory / "MEMORY.md").read_text()

    decision = inbox.accept([private.id])

    assert decision.texts[private.id] == "Applied memory patch to 2 files."
    assert (gemini.memory / "deploy-checklist.md").read_text() == (
        "# Deploy checklist\n\nRun `make migrate` before `make release`.\n"
    )
    assert (gemini.memory / "MEMORY.md").read_text() == index_before + (
        f"- See {gemini.memory}/deploy-checklist.md for what to run before a release.\n"
    )
    assert not (gemini.inbox("private") / "extraction.patch").exists()
    assert list(_patches(inbox)) == ["global"]
    versions = SourceVersions(home).versions("gemini:memory-acme-api:MEMORY.md")
    assert [(v.op, v.actor) for v in versions[:1]] == [("edit", "gemini")]


def test_a_global_patch_writes_the_global_gemini_md(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    inbox.accept([_patches(inbox)["global"].id])
    assert gemini.global_file.read_text().endswith(
        "- Answer in English.\n- Keep commit messages under 72 characters.\n"
    )
    assert not (gemini.inbox("global") / "extraction.patch").exists()


def test_rejecting_removes_the_patch_and_nothing_else(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    index = (gemini.memory / "MEMORY.md").read_text()
    inbox.reject([_patches(inbox)["private"].id])
    assert not (gemini.inbox("private") / "extraction.patch").exists()
    assert (gemini.memory / "MEMORY.md").read_text() == index
    assert not (gemini.memory / "deploy-checklist.md").exists()


def test_an_invalid_patch_is_shown_with_why_and_can_only_be_rejected(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    outside = gemini.inbox("private") / "outside.patch"
    outside.write_text("--- /dev/null\n+++ /etc/evil.md\n@@ -0,0 +1 @@\n+x\n")
    inbox = Inbox(home, workspace)
    item = next(i for i in inbox.items() if i.source == str(outside))

    assert item.problem == "target file is outside private memory roots: /etc/evil.md"
    with pytest.raises(InboxError, match="outside the private memory root"):
        inbox.accept([item.id])
    assert outside.exists() and not Path("/etc/evil.md").exists()
    inbox.reject([item.id])
    assert not outside.exists()


def test_a_patch_that_no_longer_applies_writes_nothing(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    (gemini.memory / "MEMORY.md").write_text("# Project Memory\n\n- Rewritten by hand.\n")
    inbox = Inbox(home, workspace)
    with pytest.raises(InboxError, match=r"does not apply cleanly to .*/MEMORY\.md"):
        inbox.accept([_patches(inbox)["private"].id])
    # Its first part, the new note, applied in memory only: nothing was written.
    assert not (gemini.memory / "deploy-checklist.md").exists()
    assert (gemini.inbox("private") / "extraction.patch").exists()


def test_a_file_that_fails_puts_back_the_ones_written_before_it(
    home: Home, workspace: Workspace, gemini: GeminiHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = gemini_module.save_source_file
    calls: list[str] = []

    def failing_second(source, file, content, expected, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(file.id)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(source, file, content, expected, **kwargs)

    monkeypatch.setattr(gemini_module, "save_source_file", failing_second)
    index = (gemini.memory / "MEMORY.md").read_text()
    inbox = Inbox(home, workspace)
    with pytest.raises(InboxError, match="nothing was changed"):
        inbox.accept([_patches(inbox)["private"].id])
    assert calls[0] == "gemini:memory-acme-api:deploy-checklist.md"
    assert not (gemini.memory / "deploy-checklist.md").exists()  # created, then removed
    assert (gemini.memory / "MEMORY.md").read_text() == index
    assert (gemini.inbox("private") / "extraction.patch").exists()


def test_nothing_is_decided_while_gemini_cli_extracts(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    lock = gemini.memory / EXTRACTION_LOCK
    lock.write_text(json.dumps({"pid": os.getpid(), "startedAt": "2099-01-01T00:00:00.000Z"}))
    inbox = Inbox(home, workspace)
    item = _patches(inbox)["private"]
    # Started in the future: not stale by its age, and its process runs.
    with pytest.raises(InboxError, match="extracting in this project now"):
        inbox.accept([item.id])
    gone = 2**22 + 12345  # past Linux's largest pid: no process has it
    lock.write_text(json.dumps({"pid": gone, "startedAt": "2099-01-01T00:00:00.000Z"}))
    inbox.reject([item.id])  # a lock whose process is gone is stale, as Gemini CLI says
    assert not (gemini.inbox("private") / "extraction.patch").exists()


def test_a_patch_rewritten_since_it_was_listed_is_not_the_one_decided(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    item = _patches(inbox)["private"]
    patch = gemini.inbox("private") / "extraction.patch"
    patch.write_text(patch.read_text() + "\n")  # the extraction merged more into it
    with pytest.raises(InboxError, match=f"Nothing in the inbox with id {item.id}"):
        inbox.accept([item.id])


def test_a_project_no_workspace_holds_is_in_the_global_inbox(
    home: Home, gemini: GeminiHome
) -> None:
    found = _patches(Inbox(home, None))
    assert sorted(found) == ["global", "private"]
    assert found["private"].workspace_id is None


def test_undo_puts_the_files_and_the_patch_back_and_redo_applies_it_again(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    item = _patches(inbox)["private"]
    index = (gemini.memory / "MEMORY.md").read_text()
    decision = inbox.accept([item.id])
    assert decision.undo is not None
    assert decision.undo.label == "accept 'Private memory · extrac…'"

    said = take_back(MemoryStore(home, workspace), decision.undo)

    assert said == "1 proposed memory back in the Inbox; the patch is back in Gemini CLI's inbox"
    assert (gemini.memory / "MEMORY.md").read_text() == index
    assert not (gemini.memory / "deploy-checklist.md").exists()
    assert (gemini.inbox("private") / "extraction.patch").read_text() == gemini.private_patch()
    assert _patches(inbox)["private"].id == item.id  # the same patch, the same id
    inbox.redo(decision.undo)
    assert (gemini.memory / "deploy-checklist.md").exists()


def test_a_patch_is_never_edited_nor_moved(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    inbox = Inbox(home, workspace)
    item = _patches(inbox)["private"]
    with pytest.raises(InboxError, match="applied as it is, never edited"):
        inbox.accept([item.id], text="something else")
    with pytest.raises(InboxError, match="cannot be accepted into another file"):
        inbox.accept([item.id], to="/memories/global/x.md")


def test_memtab_inbox_lists_applies_and_dismisses_gemini_patches(
    home: Home, workspace: Workspace, gemini: GeminiHome, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inbox", "--home", str(home.root)]) == 0
    table = capsys.readouterr().out
    assert "Gemini CLI" in table
    assert "Private memory · extraction.patch · deploy-checklist.md (new), MEMORY.md" in table
    assert "+++" not in table  # said by what it changes, not as its diff on one line
    assert main(["inbox", "--home", str(home.root), "--json"]) == 0
    listed = {i["category"]: i for i in json.loads(capsys.readouterr().out)["items"]}
    assert set(listed) == {"private", "global"}
    assert listed["private"]["workspaceId"] == WORKSPACE  # listed once, in its workspace

    assert main(["inbox", "--home", str(home.root), "accept", listed["private"]["id"]]) == 0
    assert "Applied memory patch to 2 files." in capsys.readouterr().out
    assert main(["inbox", "--home", str(home.root), "reject", listed["global"]["id"]]) == 0
    assert "rejected " in capsys.readouterr().out
    assert [list(gemini.inbox(kind).iterdir()) for kind in ("private", "global")] == [[], []]


def _memory_patch(gemini: GeminiHome, lines: list[str]) -> str:
    """A patch of `MEMORY.md` whose lines after its headers are `lines`."""
    index = gemini.memory / "MEMORY.md"
    return f"--- {index}\n+++ {index}\n" + "\n".join(lines) + "\n"


def test_a_patch_of_3000_context_lines_is_accepted_or_refused_at_once(
    home: Home, workspace: Workspace, gemini: GeminiHome, capsys: pytest.CaptureFixture[str]
) -> None:
    """An 80 KB `MEMORY.md` and a patch of 3,000 context lines (issue 81 point 10: 40 s
    when its hunk fits nowhere, tried line by line): `memtab inbox accept` applies it
    where it fits and refuses it where it does not, each in well under a second's work."""
    index = gemini.memory / "MEMORY.md"
    index.write_text("# Project Memory\n\n" + "\n" * 80_000 + "- The last line.\n")
    private = gemini.inbox("private") / "extraction.patch"
    context = [" "] * 3000
    for body, said, status in (
        (
            [*context, "-- a line nowhere", "+- instead"],
            "does not apply cleanly to",
            1,
        ),
        ([*context, " - The last line.", "+- Added."], "Applied memory patch to 1 file.", 0),
    ):
        counts = "@@ -3,3001 +3,3002 @@" if status == 0 else "@@ -3,3001 +3,3001 @@"
        private.write_text(_memory_patch(gemini, [counts, *body]))
        (item,) = [i for i in Inbox(home, workspace).items() if i.category == "private"]
        started = time.perf_counter()
        assert main(["inbox", "--home", str(home.root), "accept", item.id]) == status
        assert time.perf_counter() - started < 5  # line by line: 40 s for the first
        out = capsys.readouterr()
        assert said in (out.err if status else out.out)
    assert index.read_text().endswith("\n- The last line.\n- Added.\n")


def test_a_patch_too_costly_to_place_is_refused_in_memtab_s_words(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    """2,000 hunks each 100,000 lines from where it says: refused, and said why."""
    index = gemini.memory / "MEMORY.md"
    index.write_text("".join(f"k{n}\n" for n in range(2000)) + "x\n" * 200_000)
    hunks = [
        f"@@ -{1 + 100_000 * (n % 2)},1 +{1 + 100_000 * (n % 2)},2 @@\n k{n}\n+added"
        for n in range(2000)
    ]
    (gemini.inbox("private") / "extraction.patch").write_text(_memory_patch(gemini, hunks))
    inbox = Inbox(home, workspace)
    with pytest.raises(InboxError, match=r'"extraction.patch" is not applied by Memtab: its hunks'):
        inbox.accept([_patches(inbox)["private"].id])
    assert (gemini.inbox("private") / "extraction.patch").exists()


def test_a_patch_s_review_stops_once_cancelled(
    home: Home, workspace: Workspace, gemini: GeminiHome
) -> None:
    """The Inbox reviews a patch on a worker as it is selected; selecting another, or
    none, cancels it: placing its hunks stops rather than running on to a refusal."""
    (gemini.memory / "MEMORY.md").write_text("# Project Memory\n\n- Rewritten by hand.\n")
    item = _patches(Inbox(home, workspace))["private"]
    context = JobContext.standalone()
    reviewed = review_patch(home, workspace, item, context)
    assert reviewed.refused and "does not apply cleanly" in (reviewed.heading or "")
    context.cancel_event.set()
    with pytest.raises(JobCancelledError):
        review_patch(home, workspace, item, context)
