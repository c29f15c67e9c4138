"""The loads tests run on a developer's machine built in a tmp dir (support.agent_machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.agent_machine import Machine, build_machine


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)
