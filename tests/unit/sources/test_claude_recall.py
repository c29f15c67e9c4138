"""A topic file Claude Code cannot recall well — its auto memory's topic files are picked
for a prompt by file name and `description` (up to 5; Claude Code 2.1.331's recall
prompt, `selectRelevantMemories`), so one with no or an empty description is shown by its
name alone: the listing and the tree mark it, `memtab loads` lists it saying why and
explains how topic files are recalled, `memtab check` finds it (docs/formats.md §17.6,
§19.3). The real auto memory's `notiontalk-landing-strategy.md` has no frontmatter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check import documents
from memtab.check.engine import CheckEngine
from memtab.cli.main import main
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.sources import build_source_sections
from memtab.components.tree.sources_scan import SourcesScan
from memtab.loads.engine import compute_loads
from memtab.sources.discovery import scan
from memtab.sources.model import SourceListing
from support.agent_machine import WORKSPACE_ID, Machine

NO_DESCRIPTION = (
    "No description: Claude Code picks the topic files it reads for a prompt by file name "
    "and description, so it cannot recall this one well"
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def personal(machine: Machine) -> SourceListing:
    return next(
        listing
        for listing in scan(machine.context())[1]
        if listing.source.layout == "claude-memory"
    )


def test_topic_files_without_a_description_are_marked(machine: Machine) -> None:
    memory = machine.claude_memory
    write(memory / "empty-description.md", '---\nname: x\ndescription: ""\n---\n\nBody.\n')
    write(memory / "blank-description.md", "---\ndescription:   \n---\n\nBody.\n")
    write(
        memory / "nested-type.md",
        "---\nname: deploys\ndescription: How we ship\nmetadata:\n  type: project\n---\nShip.\n",
    )
    long_head = "---\n" + "".join(f"k{n}: v\n" for n in range(30)) + "description: late\n---\n"
    write(memory / "description-past-line-30.md", long_head)
    write(memory / "sub" / "nested.md", "# A heading is no description\n")
    write(memory / "team" / "platform" / "no-frontmatter.md", "Team notes.\n")
    warned = {f.relative for f in personal(machine).files if f.warning == NO_DESCRIPTION}
    assert warned == {
        "memory/notiontalk-landing-strategy.md",  # the real file: no frontmatter at all
        "memory/empty-description.md",
        "memory/blank-description.md",
        "memory/description-past-line-30.md",
        "memory/sub/nested.md",
    }
    # MEMORY.md is the index, read at the start; team memory is the team's.
    assert personal(machine).file("memory/MEMORY.md").warning != NO_DESCRIPTION  # type: ignore[union-attr]

    discovery, listings = scan(machine.context())
    rows: dict[str, TreeNode] = {}

    def walk(node: TreeNode) -> None:
        rows[node.key] = node
        for child in node.children:
            walk(child)

    for section in build_source_sections(SourcesScan(discovery, tuple(listings))):
        walk(section)
    marked = {key for key, row in rows.items() if row.warning == NO_DESCRIPTION}
    assert any(key.endswith(":memory/notiontalk-landing-strategy.md") for key in marked)
    # Its row's pill names what is wrong, not a limit it is over.
    assert {rows[key].warning_label for key in marked} == {"no description"}
    assert not any(key.endswith(":memory/nested-type.md") for key in marked)


def test_memtab_loads_names_each_and_explains_how_topics_are_recalled(
    machine: Machine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    loads = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=("claude",), context=machine.context()
    )
    claude = loads.agents[0]
    later = [file for file in claude.files if file.when == "on demand"]
    assert [Path(file.physical_path or "").name for file in later] == [
        "notiontalk-landing-strategy.md"
    ]
    assert (later[0].kind, later[0].cut_reason, later[0].loaded_tokens) == (
        "topic",
        NO_DESCRIPTION,
        0,
    )
    assert later[0].id is not None and later[0].id.endswith(
        ":memory/notiontalk-landing-strategy.md"
    )
    assert claude.total_tokens == sum(f.loaded_tokens for f in claude.files if f.when == "start")
    assert (
        "Topic files are not read at the start: for each prompt Claude Code picks up to 5 of "
        "the newest 200 by file name and description, and reads each up to 200 lines or "
        "4,096 bytes; 5 topic files here, 1 without a description (listed)"
    ) in claude.notes

    monkeypatch.setenv("HOME", str(machine.user))  # the CLI's `~`
    monkeypatch.setenv("MEMTAB_HOME", str(machine.home.root))
    assert main(["loads", "--workspace", WORKSPACE_ID, "--agent", "claude", "--json"]) == 0
    files = json.loads(capsys.readouterr().out)["agents"][0]["files"]
    assert [f["cutReason"] for f in files if f["when"] == "on demand"] == [NO_DESCRIPTION]


def test_memtab_check_finds_each(machine: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(machine.user))  # where the check finds ~/.claude
    write(machine.claude_memory / "empty-description.md", '---\ndescription: ""\n---\n\nBody.\n')
    report = CheckEngine(machine.home, env=machine.env, find_program=lambda _: "/bin/x").check()
    found = sorted(
        finding.path.rsplit(":", 1)[1]
        for finding in report.findings
        if finding.kind == "no-description"
    )
    assert found == ["memory/empty-description.md", "memory/notiontalk-landing-strategy.md"]
    one = next(f for f in report.findings if f.kind == "no-description")
    assert (one.agent, one.line, one.scope) == ("claude-code", None, "project")
    assert one.message == "Claude Code cannot recall this topic file well: it has no description"
    assert "picks up to 5 topic files by their file name and the `description:`" in one.why
    assert report.to_json()["findings"][0]["kind"]  # the contract stays a record


def test_the_next_check_reads_no_unchanged_topic_for_its_description_again(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a topic file lacks is kept with the check's findings of it: read again only
    when its text changed."""
    monkeypatch.setenv("HOME", str(machine.user))
    topic = write(machine.claude_memory / "empty-description.md", '---\ndescription: ""\n---\n')
    engine = CheckEngine(machine.home, env=machine.env, find_program=lambda _: "/bin/x")
    found = engine.check()
    read: list[str] = []
    real = documents.recall_warning
    monkeypatch.setattr(
        documents, "recall_warning", lambda *args: read.append(args[1][-1]) or real(*args)
    )
    again = CheckEngine(machine.home, env=machine.env, find_program=lambda _: "/bin/x").check()
    assert again.findings == found.findings and read == []
    write(topic, "---\ndescription: How we deploy\n---\n")
    later = CheckEngine(machine.home, env=machine.env, find_program=lambda _: "/bin/x").check()
    assert read == ["empty-description.md"]
    assert [f.kind for f in later.findings].count("no-description") == 1
