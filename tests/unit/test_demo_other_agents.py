"""The demo's other agents' memory is written for the demo: no real person's file in it."""

from __future__ import annotations

from pathlib import Path

from memtab.resources import resource_path

STORES = Path(__file__).resolve().parents[1] / "fixtures" / "shared" / "memory-stores"
# Lines this long are sentences, not `{`: one shared means a copy. Headings and labels
# are the agents' formats (Codex's "Failures and how to do differently:"), not memory.
MIN_SHARED_LINE = 30


def lines_of(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = (line.strip() for line in text.splitlines())
    return {
        line
        for line in lines
        if len(line) >= MIN_SHARED_LINE and not line.startswith("#") and not line.endswith(":")
    }


def test_no_demo_file_shares_a_line_with_the_real_stores() -> None:
    real: set[str] = set()
    for path in STORES.rglob("*"):
        if path.is_file() and path.name != "README.md":
            real |= lines_of(path)
    assert real  # the real stores are there to compare with
    seed = resource_path("demo", "other-agents")
    demo_files = [p for p in seed.rglob("*") if p.is_file() and p.name != "README.md"]
    assert len(demo_files) >= 15
    for path in demo_files:
        shared = lines_of(path) & real
        assert not shared, f"{path.relative_to(seed)} copies real memory: {sorted(shared)[:2]}"


def test_the_demo_keeps_every_kind_of_file_the_agents_write() -> None:
    seed = resource_path("demo", "other-agents")
    memory = seed / "claude" / "projects" / "-home-dev-src-acme-api" / "memory"
    topics = [p for p in memory.glob("*.md") if p.name != "MEMORY.md"]
    types = {
        line.removeprefix("type:").strip()
        for topic in topics
        for line in topic.read_text(encoding="utf-8").splitlines()
        if line.startswith("type:")
    }
    assert types == {"user", "feedback", "project", "reference"}
    index = (memory / "MEMORY.md").read_text(encoding="utf-8")
    assert all(f"({topic.name})" in index for topic in topics)
    codex = seed / "codex" / "memories"
    assert (codex / "memory_summary.md").is_file() and (codex / "MEMORY.md").is_file()
    assert len(list((codex / "rollout_summaries").glob("*.md"))) == 2
    loki = seed / "loki" / "memory"
    for part in ("episodic", "semantic", "handoffs", "ledgers"):
        assert any((loki / part).rglob("*")), part
