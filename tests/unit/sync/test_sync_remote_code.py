"""A remote is data, never code: nothing a path remote's repository names runs here."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memtab.sync.repository.git import is_local_remote
from support.sync_machines import Machine, bare_repository

HOOKS = (
    "pre-receive",
    "update",
    "reference-transaction",
    "post-receive",
    "post-update",
    "push-to-checkout",
    "pre-auto-gc",
    "post-checkout",
)


def _config(repository: Path, key: str, value: str) -> None:
    subprocess.run(["git", "--git-dir", str(repository), "config", key, value], check=True)


def test_a_path_remote_runs_none_of_its_hooks_or_commands(tmp_path: Path, remote: Path) -> None:
    ran = tmp_path / "ran"
    ran.mkdir()
    for hook in HOOKS:
        script = remote / "hooks" / hook
        script.write_text(f"#!/bin/sh\ntouch '{ran}/{hook}'\ncat >/dev/null\nexit 0\n")
        script.chmod(0o755)
    # core.alternateRefsCommand runs only for a repository with alternates.
    borrowed = bare_repository(tmp_path / "borrowed.git")
    (remote / "objects" / "info" / "alternates").write_text(f"{borrowed / 'objects'}\n")
    _config(remote, "core.alternateRefsCommand", f"touch '{ran}/alternateRefsCommand'; true")
    _config(remote, "gc.auto", "1")  # a gc after every push (and its pre-auto-gc hook)
    alpha = Machine.create(tmp_path, "alpha")
    alpha.connect(remote)
    beta = Machine.create(tmp_path, "beta")
    beta.connect(f"file://{remote}")

    alpha.write("/memories/global/x.md", "x\n")
    alpha.sync()
    beta.sync()
    beta.write("/memories/global/y.md", "y\n")
    beta.sync()
    alpha.sync()

    assert sorted(os.listdir(ran)) == []
    assert (
        alpha.files()
        == beta.files()
        == {
            "/memories/global/x.md": "x\n",
            "/memories/global/y.md": "y\n",
        }
    )


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("/mnt/nas/memory.git", True),
        ("../memory.git", True),
        ("file:///mnt/nas/memory.git", True),
        ("C:/Users/alice/memory.git", True),
        ("git@github.com:alice/memory.git", False),
        ("nas:memory.git", False),
        ("ssh://nas/memory.git", False),
        ("https://example.com/memory.git", False),
    ],
)
def test_a_remote_on_a_path_is_told_apart(url: str, local: bool) -> None:
    assert is_local_remote(url) is local
