"""What Codex reads at a session's start (docs/formats.md §17.6): its AGENTS.md files
(32 KiB of project docs) and `memories/memory_summary.md` (2,500 tokens of 4 bytes, head
and tail: `MEMORY_TOOL_DEVELOPER_INSTRUCTIONS_SUMMARY_TOKEN_LIMIT` since openai/codex PR
#23148), with `MEMORY.md` and the files the summary names read on demand; the `[memories]`
settings of its `config.toml` (the keys of Codex 0.169.0's `MemoriesToml`: `dual_write`,
`disable_on_external_context`, `use_memories`, `dedicated_tools`; `version`) said where
they change what it reads."""

from __future__ import annotations

from memtab.loads.engine import compute_loads
from memtab.loads.records import AgentLoads
from memtab.store.paths import project_dir_name
from support.agent_machine import WORKSPACE_ID, Machine


def codex(machine: Machine) -> AgentLoads:
    loads = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=("codex",), context=machine.context()
    )
    return loads.agents[0]


def test_the_real_summary_is_read_whole_and_memory_md_on_demand(machine: Machine) -> None:
    agent = codex(machine)
    ids = [f.id or f.path for f in agent.files]
    assert ids == [
        "codex:user:AGENTS.md",
        f"codex:project-{project_dir_name(str(machine.project))}:AGENTS.md",
        "codex:memories:memory_summary.md",
        "codex:memories:MEMORY.md",
    ]
    summary = agent.files[2]
    assert (summary.lines, summary.loaded_lines, summary.cut_at_line) == (72, 72, None)
    assert agent.files[3].when == "on demand" and agent.files[3].loaded_tokens == 0
    assert agent.total_tokens == sum(f.loaded_tokens for f in agent.files[:3])


def test_a_long_summary_keeps_its_first_and_last_5000_bytes(machine: Machine) -> None:
    line = "x" * 49 + "\n"  # 50 bytes a line
    (machine.codex / "memories" / "memory_summary.md").write_text(line * 600, encoding="utf-8")
    summary = codex(machine).files[2]
    assert (summary.cut_at_line, summary.resumes_at_line, summary.loaded_lines) == (101, 501, 200)
    assert summary.loaded_tokens == 2_500
    assert summary.cut_reason == (
        "Codex reads at most 2,500 tokens of memory_summary.md: its head and tail"
    )


def test_project_agents_md_stop_at_32_kib_and_the_override_wins(machine: Machine) -> None:
    (machine.codex / "AGENTS.override.md").write_text("# override\n", encoding="utf-8")
    (machine.project / "AGENTS.md").write_text(("y" * 99 + "\n") * 400, encoding="utf-8")
    agent = codex(machine)
    assert agent.files[0].id == "codex:user:AGENTS.override.md"
    project = agent.files[1]
    # 32,768 bytes: 327 lines of 100 bytes, the 328th cut in its middle.
    assert (project.loaded_lines, project.cut_at_line, project.loaded_bytes) == (327, 328, 32_768)


def test_a_summary_naming_a_rollout_summary_lists_it_on_demand(machine: Machine) -> None:
    memories = machine.codex / "memories"
    rollout = sorted((memories / "rollout_summaries").iterdir())[0].name
    summary = memories / "memory_summary.md"
    summary.write_text(f"v1\n\n- see rollout_summaries/{rollout}\n", encoding="utf-8")
    named = [f.id for f in codex(machine).files if f.when == "on demand"]
    assert named == ["codex:memories:MEMORY.md", f"codex:memories:rollout_summaries/{rollout}"]


def test_a_summary_without_v1_is_read_and_said_to_be_written_again(machine: Machine) -> None:
    assert codex(machine).notes == (
        "memory_summary.md is read when Codex's memories feature is on",
    )
    summary = machine.codex / "memories" / "memory_summary.md"
    summary.write_text(summary.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    agent = codex(machine)
    assert [f.id for f in agent.files][2] == "codex:memories:memory_summary.md"  # read still
    assert agent.notes[-1] == (
        "memory_summary.md does not begin with `v1`: Codex reads it as it is, and its next "
        "consolidation writes it again from scratch"
    )


def _config(machine: Machine, text: str) -> None:
    (machine.codex / "config.toml").write_text(text, encoding="utf-8")


def test_use_memories_off_reads_no_summary(machine: Machine) -> None:
    _config(machine, "[memories]\nuse_memories = false\n")
    agent = codex(machine)
    assert "codex:memories:memory_summary.md" not in [f.id for f in agent.files]
    assert agent.notes == (
        "[memories] use_memories = false in config.toml: Codex puts no memory summary in a session",
    )


def test_version_v2_reads_memories_v2_when_its_summary_is_valid(machine: Machine) -> None:
    v2 = machine.codex / "memories_v2"
    v2.mkdir()
    valid = (
        "v1\n\n## User Profile\nV2 user\n\n## User preferences\nShort answers\n\n"
        "## General Tips\nRun make check\n\n## What's in Memory\n- see MEMORY.md\n"
    )
    (v2 / "memory_summary.md").write_text(valid, encoding="utf-8")
    (v2 / "MEMORY.md").write_text("# v2 handbook\n", encoding="utf-8")
    _config(machine, '[memories]\nversion = "v2"\ndual_write = true\n')
    agent = codex(machine)
    read = [f for f in agent.files if f.kind in ("summary", "named")]
    assert [(f.path, f.when) for f in read] == [
        (str(v2 / "memory_summary.md"), "start"),
        (str(v2 / "MEMORY.md"), "on demand"),
    ]
    assert agent.notes[-1] == (
        "[memories] dual_write is on: Codex's memory pipeline writes memories/ and "
        "memories_v2/ both; a session reads memories_v2/ alone, not memories/"
    )
    # One heading short: Codex does not take it as its v2 summary, and reads none.
    (v2 / "memory_summary.md").write_text(valid.replace("## General Tips", "## Tips"), "utf-8")
    agent = codex(machine)
    assert [f for f in agent.files if f.kind == "summary"] == []
    assert agent.notes[0].startswith("memories_v2/memory_summary.md is not read: Codex uses")


def test_external_context_and_dedicated_tools_are_said(machine: Machine) -> None:
    _config(
        machine,
        "[features]\nmemories = true\n\n[memories]\nno_memories_if_mcp_or_web_search = true\n"
        "dedicated_tools = true\n",
    )
    notes = codex(machine).notes
    assert notes[-2].startswith("[memories] dedicated_tools is on: Codex reads MEMORY.md")
    assert notes[-1] == (
        "[memories] disable_on_external_context is on: a Codex thread that calls an MCP "
        "server — Memtab's included — or searches the web is marked polluted and never "
        "becomes part of Codex's own memory"
    )


def test_the_memories_feature_turned_off_reads_no_summary(machine: Machine) -> None:
    _config(machine, "[features]\nmemories = false\n")
    agent = codex(machine)
    assert [f.kind for f in agent.files] == ["instructions", "instructions"]
    assert agent.notes[-1].startswith("Codex's memories feature is off")


def test_a_config_codex_cannot_read_leaves_the_defaults_saying_so(machine: Machine) -> None:
    _config(machine, "[memories\n")
    agent = codex(machine)
    assert "codex:memories:memory_summary.md" in [f.id for f in agent.files]
    assert agent.notes[0].startswith("Codex's memory settings are its defaults here: ")
    assert "is not TOML Codex can read" in agent.notes[0]
