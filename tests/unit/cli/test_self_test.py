"""`memtab --self-test`: a scratch demo, listed and consolidated offline in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_self_test_consolidates_offline_in_a_child_process(tmp_path: Path) -> None:
    env = {
        **os.environ,
        # A configured provider must not be called: the self-test forces offline.
        "MEMTAB_PROVIDER": "anthropic",
        "ANTHROPIC_API_KEY": "sk-ant-not-a-real-key",
        "MEMTAB_LOG_DIR": str(tmp_path / "log"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "memtab", "--self-test"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert list(report) == ["version", "frozen", "listedFiles", "consolidation", "ok"]
    assert list(report["consolidation"]) == ["ok", "error", "progressMessages", "appliedOps"]
    assert report["consolidation"]["ok"] is True and report["consolidation"]["error"] is None
    assert report["ok"] is True and report["frozen"] is False
    assert report["listedFiles"] > 0
    assert report["consolidation"]["appliedOps"] > 0
    assert report["consolidation"]["progressMessages"] > 0
    assert "PySide6" not in result.stderr
