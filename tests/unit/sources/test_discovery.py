"""Finding every agent's memory: defaults, the agents' variables, Memtab's settings, the
home's own overrides, and projects known to mux, Codex and Claude Code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from memtab.file_protocol.file_ref import parse_file_id
from memtab.sources.claude.source import encode_project_path
from memtab.sources.config import AgentSettings, load_sources_settings, save_agent_settings
from memtab.sources.discovery import discover, scan
from memtab.sources.model import Layout
from memtab.store.paths import project_dir_name
from memtab.store.sidecars.registry import add_workspace
from support.agent_machine import Machine


def ids(machine: Machine, **env: str) -> set[str]:
    return {s.id for s in discover(machine.context(**env)).sources}


def test_every_agent_is_found_in_the_users_home(machine: Machine) -> None:
    discovery, listings = scan(machine.context())
    slug = project_dir_name(str(machine.project))
    found = {listing.source.id: listing for listing in listings}
    assert set(found) == {
        "claude-code:user",
        f"claude-code:memory-{encode_project_path(str(machine.project))}",
        f"claude-code:project-{slug}",
        "codex:user",
        "codex:memories",
        f"codex:project-{slug}",
        f"loki:project-{slug}",
    }
    projects = {s.project for s in discovery.sources if s.project is not None}
    assert projects == {str(machine.project)}
    assert all(listing.files for listing in listings)


def test_source_and_file_ids_are_stable_and_round_trip(machine: Machine) -> None:
    first, second = scan(machine.context())[1], scan(machine.context())[1]
    assert [[f.id for f in listing.files] for listing in first] == [
        [f.id for f in listing.files] for listing in second
    ]
    for listing in first:
        for file in listing.files:
            parsed = parse_file_id(file.id)
            assert (parsed.source_id, parsed.relative) == (listing.source.id, file.relative)
            assert file.id.isprintable()


def test_the_agents_variables_point_elsewhere(machine: Machine, tmp_path: Path) -> None:
    moved_claude, moved_codex = tmp_path / "elsewhere" / "claude", tmp_path / "elsewhere" / "cx"
    shutil.move(machine.claude, moved_claude)
    shutil.move(machine.codex, moved_codex)
    loki_dir = tmp_path / "team" / ".loki"
    (loki_dir / "memory" / "semantic").mkdir(parents=True)
    (loki_dir / "memory" / "semantic" / "patterns.json").write_text('{"patterns": []}')

    assert not {"claude-code:user", "codex:user"} & ids(machine)  # the defaults are gone
    context = machine.context(
        CLAUDE_CONFIG_DIR=str(moved_claude), CODEX_HOME=str(moved_codex), LOKI_DIR=str(loki_dir)
    )
    discovery = discover(context)
    roots = {s.id: s.root for s in discovery.sources}
    assert roots["claude-code:user"] == moved_claude.resolve()
    assert roots["codex:memories"] == (moved_codex / "memories").resolve()
    assert roots["loki:dir"] == (loki_dir / "memory").resolve()
    looked = {(item.agent, item.how) for item in discovery.looked_for if item.found}
    assert {("claude-code", "CLAUDE_CONFIG_DIR"), ("codex", "CODEX_HOME")} <= looked


def test_a_loki_dir_that_is_a_projects_own_is_listed_once(machine: Machine) -> None:
    found = ids(machine, LOKI_DIR=str(machine.project / ".loki"))
    assert [i for i in found if i.startswith("loki:")] == [
        f"loki:project-{project_dir_name(str(machine.project))}"
    ]


def test_claude_code_falls_back_to_the_xdg_config_dir(machine: Machine) -> None:
    shutil.move(machine.claude, machine.user / ".config" / "claude")
    roots = {s.id: s.root for s in discover(machine.context()).sources}
    assert roots["claude-code:user"] == (machine.user / ".config" / "claude").resolve()


def test_settings_turn_agents_off_and_choose_their_paths(machine: Machine, tmp_path: Path) -> None:
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path / "config")}
    save_agent_settings("codex", AgentSettings(enabled=False), env=env)
    save_agent_settings("loki", AgentSettings(enabled=False), env=env)
    found = ids(machine, **env)
    assert not any(i.startswith(("codex:", "loki:")) for i in found)
    assert "claude-code:user" in found
    assert any(
        item.agent == "codex" and item.note == "turned off"
        for item in discover(machine.context(**env)).looked_for
    )
    # A path chosen in Memtab wins over the agent's variable.
    other = tmp_path / "other-claude"
    (other / "rules").mkdir(parents=True)
    save_agent_settings("claude-code", AgentSettings(enabled=True, path=str(other)), env=env)
    sources = discover(machine.context(CLAUDE_CONFIG_DIR=str(machine.claude), **env)).sources
    assert {s.root for s in sources if s.id == "claude-code:user"} == {other.resolve()}
    # Each save kept the other agents' settings.
    settings = load_sources_settings(env)
    assert settings.agent("codex") == AgentSettings(enabled=False)
    assert settings.agent("claude-code").path == str(other)


def test_the_settings_file_keeps_other_sections_and_survives_nonsense(
    machine: Machine, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(
        json.dumps({"writer": {"mode": "off"}, "sources": {"codex": {"enabled": "no"}}})
    )
    env = {"MEMTAB_CONFIG_DIR": str(config)}
    settings = load_sources_settings(env)
    assert settings.agent("codex").enabled and settings.problems  # malformed: the default
    save_agent_settings("loki", AgentSettings(enabled=False), env=env)
    stored = json.loads((config / "settings.json").read_text())
    assert stored["writer"] == {"mode": "off"}
    assert stored["sources"]["loki"] == {"enabled": False, "path": None}


def test_an_isolated_home_looks_nowhere_else(machine: Machine, tmp_path: Path) -> None:
    """The demo's rule: its own agents only; never `~`, the variables or settings.json."""
    own = machine.home.root / "agents" / "claude"
    (own / "rules").mkdir(parents=True)
    (own / "CLAUDE.md").write_text("# demo\n")
    (machine.home.memtab_dir).mkdir(parents=True, exist_ok=True)
    (machine.home.memtab_dir / "sources.json").write_text(
        json.dumps({"isolated": True, "claude-code": {"path": "agents/claude"}})
    )
    # A project inside the home: its CLAUDE.md counts, its AGENTS.md and .loki do not (the
    # home turns on Claude Code only).
    inside = machine.home.root / "projects" / "tool"
    (inside / ".loki" / "memory").mkdir(parents=True)
    (inside / "CLAUDE.md").write_text("# tool\n")
    (inside / "AGENTS.md").write_text("# tool\n")
    add_workspace(machine.home, str(inside), "main", workspace_id="1nside0001")
    env = {"CODEX_HOME": str(machine.codex), "LOKI_DIR": str(machine.project / ".loki")}
    discovery = discover(machine.context(CLAUDE_CONFIG_DIR=str(machine.claude), **env))
    assert {s.id for s in discovery.sources} == {
        "claude-code:user",
        f"claude-code:project-{project_dir_name(str(inside))}",
    }
    assert discovery.sources[0].root == own.resolve()


