"""xum's hot set (docs/formats.md §17.6; xum's memoryHotSet.ts and constants/memory.ts):
pins first, then decayed use; at most 8 files, 16 KiB each, 48 KiB and 12,000 tokens."""

from __future__ import annotations

import json

from memtab.loads.engine import compute_loads
from memtab.loads.records import AgentLoads
from memtab.loads.xum import DECAY_HALF_LIFE_MS
from memtab.store.xum_locks import removal_tombstone_path
from support.agent_machine import WORKSPACE_ID, Machine

NOW = 1_800_000_000_000


def write(machine: Machine, files: dict[str, str], meta: dict[str, dict[str, object]]) -> None:
    root = machine.home.global_root
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    entries = {f"global:{name}": entry for name, entry in meta.items()}
    machine.home.meta_path.write_text(json.dumps({"entries": entries}), encoding="utf-8")


def xum(machine: Machine) -> AgentLoads:
    loads = compute_loads(
        machine.home, workspace_id=WORKSPACE_ID, agents=("xum",), context=machine.context(), now=NOW
    )
    return loads.agents[0]


def hot(agent: AgentLoads) -> list[str]:
    return [f.path or "" for f in agent.files if f.when == "start" and f.kind != "index"]


def used(count: int, days_ago: float) -> dict[str, object]:
    return {"accessCount": count, "lastAccessedAt": NOW - int(days_ago * 86_400_000)}


def test_pins_first_then_decayed_use_and_never_the_unused(machine: Machine) -> None:
    names = ["pinned.md", "stale.md", "fresh.md", "unused.md"]
    write(
        machine,
        {name: f"# {name}\n" for name in names},
        {
            "pinned.md": {"pinned": True},
            "stale.md": used(8, 4 * DECAY_HALF_LIFE_MS / 86_400_000),  # 8 × 1/16 = 0.5
            "fresh.md": used(1, 0),
        },
    )
    agent = xum(machine)
    assert hot(agent) == [f"/memories/global/{n}" for n in ("pinned.md", "fresh.md", "stale.md")]
    assert agent.files[0].kind == "index" and agent.files[0].lines == 5  # header + 4 files
    assert [f.kind for f in agent.files[1:4]] == ["pinned", "ranked", "ranked"]


def test_at_most_eight_files_the_rest_said_not_preloaded(machine: Machine) -> None:
    names = [f"pin-{i}.md" for i in range(10)]
    write(machine, {n: "fact\n" for n in names}, {n: {"pinned": True} for n in names})
    agent = xum(machine)
    assert len(hot(agent)) == 8
    left = [f for f in agent.files if f.when == "on demand"]
    assert [f.path for f in left] == ["/memories/global/pin-8.md", "/memories/global/pin-9.md"]
    assert all(f.cut_at_line == 1 and "full" in (f.cut_reason or "") for f in left)


def test_a_file_over_16_kib_is_cut_there(machine: Machine) -> None:
    write(machine, {"big.md": ("z" * 99 + "\n") * 200}, {"big.md": {"pinned": True}})
    big = next(f for f in xum(machine).files if f.path == "/memories/global/big.md")
    # 16,384 bytes: 163 whole lines of 100 bytes, the 164th cut.
    assert (big.lines, big.loaded_lines, big.cut_at_line, big.loaded_bytes) == (
        200,
        163,
        164,
        16_384,
    )


def test_one_that_does_not_fit_is_skipped_and_a_smaller_one_after_it_still_fits(
    machine: Machine,
) -> None:
    # Two 16,000-byte files, then a third that would take the block past 12,000 tokens
    # (≈ 48,000 bytes with its wrappers): skipped, and the small one after it still fits.
    files = {"a0.md": "w" * 16_000, "a1.md": "w" * 16_000, "b-large.md": "w" * 16_000}
    files["c-small.md"] = "tiny\n"
    write(machine, files, {name: {"pinned": True} for name in files})
    agent = xum(machine)
    assert hot(agent) == [f"/memories/global/{n}" for n in ("a0.md", "a1.md", "c-small.md")]
    skipped = next(f for f in agent.files if f.path == "/memories/global/b-large.md")
    assert skipped.when == "on demand" and "12,000 tokens" in (skipped.cut_reason or "")


def test_the_limits_count_the_rendered_block(machine: Machine) -> None:
    # Six 9,000-byte files: 54,000 bytes; the token limit (12,000 ≈ 48,000 bytes with the
    # wrappers) and the 48 KiB of content stop it at five.
    files = {f"n{i}.md": "q" * 9_000 for i in range(6)}
    write(machine, files, {name: {"pinned": True} for name in files})
    agent = xum(machine)
    assert len(hot(agent)) == 5
    assert agent.total_tokens <= 12_000 + agent.files[0].loaded_tokens


def test_without_a_workspace_only_the_global_scope(machine: Machine) -> None:
    write(machine, {"g.md": "global\n"}, {"g.md": {"pinned": True}})
    loads = compute_loads(machine.home, agents=("xum",), context=machine.context(), now=NOW)
    assert hot(loads.agents[0]) == ["/memories/global/g.md"]


def add_sub_agent(machine: Machine, child: str) -> None:
    config = json.loads(machine.home.config_path.read_text(encoding="utf-8"))
    workspaces = config["projects"][0][1]["workspaces"]
    workspaces.append(
        {**workspaces[0], "id": child, "name": child, "parentWorkspaceId": WORKSPACE_ID}
    )
    machine.home.config_path.write_text(json.dumps(config), encoding="utf-8")


def test_a_sub_agent_reads_its_roots_notebook_and_a_removed_one_none(machine: Machine) -> None:
    notebook = machine.home.workspace_root(WORKSPACE_ID)
    notebook.mkdir(parents=True)
    (notebook / "plan.md").write_text("# Plan\n", encoding="utf-8")
    entries = {f"workspace:{WORKSPACE_ID}:plan.md": {"pinned": True}}
    machine.home.meta_path.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    add_sub_agent(machine, "child00001")
    loads = compute_loads(
        machine.home, workspace_id="child00001", agents=("xum",), context=machine.context(), now=NOW
    )
    agent = loads.agents[0]
    assert hot(agent) == ["/memories/workspace/plan.md"]
    assert f"/memories/workspace is the notebook of {WORKSPACE_ID}" in agent.notes
    tombstone = removal_tombstone_path(machine.home, WORKSPACE_ID)
    tombstone.parent.mkdir(parents=True, exist_ok=True)
    tombstone.write_text("{}", encoding="utf-8")
    agent = compute_loads(
        machine.home, workspace_id="child00001", agents=("xum",), context=machine.context(), now=NOW
    ).agents[0]
    assert hot(agent) == [] and agent.files[0].lines == 2  # header, "(no memory files yet)"
    assert "The workspace was removed: xum reads no workspace notes" in agent.notes
