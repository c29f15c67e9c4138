"""The CLI tests that read other agents' memory run on a machine built in a tmp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.agent_machine import Machine, build_machine


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    built = build_machine(tmp_path)
    monkeypatch.setenv("HOME", str(built.user))  # the CLI's `~`
    monkeypatch.setenv("MEMTAB_HOME", str(built.home.root))
    return built
