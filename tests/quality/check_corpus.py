"""The check's quality corpus: `memtab check` on real memory, every finding judged by hand.

Cases (each a home built in a scratch folder):

- the real memory stores of `tests/fixtures/shared/memory-stores` as mux's global memory,
  as project memory of projects that are not on this disk, and as the other agents'
  sources they are (Claude Code's project memory with a session transcript naming its
  folder, Codex's `memories/`, loki-mode's `.loki/memory` in a checkout);
- the demo home;
- real repositories (`tests/fixtures/shared/checkouts`): each checkout rebuilt from its
  file list (empty files, the real content of its manifests and instruction files) as a
  git repository, its CLAUDE.md / AGENTS.md as Claude Code's and Codex's project sources,
  and older versions of its CLAUDE.md as mux project memory — memory written months
  before the code it is checked against.

The machine is fixed: the programs in `INSTALLED` (a developer machine's), nothing else;
the clock is now (the copied files are new, so nothing is stale here: staleness is tested
by the unit tests). `check_judgements.tsv` holds a verdict for every finding;
`check_precision.py` recomputes precision from it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memtab.check.engine import CheckEngine
from memtab.check.programs import which_in
from memtab.check.records import Finding
from memtab.demo import create_demo_home
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support.checkouts import add_to_git, stand_in_programs

from .stores import CLAUDE, CODEX, LOKI, real_files

QUALITY = Path(__file__).resolve().parent
JUDGEMENTS = QUALITY / "check_judgements.tsv"
CHECKOUTS = QUALITY.parent / "fixtures" / "shared" / "checkouts"
INSTALLED = (
    "bash", "sh", "git", "make", "node", "npm", "npx", "pnpm", "yarn", "python", "python3",
    "pip", "uv", "go", "docker", "curl", "jq", "gh", "mise", "cat", "grep", "ls", "rm",
)  # fmt: skip
# Where each real store's agent would have kept it (none of these is on this disk).
STORE_PROJECTS = {
    CLAUDE.folder: "/home/user/src/claude-config",
    CODEX.folder: "/home/user/src/codex-config",
    LOKI.folder: "/home/user/src/showtime",
}


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path], tuple[Home, str | None]]
    """Build the case's home in an empty folder; the home and the workspace to check
    (None: the whole home)."""


def _isolated(home: Home, agents: dict[str, Path] | None = None) -> None:
    """The home's own source settings: only these agents' folders (none: mux alone)."""
    overrides: dict[str, object] = {"isolated": True}
    for agent, path in (agents or {}).items():
        overrides[agent] = {"enabled": True, "path": str(path)}
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides), encoding="utf-8")


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def stores_as_global(folder: Path) -> tuple[Home, str | None]:
    home = Home(folder / "home")
    for store in (CLAUDE, CODEX, LOKI):
        _write(home.global_root / store.folder, real_files(store))
    _isolated(home)
    return home, None


def stores_as_projects(folder: Path) -> tuple[Home, str | None]:
    home = Home(folder / "home")
    home.root.mkdir(parents=True)
    for store in (CLAUDE, CODEX, LOKI):
        project = STORE_PROJECTS[store.folder]
        add_workspace(home, project, "main", workspace_path=project)
        _write(home.project_root(project), real_files(store))
    _isolated(home)
    return home, None


def stores_as_agents(folder: Path) -> tuple[Home, str | None]:
    """Each store where its agent keeps it (see the module doc)."""
    home = Home(folder / "home")
    home.root.mkdir(parents=True)
    claude = folder / "agents" / "claude"
    project = STORE_PROJECTS[CLAUDE.folder]
    encoded = claude / "projects" / project.replace("/", "-")
    _write(encoded / "memory", real_files(CLAUDE))
    transcript = {"type": "user", "cwd": project, "message": {"role": "user", "content": "hi"}}
    (encoded / "0d7b9f4e-session.jsonl").write_text(json.dumps(transcript) + "\n")
    codex = folder / "agents" / "codex"
    _write(codex / "memories", real_files(CODEX))
    showtime = home.root / "src" / "showtime"
    _write(showtime / ".loki" / "memory", real_files(LOKI))
    add_workspace(home, str(showtime), "main", workspace_path=str(showtime))
    _isolated(home, {"claude-code": claude, "codex": codex, "loki": folder / "agents" / "loki"})
    return home, None


def demo(folder: Path) -> tuple[Home, str | None]:
    return create_demo_home(folder / "demo"), None


def checkout_case(fixture: str) -> Callable[[Path], tuple[Home, str | None]]:
    """A real repository rebuilt as a checkout, its instruction files as the agents'
    project sources, and older versions of its CLAUDE.md as mux's project memory."""

    def build(folder: Path) -> tuple[Home, str | None]:
        home = Home(folder / "home")
        home.root.mkdir(parents=True)
        checkout = home.root / "src" / fixture.split("@", 1)[0]
        rebuild_checkout(CHECKOUTS / fixture, checkout)
        workspace = add_workspace(home, str(checkout), "main", workspace_path=str(checkout))
        repository = fixture.split("@", 1)[0]
        for memory in sorted((CHECKOUTS / "memory").glob(f"{repository}__*")):
            name = memory.name.split("__", 1)[1].replace("@", "-at-")
            _write(home.project_root(str(checkout)), {name: memory.read_bytes()})
        agents = folder / "agents"
        _isolated(home, {"claude-code": agents / "claude", "codex": agents / "codex"})
        for agent in ("claude", "codex"):
            (agents / agent).mkdir(parents=True)
        return home, workspace

    return build


