"""Checkouts and machines for the check's tests and quality corpus: a folder made a git
repository, and a search path holding only the programs a test says are installed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def add_to_git(root: Path) -> None:
    """Make `root` a git repository with every file in it added (no user config read)."""
    environment = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(root), *command], check=True, env=environment)


def stand_in_programs(folder: Path, names: tuple[str, ...] | list[str]) -> str:
    """A search path holding stand-ins for `names`: the only installed programs."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        stub = folder / name
        stub.write_text("#!/bin/sh\n", encoding="utf-8")
        stub.chmod(0o755)
    return str(folder)
