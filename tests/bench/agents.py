"""A busy developer's other agents, for the benchmarks: Claude Code, Codex and loki-mode
memory of 20 projects registered in a mux home (tests/bench/test_sources_bench.py and the
start-up bench's with/without comparison share it).

20 projects (half with CLAUDE.md, a third with AGENTS.md, a quarter with a `.loki/memory`
of 60 episodes); Claude Code with 170 project directories (20 with auto memory of 13
files and 5 session summaries, 150 with transcripts only, whose project is read from a
transcript); Codex with 200 rollout summaries and 10 skills.
"""

from __future__ import annotations

import json
from pathlib import Path

from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

PROJECTS = 20
CLAUDE_ONLY_DIRS = 150
NOTE = "---\ndescription: {0}\n---\n\n# {0}\n\n" + "- a remembered detail of the project\n" * 40


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_agents(root: Path, user: Path, home: Home) -> str:
    """The agents' memory under `user` (`~`), its projects under `root/src`, each
    registered in `home`; returns the last workspace id registered."""
    claude, codex = user / ".claude", user / ".codex"
    write(claude / "CLAUDE.md", "# me\n")
    workspace_id = ""
    for index in range(PROJECTS):
        project = root / "src" / f"service-{index:02d}"
        project.mkdir(parents=True)
        workspace_id = f"b{index:09d}"
        add_workspace(home, str(project), "main", workspace_id=workspace_id)
        if index % 2 == 0:
            write(project / "CLAUDE.md", NOTE.format("project instructions"))
            write(project / ".claude" / "rules" / "style.md", NOTE.format("style"))
        if index % 3 == 0:
            write(project / "AGENTS.md", NOTE.format("codex instructions"))
        if index % 4 == 0:
            for episode in range(60):
                write(
                    project
                    / ".loki"
                    / "memory"
                    / "episodic"
                    / "2026-03-21"
                    / f"task-{episode}.json",
                    json.dumps({"id": f"ep-{episode}", "context": {"goal": "ship"}}),
                )
        encoded = claude / "projects" / encode_project_path(str(project))
        write(encoded / "memory" / "MEMORY.md", "# Memory\n" + "- [x](x.md) — hook\n" * 30)
        for topic in range(12):
            write(encoded / "memory" / f"feedback_{topic}.md", NOTE.format(f"topic {topic}"))
        for session in range(5):
            write(encoded / f"session-{session}" / "session-memory" / "summary.md", "# s\n")
    for index in range(CLAUDE_ONLY_DIRS):
        cwd = root / "elsewhere" / f"scratch-{index:03d}"
        for session in range(3):
            record = {"type": "user", "cwd": str(cwd), "message": {"content": "x" * 2000}}
            write(
                claude / "projects" / encode_project_path(str(cwd)) / f"s{session}.jsonl",
                (json.dumps(record) + "\n") * 20,
            )
    memories = codex / "memories"
    for name in ("MEMORY.md", "memory_summary.md", "raw_memories.md"):
        write(memories / name, NOTE.format(name))
    for index in range(200):
        write(memories / "rollout_summaries" / f"2026-05-19T06-{index:04d}.md", NOTE.format(index))
    for index in range(10):
        write(memories / "skills" / f"skill-{index}" / "SKILL.md", NOTE.format(index))
    return workspace_id
