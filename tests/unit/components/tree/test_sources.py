"""Other agents' memory in the Memory tab's rules (no Qt): the scan, the tree sections
and search across sources, on a developer's machine built from real stores
(support.agent_machine). The files themselves: tests/unit/sources/test_memory_file.py;
Copy to…: tests/unit/components/files/test_copy.py."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import NodeKind, SectionId, ref_key
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.components.tree.sources import agent_group_key, project_group_key
from memtab.components.tree.sources_scan import scan_sources
from memtab.components.tree.tree import build_tree
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.fs.atomic import atomic_write_text
from memtab.sources.config import SourceContext
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from support.agent_machine import WORKSPACE_ID, Machine, build_machine, scan_machine
from support.gemini_home import build_gemini_home
from support.memory_paths import vpath


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)


def loader(machine: Machine) -> Callable[[Home], SourceContext]:
    return lambda _home: machine.context()


full_scan = scan_machine


def memory_source(scan: HomeScan) -> str:
    assert scan.sources is not None
    return next(
        listing.source.id
        for listing in scan.sources.listings
        if listing.source.id.startswith("claude-code:memory-")
    )


# -- the scan ------------------------------------------------------------------------------


def test_sources_are_scanned_only_when_asked(machine: Machine) -> None:
    plain = scan_home(ScanRequest(machine.home, WORKSPACE_ID, source_context=loader(machine)))
    assert plain.sources is None
    scan = full_scan(machine)
    assert scan.sources is not None
    agents = {listing.source.agent for listing in scan.sources.listings}
    assert agents == {"claude-code", "codex", "loki"}
    # The watcher is given the sources' directories, never a whole project or projects/:
    # projects/ is watched without its subfolders, for a project's first folder.
    watched = dict(scan.sources.watch)
    assert watched[str(machine.claude_memory)] is True
    assert watched[str(machine.project)] is False
    assert watched[str(machine.claude / "projects")] is False


def test_a_rescan_relists_only_the_source_a_change_touched(machine: Machine) -> None:
    first = full_scan(machine)
    assert first.sources is not None
    topic = machine.claude_memory / "feedback_new.md"
    atomic_write_text(topic, "---\nname: New\ndescription: A new lesson\ntype: feedback\n---\n")
    second = full_scan(machine, first, changed_paths=frozenset({str(topic)}))
    assert second.sources is not None
    memory_id = memory_source(second)
    new = MemoryFileRef(memory_id, "memory/feedback_new.md")
    assert new in second.sources.changes.changed
    # Every other listing is the very same object: nothing else was read again.
    for before, after in zip(first.sources.listings, second.sources.listings, strict=True):
        assert (after is before) == (after.source.id != memory_id)
    # A transcript written beside the memory concerns no source: nothing is relisted.
    transcript = machine.claude_memory.parent / "another-session.jsonl"
    transcript.write_text("{}\n", encoding="utf-8")
    third = full_scan(machine, second, changed_paths=frozenset({str(transcript)}))
    assert third.sources is second.sources
    topic.unlink()
    fourth = full_scan(machine, third, changed_paths=frozenset({str(topic)}))
    assert fourth.sources is not None
    assert fourth.sources.changes.deleted == {new}


def test_a_folder_that_appears_in_a_source_found_before_is_to_be_watched(
    machine: Machine,
) -> None:
    rules = machine.claude / "rules"
    shutil.rmtree(rules)  # the user has no rules yet
    first = full_scan(machine)
    assert first.sources is not None
    assert str(rules) not in dict(first.sources.watch)
    rules.mkdir()
    (rules / "testing.md").write_text("# How I test\n", encoding="utf-8")
    second = full_scan(machine, first, changed_paths=frozenset({str(rules)}))
    assert second.sources is not None
    assert second.sources.discovery is first.sources.discovery  # relisted, not found again
    assert dict(second.sources.watch)[str(rules)] is True  # what is written next shows


def test_the_home_reported_whole_rediscovers_the_sources(machine: Machine) -> None:
    first = full_scan(machine)
    (machine.project / "CLAUDE.local.md").write_text("# mine\n", encoding="utf-8")
    second = full_scan(machine, first, changed_paths=frozenset({str(machine.home.root)}))
    assert second.sources is not None and second.sources is not first.sources
    assert second.sources.find(
        next(
            MemoryFileRef(listing.source.id, "CLAUDE.local.md")
            for listing in second.sources.listings
            if listing.source.id.startswith("claude-code:project-")
        )
    )


def test_affected_by_names_a_files_source_and_ignores_what_is_beside_it(machine: Machine) -> None:
    scan = full_scan(machine)
    sources = scan.sources
    assert sources is not None
    memory = sources.affected_by(str(machine.claude_memory / "MEMORY.md"))
    assert memory is not None and memory.id.startswith("claude-code:memory-")
    rules = sources.affected_by(str(machine.claude / "rules"))
    assert rules is not None and rules.id == "claude-code:user"
    assert sources.affected_by(str(machine.claude / "history.jsonl")) is None
    assert sources.affected_by(str(machine.project / "src" / "main.py")) is None
    assert sources.affected_by(str(machine.project / ".claude" / "settings.json")) is None
    assert sources.affected_by("/somewhere/else.md") is None


# -- the tree ------------------------------------------------------------------------------


def test_the_tree_groups_sources_by_project_below_mux_scopes(machine: Machine) -> None:
    scan = full_scan(machine)
    tree = build_tree(scan)
    keys = [section.key for section in tree.children]
    project = str(machine.project)
    assert keys[:3] == ["section:global", "section:project", "section:workspace"]
    assert keys[3:] == [
        project_group_key(project),
        agent_group_key("claude-code"),
        agent_group_key("codex"),
    ]
    group = tree.children[3]
    assert group.name == "acme-api" and group.physical == project
    assert group.section is SectionId.SOURCES and group.read_only
    inside = {child.name: child for child in group.children}
    assert set(inside) == {
        "Claude Code · CLAUDE.md and rules",
        "Claude Code · auto memory",
        "Codex · AGENTS.md",
        "loki-mode · memory",
    }
    memory = inside["Claude Code · auto memory"]
    assert memory.kind is NodeKind.SOURCE and memory.agent == "claude-code"
    assert memory.physical == str(machine.claude_memory.parent)
    files = {node.name: node for node in memory.walk() if node.kind is NodeKind.FILE}
    topic = files["feedback_vercel-env-newline.md"]
    assert topic.tag == "feedback" and topic.description.startswith("vercel env add")
    assert topic.physical == str(machine.claude_memory / "feedback_vercel-env-newline.md")
    assert files["MEMORY.md"].warning is not None  # the real index is over the load limit
    summary = files["summary.md"]
    assert summary.tag == "older session summary" and summary.not_editable_reason is not None
    assert group.file_count == sum(child.file_count for child in group.children)


def test_search_finds_other_agents_files_by_name_and_content(machine: Machine) -> None:
    scan = full_scan(machine)
    assert scan.sources is not None
    found = find_matches(scan, SearchQuery.parse("heredoc"), IndexedTexts())
    memory_id = memory_source(scan)
    key = ref_key(MemoryFileRef(memory_id, "memory/feedback_vercel-env-newline.md"))
    assert key in found and found[key].lines
    tree = build_tree(scan, found)
    matched = [node for node in tree.walk() if node.kind is NodeKind.FILE]
    assert [node.key for node in matched] == list(found)
    sections = [s for s in tree.children if s.section is SectionId.SOURCES]
    assert [s.key for s in sections] == [project_group_key(str(machine.project))]
    assert sections[0].total_count is not None and sections[0].total_count > len(found)
    # Codex's generated files are searched too; loki-mode's JSON as written.
    assert any(
        k.startswith("file:codex:memories:")
        for k in find_matches(scan, SearchQuery.parse("codex"), IndexedTexts())
    )


def test_search_does_not_read_a_file_its_listing_refused(machine: Machine) -> None:
    secret = machine.user / "secret.md"
    secret.write_text("password hunter2\n", encoding="utf-8")
    os.link(secret, machine.claude / "rules" / "linked.md")  # another hard link: not read
    scan = full_scan(machine)
    assert find_matches(scan, SearchQuery.parse("hunter2"), IndexedTexts()) == {}
    assert find_matches(scan, SearchQuery.parse("linked"), IndexedTexts())  # by its name


def test_scan_sources_runs_without_a_previous_scan(machine: Machine) -> None:
    sources = scan_sources(machine.home, None, frozenset(), loader(machine))
    assert sources.file_count > 0 and sources.changes.empty


def test_a_big_homes_lazy_tree_still_builds_every_source_row(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.components.tree import tree as tree_module

    store = MemoryStore(machine.home, full_scan(machine).workspace)
    store.create_file(vpath("/memories/global/deep/notes.md"), "# notes\n")
    monkeypatch.setattr(tree_module, "LAZY_FILL_MIN_FILES", 0)  # every home is "big"
    scan = full_scan(machine)
    assert scan.sources is not None
    built = build_tree(scan)
    deep = next(node for node in built.walk() if node.name == "deep")
    assert deep.unfilled_files == 1 and not deep.children  # mux: filled when opened
    source_files = [node for node in built.walk() if node.kind is NodeKind.FILE and node.agent]
    assert len(source_files) == scan.sources.file_count  # other agents': all built


def test_gemini_cli_s_tiers_are_labelled_in_the_project_and_agent_sections(
    machine: Machine,
) -> None:
    gemini = build_gemini_home(machine.user, machine.project)
    scan = full_scan(machine)
    tree = build_tree(scan)
    keys = [section.key for section in tree.children]
    assert keys[-1] == agent_group_key("gemini")  # the global GEMINI.md, the user's own
    group = next(s for s in tree.children if s.key == project_group_key(str(machine.project)))
    inside = {child.name: child for child in group.children}
    assert {"Gemini CLI · project GEMINI.md", "Gemini CLI · private project memory"} <= set(inside)
    private = inside["Gemini CLI · private project memory"]
    assert private.agent == "gemini" and private.physical == str(gemini.memory)
    rows = {node.name: node for node in private.walk() if node.kind is NodeKind.FILE}
    assert (rows["MEMORY.md"].tag, rows["SKILL.md"].tag, rows["build-notes.md"].tag) == (
        "index",
        "skill",
        "",
    )
    user = tree.children[-1].children[0]
    assert user.name == "global GEMINI.md" and user.physical == str(gemini.gemini_dir)
    # The watcher follows the memory folder whole, ~/.gemini alone (it holds transcripts).
    assert scan.sources is not None
    watched = dict(scan.sources.watch)
    assert watched[str(gemini.memory)] is True and watched[str(gemini.gemini_dir)] is False
    # Search reads Gemini's files like every other agent's.
    found = find_matches(scan, SearchQuery.parse("8080"), IndexedTexts())
    key = ref_key(MemoryFileRef("gemini:memory-acme-api", "MEMORY.md"))
    assert key in found
