"""Copy to…: between agents, in the target agent's format, never overwriting, never into
a place its agent owns."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MuxFile
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.claude.source import encode_project_path
from memtab.sources.copy import CopyOrigin, CopyResult, copy_note
from memtab.sources.discovery import discover
from memtab.sources.listing import source_file
from memtab.sources.model import ReadOnlyError, Source
from memtab.sources.notes import Note
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import AlreadyExistsError, MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.store.text.frontmatter import description_from_text, frontmatter_strings
from support.agent_machine import WORKSPACE_ID, Machine
from support.memory_paths import vpath


def source_of(machine: Machine, prefix: str) -> Source:
    return next(s for s in discover(machine.context()).sources if s.id.startswith(prefix))


def store_of(machine: Machine) -> MemoryStore:
    workspace = load_registry(machine.home).require_workspace(WORKSPACE_ID)
    return MemoryStore(machine.home, workspace)


def origin(machine: Machine, prefix: str, relative: str) -> CopyOrigin:
    source = source_of(machine, prefix)
    file = source_file(source, relative)
    assert file is not None
    return CopyOrigin.of(AgentFile(source, file, SourceVersions(machine.home)))


def mux_origin(store: MemoryStore, raw: str) -> CopyOrigin:
    return CopyOrigin.of(MuxFile(store, parse_file_path(raw)))


def test_a_claude_feedback_memory_copied_into_mux_global(machine: Machine) -> None:
    store = store_of(machine)
    feedback = origin(machine, "claude-code:memory-", "memory/feedback_vercel-env-newline.md")
    before = feedback.text
    recorded: list[CopyResult] = []
    result = copy_note(
        feedback, "/memories/global/vercel-env.md", store=store, on_copied=recorded.append
    )
    assert recorded == [result] and result.target == "/memories/global/vercel-env.md"
    text = store.read(vpath("/memories/global/vercel-env.md")).content
    # mux reads only `description:`; the topic's name becomes the title.
    assert description_from_text(text) == (
        "vercel env add 시 heredoc(<<<) 사용하면 \\n 붙어 UUID 등 값이 깨짐"
    )
    assert set(frontmatter_strings(text)) == {"description"}
    assert "\n# Vercel env add 개행문자 버그\n" in text
    assert "printf '값' | vercel env add KEY environment" in text
    listed = {f.path.relative for f in store.list_scope(Scope.GLOBAL).files}
    assert "vercel-env.md" in listed
    # The original is untouched.
    assert (
        origin(machine, "claude-code:memory-", "memory/feedback_vercel-env-newline.md").text
        == before
    )


def test_a_mux_memory_becomes_a_claude_topic_file(machine: Machine) -> None:
    store = store_of(machine)
    store.create_file(
        vpath("/memories/project/testing.md"),
        '---\ndescription: "Tests: run them with make check"\n---\n\n# Testing\n\n- make check\n',
    )
    memory = source_of(machine, "claude-code:memory-")
    mux_note = mux_origin(store, "/memories/project/testing.md")
    copy_note(mux_note, "memory/project_testing.md", source=memory, topic_type="project")
    text = (machine.claude_memory / "project_testing.md").read_text(encoding="utf-8")
    assert frontmatter_strings(text) == {
        "name": "testing",
        "description": "Tests: run them with make check",
        "type": "project",
    }
    assert text.endswith("# Testing\n\n- make check\n")
    listed = source_file(memory, "memory/project_testing.md")
    assert listed is not None and listed.topic_type == "project"


def test_a_claude_topic_keeps_its_type_when_copied_between_projects(machine: Machine) -> None:
    own = f"claude-code:memory-{encode_project_path(str(machine.project))}"
    other = machine.claude / "projects" / "-srv-other" / "memory"
    other.mkdir(parents=True)
    feedback = origin(machine, own, "memory/feedback_verify-before-asserting.md")
    target = source_of(machine, "claude-code:memory--srv-other")
    copy_note(feedback, "memory/feedback_verify.md", source=target)
    fields = frontmatter_strings((other / "feedback_verify.md").read_text(encoding="utf-8"))
    assert fields["type"] == "feedback" and fields["name"] == "정규식·도구 출력 단정 전 재검증"


def test_a_memory_becomes_a_codex_skill(machine: Machine) -> None:
    feedback = origin(machine, "claude-code:memory-", "memory/reference_vercel-cli-rest-api.md")
    copy_note(feedback, "skills/vercel-rest/SKILL.md", source=source_of(machine, "codex:memories"))
    text = (machine.codex / "memories" / "skills" / "vercel-rest" / "SKILL.md").read_text()
    fields = frontmatter_strings(text)
    assert fields["name"] == "vercel-cli-oauth-rest-api"  # Codex: lowercase and hyphens
    assert fields["description"].startswith("vercel CLI는")


def test_a_copy_never_overwrites(machine: Machine) -> None:
    store = store_of(machine)
    feedback = origin(machine, "claude-code:memory-", "memory/feedback_vercel-env-newline.md")
    copy_note(feedback, "/memories/global/a.md", store=store)
    with pytest.raises(AlreadyExistsError):
        copy_note(feedback, "/memories/global/a.md", store=store)
    memory = source_of(machine, "claude-code:memory-")
    existing = machine.claude_memory / "project_config-sync.md"
    before = existing.read_bytes()
    with pytest.raises(Exception, match="already exists"):
        copy_note(feedback, "memory/project_config-sync.md", source=memory)
    assert existing.read_bytes() == before


@pytest.mark.parametrize(
    ("prefix", "relative", "error"),
    [
        ("codex:memories", "raw_memories.md", ReadOnlyError),
        ("codex:memories", "rollout_summaries/new.md", ReadOnlyError),
        ("loki:", "semantic/new.json", ReadOnlyError),
        ("claude-code:memory-", "some-session/session-memory/summary.md", ReadOnlyError),
        ("claude-code:memory-", "notes.md", SourceError),  # not a place of that source
        ("claude-code:user", "settings.json", SourceError),
        ("claude-code:memory-", "memory/../../../escape.md", SourceError),
        ("claude-code:memory-", "memory/.hidden.md", SourceError),
        ("claude-code:memory-", "memory/a\\b.md", SourceError),
    ],
)
def test_a_copy_into_a_place_its_agent_owns_is_refused(
    machine: Machine, prefix: str, relative: str, error: type[Exception]
) -> None:
    feedback = origin(machine, "claude-code:memory-", "memory/feedback_vercel-env-newline.md")
    source = source_of(machine, prefix)
    target = source.root / relative
    before = target.read_bytes() if target.is_file() else None
    with pytest.raises(error):
        copy_note(feedback, relative, source=source)
    assert (target.read_bytes() if target.is_file() else None) == before


def test_a_rendered_loki_pattern_can_be_copied_into_mux(machine: Machine) -> None:
    store = store_of(machine)
    patterns = origin(machine, "loki:", "semantic/patterns.json")
    copy_note(patterns, "/memories/project/loki-patterns.md", store=store)
    text = store.read(vpath("/memories/project/loki-patterns.md")).content
    assert description_from_text(text) == "Semantic patterns (1)"
    assert "Correct approach: (none recorded)" in text


@pytest.mark.parametrize(
    "description",
    ['Quotes " and \\ and: colons', "yes", "123", "- a dash", "# hash", "많은 한국어 설명"],
)
def test_descriptions_survive_the_conversion(description: str) -> None:
    note = Note("n", description, "body\n")
    assert description_from_text(note.as_mux()) == description
    assert frontmatter_strings(note.as_claude_topic("user"))["description"] == description


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("---\nname: a\ntype: feedback\n---\nbody\n", {"name": "a", "type": "feedback"}),
        ("---\nname: 'quoted'\ncount: 3\nflag: true\n---\n", {"name": "quoted"}),
        ("---\nname: a\nname: b\n---\n", {}),  # a repeated key: mux's parser refuses
        ("---\ndescription: >\n  folded\n  text\n---\n", {"description": "folded text"}),
        ("---\n[not, a, mapping]\n---\n", {}),
        ("no frontmatter\n", {}),
    ],
)
def test_frontmatter_strings_are_read_by_the_stores_rules(
    text: str, fields: dict[str, str]
) -> None:
    assert frontmatter_strings(text) == fields


def test_a_copy_into_a_linked_agent_folder_is_refused(machine: Machine, tmp_path: Path) -> None:
    """Issue 19: Copy to… wrote through `~/.claude/projects/<name>` linked elsewhere."""
    folder = machine.claude_memory.parent
    outside = tmp_path / "outside"
    folder.rename(outside)
    folder.symlink_to(outside)
    store = store_of(machine)
    store.create_file(vpath("/memories/global/tips.md"), "---\ndescription: Tips\n---\n\n- one\n")
    note = mux_origin(store, "/memories/global/tips.md")
    memory = source_of(machine, "claude-code:memory-")
    with pytest.raises(ReadOnlyError, match="is a link to"):
        copy_note(note, "memory/project_tips.md", source=memory, topic_type="project")
    assert not (outside / "memory" / "project_tips.md").exists()
