"""The demo's other agents' memory is written for the demo: no real person's file in it."""

from __future__ import annotations

from pathlib import Path

from memtab.demo import CLAUDE_PROJECT_SEED
from memtab.resources import resource_path
from support.demo_homes import claude_memory

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
    memory = seed / "claude" / "projects" / CLAUDE_PROJECT_SEED / "memory"
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


def test_the_demo_shows_claudes_last_consolidation_its_subagents_and_a_codex_note(
    tmp_path: Path,
) -> None:
    from memtab.demo import create_demo_home
    from memtab.sources.config import SourceContext
    from memtab.sources.discovery import scan

    home = create_demo_home(tmp_path / "demo")
    listings = {listing.source.id: listing for listing in scan(SourceContext.load(home))[1]}
    auto = listings[claude_memory(home)]
    assert auto.last_consolidated_ms is not None
    assert [f.relative for f in listings["claude-code:agent-memory"].files] == [
        "code-reviewer/MEMORY.md",
        "code-reviewer/house-style.md",
    ]
    notes = [f for f in listings["codex:memories"].files if "ad_hoc/notes/" in f.relative]
    assert len(notes) == 1 and notes[0].writable


def test_the_demo_s_gemini_cli_home_is_laid_out_with_its_paths_where_the_demo_is(
    tmp_path: Path,
) -> None:
    from memtab.demo import create_demo_home, demo_worktree
    from memtab.sources.config import SourceContext
    from memtab.sources.discovery import scan
    from memtab.sources.gemini.inbox import inbox_patches, plan_patch
    from memtab.writer.inbox.gemini import GeminiInbox

    home = create_demo_home(tmp_path / "demo")
    listings = {listing.source.id: listing for listing in scan(SourceContext.load(home))[1]}
    memory = listings["gemini:memory-fix-token-refresh"]
    assert memory.source.project == str(demo_worktree(home))
    assert [f.relative for f in memory.files] == [
        "MEMORY.md",
        "local-db.md",
        "review-checklist.md",
        "skills/refresh-token-tests/SKILL.md",
    ]
    index = (memory.source.root / "MEMORY.md").read_text(encoding="utf-8")
    assert f"{memory.source.root}/local-db.md" in index  # an absolute pointer, as Gemini's
    assert "review-checklist.md" not in index  # one note Gemini CLI never finds
    # Both patches apply to the demo's files as they are.
    gemini = GeminiInbox(home)
    patches = inbox_patches(gemini.roots(memory.source))
    assert [(p.kind, p.problem) for p in patches] == [("private", None), ("global", None)]
    assert [len(plan_patch(gemini.roots(memory.source), p).files) for p in patches] == [2, 1]