def test_a_broken_home_overrides_file_shows_nothing_rather_than_the_real_agents(
    machine: Machine,
) -> None:
    machine.home.memtab_dir.mkdir(parents=True, exist_ok=True)
    (machine.home.memtab_dir / "sources.json").write_text("{not json")
    context = machine.context()
    assert discover(context).sources == ()
    assert any("sources.json" in problem for problem in context.problems)


def test_workspace_paths_and_codex_projects_are_known_projects(
    machine: Machine, tmp_path: Path
) -> None:
    # A worktree of acme-api registered as a mux workspace: its Claude Code memory belongs
    # to acme-api.
    worktree = tmp_path / "src" / "acme-api-worktrees" / "fix"
    add_workspace(machine.home, str(machine.project), "fix", "f1f2f3f4f5", str(worktree))
    memory = machine.claude / "projects" / encode_project_path(str(worktree)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("# Memory\n")
    # A project only Codex knows (trusted in config.toml), with its AGENTS.md.
    codex_only = tmp_path / "src" / "codex-only"
    codex_only.mkdir(parents=True)
    (codex_only / "AGENTS.md").write_text("# codex only\n")
    (machine.codex / "config.toml").write_text(
        f'model = "gpt-5"\n[projects."{codex_only}"]\ntrust_level = "trusted"\n'
    )
    # Claude Code ran there too: its name also fits src/codex/only, which exists. Codex's
    # knowledge of the project decides.
    (tmp_path / "src" / "codex" / "only").mkdir(parents=True)
    codex_only_memory = machine.claude / "projects" / encode_project_path(str(codex_only))
    (codex_only_memory / "memory").mkdir(parents=True)
    sources = discover(machine.context()).sources
    by_id = {s.id: s for s in sources}
    assert by_id[f"claude-code:memory-{codex_only_memory.name}"].project == str(codex_only)
    worktree_memory = by_id[f"claude-code:memory-{encode_project_path(str(worktree))}"]
    assert worktree_memory.project == str(machine.project)
    assert by_id[f"codex:project-{project_dir_name(str(codex_only))}"].project == str(codex_only)


def test_claude_directories_without_memory_are_left_out_of_the_scan(machine: Machine) -> None:
    only_transcripts = machine.claude / "projects" / "-tmp-scratch"
    only_transcripts.mkdir()
    (only_transcripts / "s.jsonl").write_text('{"type": "user"}\n')
    discovery, listings = scan(machine.context())
    assert "claude-code:memory--tmp-scratch" in {s.id for s in discovery.sources}
    assert "claude-code:memory--tmp-scratch" not in {listing.source.id for listing in listings}


def test_a_broken_registry_hides_no_agent(machine: Machine) -> None:
    machine.home.config_path.write_text("{broken")
    found = ids(machine)
    assert {"claude-code:user", "codex:memories"} <= found


def test_the_watcher_maps_changes_back_to_their_source(machine: Machine) -> None:
    discovery = discover(machine.context())
    topic = machine.claude_memory.resolve() / "feedback_vercel-env-newline.md"
    source = discovery.source_containing(topic)
    assert source is not None and source.layout is Layout.CLAUDE_MEMORY
    assert discovery.source_containing(Path("/nowhere/at/all.md")) is None
    # The deepest root wins: a loki file is loki's, not the project instructions'.
    loki_file = machine.project / ".loki" / "memory" / "index.json"
    loki = discovery.source_containing(loki_file)
    assert loki is not None and loki.agent == "loki"


def test_where_a_source_may_appear_is_known_and_an_entry_there_opens_one(
    machine: Machine,
) -> None:
    """The window finds the sources again when a change is one of these: a project's first
    Claude Code folder, Codex's first memories, loki-mode's memory in a known project."""
    discovery = discover(machine.context())
    projects = machine.claude / "projects"
    assert discovery.opens(str(projects / "-src-billing"))
    existing = projects / encode_project_path(str(machine.project))
    assert not discovery.opens(str(existing))  # a source already: relisted, not found again
    assert discovery.opens(str(machine.codex / "memories_extensions"))
    assert not discovery.opens(str(machine.codex / "history.jsonl"))  # Codex writes it often
    assert discovery.opens(str(machine.project / ".loki"))
    assert discovery.opens(str(machine.project / "AGENTS.override.md"))
    assert not discovery.opens(str(machine.project / "README.md"))
    assert not discovery.opens(str(machine.project / "src" / "CLAUDE.md"))
    assert not discovery.opens(str(machine.claude / "history.jsonl"))
