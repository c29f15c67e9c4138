"""A home with two registered projects and a xum workspace of one, each with its memory,
and Claude Code's memory of both: what the session tests start agents in."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_project, add_workspace

WORKSPACE_ID = "a1b2c3d4e5"


@dataclass(frozen=True)
class TwoProjects:
    home: Home
    shop: Path
    other: Path
    checkout: Path  # the workspace's, a xum worktree of shop
    elsewhere: Path  # a directory no project holds


def two_projects(root: Path) -> TwoProjects:
    """Memory a session must tell apart: global (gamma), shop's project memory (sierra),
    other's (oscar), the workspace's notebook (whiskey); Claude Code's user CLAUDE.md
    (uniform) and its project memory of shop (charlie) and of other (oscar too)."""
    home = Home(root / "xum")
    shop, other = root / "src" / "shop", root / "src" / "other"
    checkout, elsewhere = root / "xum" / "src" / "shop" / "fix-cart", root / "elsewhere"
    for directory in (shop / "sub", other, checkout, elsewhere):
        directory.mkdir(parents=True)
    add_project(home, str(shop), "Shop")
    add_project(home, str(other))
    add_workspace(home, str(shop), "fix-cart", WORKSPACE_ID, str(checkout))
    files = {
        home.global_root / "g.md": "global gamma\n",
        home.project_root(str(shop)) / "s.md": "shop sierra\n",
        home.project_root(str(other)) / "o.md": "other oscar\n",
        home.workspace_root(WORKSPACE_ID) / "w.md": "workspace whiskey\n",
    }
    claude = Path(os.environ["HOME"]) / ".claude"
    files[claude / "CLAUDE.md"] = "user uniform\n"
    for project, text in ((shop, "claude charlie\n"), (other, "claude oscar\n")):
        files[claude / "projects" / encode_project_path(str(project)) / "memory" / "MEMORY.md"] = (
            text
        )
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return TwoProjects(home, shop, other, checkout, elsewhere)
