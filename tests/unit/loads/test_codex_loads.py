"""What Codex reads at a session's start (docs/formats.md §17.6): its AGENTS.md files
(32 KiB of project docs) and `memories/memory_summary.md` (5,000 tokens of 4 bytes, head
and tail), with `MEMORY.md` and the files the summary names read on demand."""

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


def test_a_long_summary_keeps_its_first_and_last_10000_bytes(machine: Machine) -> None:
    line = "x" * 49 + "\n"  # 50 bytes a line
    (machine.codex / "memories" / "memory_summary.md").write_text(line * 600, encoding="utf-8")
    summary = codex(machine).files[2]
    assert (summary.cut_at_line, summary.resumes_at_line, summary.loaded_lines) == (201, 401, 400)
    assert summary.loaded_tokens == 5_000


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