def rebuild_checkout(fixture: Path, target: Path) -> None:
    """The checkout a fixture describes: every listed file (empty unless the fixture has
    its content; a link where `links.txt` names one), added to a fresh git repository."""
    listed = (fixture / "files.txt").read_text(encoding="utf-8").splitlines()
    links_file = fixture / "links.txt"
    links = dict(
        line.split(" -> ", 1)
        for line in (
            links_file.read_text(encoding="utf-8").splitlines() if links_file.is_file() else ()
        )
    )
    for relative in listed:
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if relative in links:
            path.symlink_to(links[relative])
            continue
        real = fixture / "tree" / relative
        path.write_bytes(real.read_bytes() if real.is_file() else b"")
    add_to_git(target)


CASES = (
    Case("stores-as-global", stores_as_global),
    Case("stores-as-projects", stores_as_projects),
    Case("stores-as-agents", stores_as_agents),
    Case("demo", demo),
    *(
        Case(f"checkout:{path.name}", checkout_case(path.name))
        for path in sorted(CHECKOUTS.iterdir())
        if path.is_dir() and "@" in path.name
    ),
)


def run_case(case: Case, scratch: Path) -> list[Finding]:
    folder = scratch / case.name.replace(":", "-").replace("@", "-")
    folder.mkdir(parents=True)
    home, workspace = case.build(folder)
    env = {
        "HOME": str(folder / "user-home"),
        "PATH": stand_in_programs(folder / "bin", INSTALLED),
        "MEMTAB_CONFIG_DIR": str(folder / "config"),
    }
    engine = CheckEngine(
        home, env=env, find_program=which_in(env["PATH"]), stale_days=90, sources=True
    )
    return list(engine.check(workspace).findings)


Key = tuple[str, str, str, str, str]
_SCRATCH_SOURCE = re.compile(r"^([a-z-]+):project-[^:]+:")
_DEMO_CLAUDE = re.compile(r"^claude-code:memory-[^:]*-code-(?P<project>[^:]+):")
"""Claude Code's memory of a demo project: its folder is named after the project's checkout,
in the demo home (`code/<project>`), in the scratch folder."""


def finding_key(case: str, finding: Finding) -> Key:
    """What identifies a finding across runs: its case, file, line, kind and subject
    (the names a scratch folder gives a checkout's sources left out)."""
    line = str(finding.line) if finding.line is not None else "-"
    path = _SCRATCH_SOURCE.sub(r"\1:project:", finding.path)
    path = _DEMO_CLAUDE.sub(r"claude-code:memory--code-\g<project>:", path)
    subject = finding.subject
    if finding.kind == "project-missing" and not subject.startswith("/home/"):
        subject = os.path.basename(subject)  # a checkout in the scratch folder
    return case, path, line, finding.kind, subject
