"""A developer's machine in a tmp dir: a mux home, Claude Code, Codex and loki-mode memory
built from the real files in tests/fixtures/shared/memory-stores (never the real `~`)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.sources.claude.source import encode_project_path
from memtab.sources.config import SourceContext
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

STORES = Path(__file__).resolve().parents[1] / "fixtures" / "shared" / "memory-stores"
WORKSPACE_ID = "a1b2c3d4e5"


def real_files(store: str) -> dict[str, Path]:
    """The fixture files of one store, keyed by their path in the original repository
    (`<owner>-<repo>__memory__MEMORY.md` → `memory/MEMORY.md`)."""
    files = {}
    for path in sorted((STORES / store).iterdir()):
        original = path.name.split("__", 1)[1].replace("__", "/")
        files[original] = path
    return files


def notes_home(root: Path, store: str) -> Home:
    """A mux home at `root` whose global scope holds one store's real files as notes (by
    their own names: `feedback_verify-before-asserting.md`)."""
    home = Home(root)
    home.global_root.mkdir(parents=True)
    for original, path in real_files(store).items():
        shutil.copyfile(path, home.global_root / original.rsplit("/", 1)[1])
    return home


@dataclass
class Machine:
    """Where everything is; `context()` is what discovery sees (env and `~` injected)."""

    user: Path  # the fake `~`
    home: Home  # the mux home
    project: Path  # a registered project (acme-api) with CLAUDE.md, AGENTS.md, .loki
    claude: Path
    codex: Path
    env: dict[str, str]

    def context(self, **env: str) -> SourceContext:
        return SourceContext.load(self.home, env={**self.env, **env}, user_home=self.user)

    @property
    def claude_memory(self) -> Path:
        return self.claude / "projects" / encode_project_path(str(self.project)) / "memory"


def build_machine(root: Path) -> Machine:
    user = root / "user"
    project = root / "src" / "acme-api"
    home = Home(user / ".mux")
    add_workspace(home, str(project), "main", workspace_id=WORKSPACE_ID)

    # Claude Code: user instructions, a rule, auto memory of acme-api, a session summary.
    claude = user / ".claude"
    (claude / "rules").mkdir(parents=True)
    (claude / "CLAUDE.md").write_text("# My rules\n\n- Answer in English.\n", encoding="utf-8")
    (claude / "rules" / "testing.md").write_text(
        "---\ndescription: How I test\n---\n\nRun the whole suite before a commit.\n",
        encoding="utf-8",
    )
    encoded = claude / "projects" / encode_project_path(str(project))
    for original, path in real_files("claude-code-auto-memory").items():
        target = encoded / original  # memory/<name>
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    summary = encoded / "0b5c7a52-5a3e-4a8c-9d55-3c1b2a9e8f10" / "session-memory" / "summary.md"
    summary.parent.mkdir(parents=True)
    summary.write_text("# Session summary\n\nFixed the token refresh race.\n", encoding="utf-8")
    transcript = encoded / "0b5c7a52-5a3e-4a8c-9d55-3c1b2a9e8f10.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "cwd": str(project), "sessionId": "0b5c7a52"}) + "\n",
        encoding="utf-8",
    )

    # Codex: user AGENTS.md and the real memories/ (with a rollout summary and a skill).
    codex = user / ".codex"
    memories = codex / "memories"
    for original, path in real_files("codex-memories").items():
        target = codex / original
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    (codex / "AGENTS.md").write_text("# Codex\n\nPrefer small diffs.\n", encoding="utf-8")
    skill = memories / "skills" / "restore-session" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: restore-session\ndescription: Restore an archived rollout\n---\n\nSteps.\n",
        encoding="utf-8",
    )

    # The project: CLAUDE.md, a project rule, AGENTS.md and loki-mode's memory.
    (project / ".claude" / "rules").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# acme-api\n\nUse make check.\n", encoding="utf-8")
    (project / ".claude" / "rules" / "api.md").write_text("# API rules\n", encoding="utf-8")
    (project / "AGENTS.md").write_text("# acme-api for Codex\n", encoding="utf-8")
    for original, path in real_files("loki-mode").items():
        # `.loki/memory/…` inside each original path (fixtures of several projects).
        inside = original.split(".loki/memory/", 1)[1]
        target = project / ".loki" / "memory" / inside
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return Machine(user, home, project, claude, codex, env={})


def scan_machine(machine: Machine, previous: HomeScan | None = None, **request: object) -> HomeScan:
    """The Memory tab's scan of `machine`'s workspace, other agents' memory included."""
    return scan_home(
        ScanRequest(
            machine.home,
            WORKSPACE_ID,
            previous=previous,
            with_sources=True,
            source_context=lambda _home: machine.context(),
            **request,  # type: ignore[arg-type]
        )
    )
