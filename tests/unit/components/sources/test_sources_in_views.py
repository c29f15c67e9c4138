"""Other agents' memory in the Memory tab's rules (no Qt): the scan, the tree sections,
search across sources, the editor's documents and Copy to…, on a developer's machine
built from real stores (support.agent_machine)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.components.editor.documents import (
    DocumentError,
    DocumentMissingError,
    MuxDocument,
    SaveConflictError,
    SourceDocument,
)
from memtab.components.files.undo import UndoStack, undo_step
from memtab.components.search.search import ContentIndex, SearchQuery, find_matches
from memtab.components.sources import undo as source_undo
from memtab.components.sources.copy import copy_targets, copy_to, default_name
from memtab.components.sources.scan import scan_sources
from memtab.components.sources.tree import agent_group_key, project_group_key, source_file_key
from memtab.components.tree.scan import HomeScan, ScanRequest, scan_home
from memtab.components.tree.tree import NodeKind, SectionId, build_tree
from memtab.fs.atomic import atomic_write_text
from memtab.sources.config import SourceContext
from memtab.sources.layouts import GENERATED_BY_CODEX
from memtab.store.history.undo import trash
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.memory import MemoryStore
from memtab.store.paths import Scope, parse_file_path
from support.agent_machine import WORKSPACE_ID, Machine, build_machine


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)


def loader(machine: Machine) -> Callable[[Home], SourceContext]:
    return lambda _home: machine.context()


def full_scan(machine: Machine, previous: HomeScan | None = None, **request: object) -> HomeScan:
    return scan_home(
        ScanRequest(
            machine.home,
            WORKSPACE_ID,
            previous=previous,
            with_sources=True,
            source_context=loader(machine),
            **request,  # type: ignore[arg-type]
        )
    )


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
    # The watcher is given the sources' directories, never a whole project or projects/.
    watched = dict(scan.sources.watch)
    assert watched[str(machine.claude_memory)] is True
    assert watched[str(machine.project)] is False
    assert str(machine.claude / "projects") not in watched


def test_a_rescan_relists_only_the_source_a_change_touched(machine: Machine) -> None:
    first = full_scan(machine)
    assert first.sources is not None
    topic = machine.claude_memory / "feedback_new.md"
    atomic_write_text(topic, "---\nname: New\ndescription: A new lesson\ntype: feedback\n---\n")
    second = full_scan(machine, first, changed_paths=frozenset({str(topic)}))
    assert second.sources is not None
    memory_id = memory_source(second)
    assert f"{memory_id}:memory/feedback_new.md" in second.sources.changes.changed
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
    assert fourth.sources.changes.deleted == {f"{memory_id}:memory/feedback_new.md"}


def test_the_home_reported_whole_rediscovers_the_sources(machine: Machine) -> None:
    first = full_scan(machine)
    (machine.project / "CLAUDE.local.md").write_text("# mine\n", encoding="utf-8")
    second = full_scan(machine, first, changed_paths=frozenset({str(machine.home.root)}))
    assert second.sources is not None and second.sources is not first.sources
    assert second.sources.find(
        next(
            f"{listing.source.id}:CLAUDE.local.md"
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
    assert summary.tag == "session summary" and summary.not_editable_reason is not None
    assert group.file_count == sum(child.file_count for child in group.children)


def test_search_finds_other_agents_files_by_name_and_content(machine: Machine) -> None:
    scan = full_scan(machine)
    assert scan.sources is not None
    found = find_matches(scan, SearchQuery.parse("heredoc"), ContentIndex())
    memory_id = memory_source(scan)
    key = source_file_key(f"{memory_id}:memory/feedback_vercel-env-newline.md")
    assert key in found and found[key].lines
    tree = build_tree(scan, found)
    matched = [node for node in tree.walk() if node.kind is NodeKind.FILE]
    assert [node.key for node in matched] == list(found)
    sections = [s for s in tree.children if s.section is SectionId.SOURCES]
    assert [s.key for s in sections] == [project_group_key(str(machine.project))]
    assert sections[0].total_count is not None and sections[0].total_count > len(found)
    # Codex's generated files are searched too; loki-mode's JSON as written.
    assert any(
        k.startswith(source_file_key("codex:memories:"))
        for k in find_matches(scan, SearchQuery.parse("codex"), ContentIndex())
    )


def test_search_does_not_read_a_file_its_listing_refused(machine: Machine) -> None:
    secret = machine.user / "secret.md"
    secret.write_text("password hunter2\n", encoding="utf-8")
    os.link(secret, machine.claude / "rules" / "linked.md")  # another hard link: not read
    scan = full_scan(machine)
    assert find_matches(scan, SearchQuery.parse("hunter2"), ContentIndex()) == {}
    assert find_matches(scan, SearchQuery.parse("linked"), ContentIndex())  # by its name


# -- the editor's documents ------------------------------------------------------------------


def source_document(scan: HomeScan, file_id: str) -> SourceDocument:
    assert scan.sources is not None
    found = scan.sources.find(file_id)
    assert found is not None
    return SourceDocument(*found)


def test_a_source_document_saves_against_the_sha_it_read(machine: Machine) -> None:
    scan = full_scan(machine)
    document = source_document(scan, "claude-code:user:CLAUDE.md")
    assert document.key == source_file_key("claude-code:user:CLAUDE.md")
    # The editor names it where it really is; the id stays the CLI's name for it.
    assert document.title == str(machine.claude / "CLAUDE.md")
    assert document.read_only_reason is None
    loaded = document.read()
    sha = document.save(loaded.content + "- Be brief.\n", loaded.sha256)
    assert (machine.claude / "CLAUDE.md").read_text(encoding="utf-8").endswith("- Be brief.\n")
    (machine.claude / "CLAUDE.md").write_text("# changed by Claude Code\n", encoding="utf-8")
    with pytest.raises(SaveConflictError):
        document.save("mine\n", sha)
    assert (machine.claude / "CLAUDE.md").read_text(
        encoding="utf-8"
    ) == "# changed by Claude Code\n"
    (machine.claude / "CLAUDE.md").unlink()
    with pytest.raises(DocumentMissingError):
        document.read()
    document.save("recreated\n", None)  # a deleted file's draft is saved again
    assert (machine.claude / "CLAUDE.md").read_text(encoding="utf-8") == "recreated\n"


def test_a_generated_file_is_a_read_only_document_that_says_who_writes_it(
    machine: Machine,
) -> None:
    scan = full_scan(machine)
    document = source_document(scan, "codex:memories:MEMORY.md")
    assert document.read_only_reason == GENERATED_BY_CODEX
    before = (machine.codex / "memories" / "MEMORY.md").read_bytes()
    with pytest.raises(DocumentError, match="read-only"):
        document.save("overwritten\n", document.read().sha256)
    assert (machine.codex / "memories" / "MEMORY.md").read_bytes() == before


def test_a_mux_document_reads_and_saves_through_the_store(machine: Machine) -> None:
    store = MemoryStore(machine.home, full_scan(machine).workspace)
    store.create_file("/memories/global/notes.md", "one\n")
    document = MuxDocument(store, parse_file_path("/memories/global/notes.md"))
    loaded = document.read()
    document.save("two\n", loaded.sha256)
    assert document.read().content == "two\n"
    with pytest.raises(DocumentError, match="limited to"):  # the store's refusal
        document.save("x" * 200_000, document.read().sha256)
    with pytest.raises(SaveConflictError):
        MuxDocument(store, parse_file_path("/memories/global/gone.md")).save("x\n", "0" * 64)
    with pytest.raises(DocumentMissingError):
        MuxDocument(store, parse_file_path("/memories/global/gone.md")).read()


# -- Copy to… ------------------------------------------------------------------------------


def test_copy_targets_are_mux_scopes_and_sources_that_take_new_files(machine: Machine) -> None:
    scan = full_scan(machine)
    memory_id = memory_source(scan)
    targets = {target.key: target for target in copy_targets(scan, memory_id)}
    assert {"mux:global", "mux:project", "mux:workspace"} <= set(targets)
    assert f"source:{memory_id}" not in targets  # not into where it comes from
    assert "source:claude-code:user" in targets and "source:codex:memories" in targets
    assert not any(key.startswith("source:loki:") for key in targets)  # loki is read-only
    assert not any(key.startswith("source:codex:project-") for key in targets)  # one AGENTS.md
    skill = targets["source:codex:memories"]
    assert skill.target_for("deploy") == "skills/deploy/SKILL.md"
    assert skill.problem("a/b") is not None and skill.problem("") == "Enter a name"
    assert targets["mux:global"].target_for("tips.md") == "/memories/global/tips.md"
    assert targets["mux:global"].problem("../x") is not None


def test_a_linked_agent_folder_is_no_copy_target_and_a_copy_there_is_refused(
    machine: Machine, tmp_path: Path
) -> None:
    scan = full_scan(machine)
    memory_id = memory_source(scan)
    target = next(t for t in copy_targets(scan) if t.key == f"source:{memory_id}")
    folder = machine.claude_memory.parent
    outside = tmp_path / "outside"
    folder.rename(outside)
    folder.symlink_to(outside)
    store = MemoryStore(machine.home, scan.workspace)
    store.create_file("/memories/global/tips.md", "---\ndescription: Tips\n---\n\n- one\n")
    # Copy to… chosen before the folder became a link: refused, nothing written there.
    result = copy_to(store, parse_file_path("/memories/global/tips.md"), target, "tips", "user")
    assert not result.ok and "link" in (result.error or "")
    assert not (outside / "memory" / "tips.md").exists()
    rescanned = full_scan(machine)
    assert f"source:{memory_id}" not in {t.key for t in copy_targets(rescanned)}


def test_copy_to_converts_frontmatter_and_records_a_mux_copy_in_history(machine: Machine) -> None:
    scan = full_scan(machine)
    memory_id = memory_source(scan)
    assert scan.sources is not None
    origin = scan.sources.find(f"{memory_id}:memory/feedback_vercel-env-newline.md")
    assert origin is not None
    assert default_name(origin) == "feedback_vercel-env-newline"
    store = MemoryStore(machine.home, scan.workspace)
    target = next(t for t in copy_targets(scan, memory_id) if t.scope is Scope.GLOBAL)
    result = copy_to(store, origin, target, "vercel")
    assert result.ok and result.created == parse_file_path("/memories/global/vercel.md")
    text = (machine.home.global_root / "vercel.md").read_text(encoding="utf-8")
    assert text.startswith("---\ndescription: vercel env add") and "type:" not in text
    versions = [
        version
        for version in ScopeHistory(machine.home, "global").versions()
        if version.path == "/memories/global/vercel.md"
    ]
    assert [(version.op, version.actor) for version in versions] == [("create", "user")]
    again = copy_to(store, origin, target, "vercel")
    assert not again.ok and "already exists" in (again.error or "")
    # Back into Claude Code's auto memory as a topic of the chosen type.
    claude = next(t for t in copy_targets(scan) if t.key == f"source:{memory_id}")
    back = copy_to(
        store, parse_file_path("/memories/global/vercel.md"), claude, "user_vercel", "user"
    )
    assert back.ok, back.error
    topic = (machine.claude_memory / "user_vercel.md").read_text(encoding="utf-8")
    assert "type: user" in topic and "name:" in topic
    assert claude.open_key("user_vercel") == source_file_key(f"{memory_id}:memory/user_vercel.md")


def test_undoing_a_copy_removes_only_what_the_copy_wrote(machine: Machine) -> None:
    scan = full_scan(machine)
    memory_id = memory_source(scan)
    assert scan.sources is not None
    origin = scan.sources.find(f"{memory_id}:memory/feedback_vercel-env-newline.md")
    assert origin is not None
    store = MemoryStore(machine.home, scan.workspace)
    targets = {target.key: target for target in copy_targets(scan, memory_id)}
    stack = UndoStack()
    # Into mux: the copy goes to Recently deleted.
    assert source_undo.copy_to(stack, store, origin, targets["mux:global"], "vercel").ok
    step = stack.pop()
    assert step is not None and step.description == "copy to vercel.md"
    assert undo_step(machine.home, step).ok
    assert not (machine.home.global_root / "vercel.md").exists()
    assert [item.path for item in trash(store)] == ["/memories/global/vercel.md"]
    # Into a Codex skill: the file and the folder made for it go, the skills folder stays.
    skills = machine.codex / "memories" / "skills"
    had_skills = skills.exists()
    assert source_undo.copy_to(stack, store, origin, targets["source:codex:memories"], "vercel").ok
    assert (skills / "vercel" / "SKILL.md").is_file()
    step = stack.pop()
    assert step is not None
    result = undo_step(machine.home, step)
    assert result.ok, result.error
    assert not (skills / "vercel").exists() and skills.exists() == had_skills
    # Into Claude Code's user rules, then edited there: the undo keeps the edit.
    user = targets["source:claude-code:user"]
    assert source_undo.copy_to(stack, store, origin, user, "vercel").ok
    rule = machine.claude / "rules" / "vercel.md"
    atomic_write_text(rule, rule.read_text(encoding="utf-8") + "- mine\n")
    step = stack.pop()
    assert step is not None
    refused = undo_step(machine.home, step)
    assert not refused.ok and "changed since it was copied" in (refused.error or "")
    assert rule.read_text(encoding="utf-8").endswith("- mine\n")
    # A copy that failed pushes nothing.
    assert not source_undo.copy_to(stack, store, origin, user, "vercel").ok
    assert len(stack) == 0


def test_copy_to_refuses_a_name_that_leaves_its_place(machine: Machine) -> None:
    scan = full_scan(machine)
    skill = next(t for t in copy_targets(scan) if t.key == "source:codex:memories")
    assert skill.problem("x") is None
    store = MemoryStore(machine.home, scan.workspace)
    origin = parse_file_path("/memories/global/x.md")
    store.create_file(str(origin), "# x\n")
    result = copy_to(store, origin, skill, "../../x")
    assert not result.ok and "Invalid path" in (result.error or "")
    assert not (machine.codex / "x").exists()


def test_scan_sources_runs_without_a_previous_scan(machine: Machine) -> None:
    sources = scan_sources(machine.home, None, frozenset(), loader(machine))
    assert sources.file_count > 0 and sources.changes.empty


def test_a_big_homes_lazy_tree_still_builds_every_source_row(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.components.tree import tree as tree_module

    store = MemoryStore(machine.home, full_scan(machine).workspace)
    store.create_file("/memories/global/deep/notes.md", "# notes\n")
    monkeypatch.setattr(tree_module, "LAZY_FILL_MIN_FILES", 0)  # every home is "big"
    scan = full_scan(machine)
    assert scan.sources is not None
    built = build_tree(scan)
    deep = next(node for node in built.walk() if node.name == "deep")
    assert deep.unfilled_files == 1 and not deep.children  # mux: filled when opened
    source_files = [node for node in built.walk() if node.kind is NodeKind.FILE and node.source_id]
    assert len(source_files) == scan.sources.file_count  # other agents': all built
