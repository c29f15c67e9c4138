"""Checkouts and homes for the check's tests."""

from __future__ import annotations

from pathlib import Path

from memtab.check.engine import CheckEngine
from memtab.check.programs import which_in
from memtab.check.records import CheckReport, Finding
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support.checkouts import add_to_git, stand_in_programs
from support.tree_templates import TreeTemplate

NOW = 1_900_000_000_000
DAY = 24 * 60 * 60 * 1000

_checkouts: dict[tuple[tuple[str, str], ...], TreeTemplate] = {}


def _write_checkout(root: Path, files: dict[str, str], *, git: bool) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    if git:
        add_to_git(root)
    return root


def make_checkout(root: Path, files: dict[str, str], *, git: bool = True) -> Path:
    """A project folder holding `files` (relative path → text), a git repository when
    `git` (every file added). A new git one is a copy of the one this worker made with the
    same files (`git init` and `git add`, two processes): git re-reads a file whose inode
    is not the one its index holds, as after any copy."""
    if not git or root.exists():
        return _write_checkout(root, files, git=git)
    key = tuple(sorted(files.items()))
    template = _checkouts.get(key)
    if template is None:
        template = TreeTemplate.build(
            lambda folder: _write_checkout(folder / "checkout", files, git=True)
        )
        _checkouts[key] = template
    return template.copy(root)


def home_with_project(
    tmp: Path,
    project: Path | str,
    project_memory: dict[str, str] | None = None,
    *,
    global_memory: dict[str, str] | None = None,
    workspace_memory: dict[str, str] | None = None,
    workspace_path: str | None = None,
) -> tuple[Home, str]:
    """A home with one project (one workspace) and memory in its scopes; the workspace id."""
    home = Home(tmp / "home")
    home.root.mkdir(parents=True, exist_ok=True)
    workspace = add_workspace(home, str(project), "main", workspace_path=workspace_path)
    for root, files in (
        (home.project_root(str(project)), project_memory),
        (home.global_root, global_memory),
        (home.workspace_root(workspace), workspace_memory),
    ):
        for name, text in (files or {}).items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    isolate(home)
    return home, workspace


def isolate(home: Home) -> None:
    """Only mux's memory: the home's own source settings turn the other agents off."""
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    (home.memtab_dir / "sources.json").write_text('{"isolated": true}', encoding="utf-8")


def programs(tmp: Path, *names: str) -> str:
    """A search path holding stand-ins for `names` (the only installed programs)."""
    return stand_in_programs(tmp / "bin", names)


def check(
    home: Home,
    tmp: Path,
    workspace: str | None = None,
    *,
    installed: tuple[str, ...] = ("git", "make", "npm", "node", "pnpm", "uv", "just", "mise"),
    stale_days: int = 0,
    now: int = NOW,
) -> CheckReport:
    path = programs(tmp, *installed)
    engine = CheckEngine(
        home,
        env={"PATH": path, "HOME": str(tmp / "user")},
        find_program=which_in(path),
        stale_days=stale_days,
        clock=lambda: now,
    )
    return engine.check(workspace)


def of_kind(report: CheckReport, kind: str) -> list[Finding]:
    return [finding for finding in report.findings if finding.kind == kind]
