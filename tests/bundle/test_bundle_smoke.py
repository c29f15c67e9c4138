"""The PyInstaller bundle works as built: `make bundle-test` (skipped in `make test`).

Set MEMTAB_BUNDLE to the onedir bundle (dist/memtab) to run these.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from support.fake_model_server import FakeModelServer

BUNDLE = os.environ.get("MEMTAB_BUNDLE", "")
pytestmark = pytest.mark.skipif(not BUNDLE, reason="builds the bundle: make bundle-test")


def run_bundle(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    program = Path(BUNDLE) / ("memtab.exe" if sys.platform == "win32" else "memtab")
    environment = {
        **os.environ,
        "HOME": str(tmp_path / "user"),
        "MEMTAB_CONFIG_DIR": str(tmp_path / "config"),
        "MEMTAB_LOG_DIR": str(tmp_path / "log"),
        "QT_QPA_PLATFORM": "offscreen",
        **(env or {}),
    }
    return subprocess.run(
        [str(program), *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=180,
        check=False,
    )


def test_the_bundle_renders_the_demo_offscreen(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = run_bundle(tmp_path, "--demo", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    image = QImage(str(shot))
    # The first window is fitted to the screen: Qt's offscreen one is 800 × 800.
    assert not image.isNull() and 700 <= image.width() <= 800 and 500 <= image.height() <= 800


def test_the_bundle_lists_the_demo_home_as_json(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    assert run_bundle(tmp_path, "demo", str(home)).returncode == 0
    result = run_bundle(
        tmp_path, "--home", str(home), "list", "--workspace", "a1b2c3d4e5", "--json"
    )
    assert result.returncode == 0, result.stderr
    paths = {entry["path"] for entry in json.loads(result.stdout)["files"]}
    assert "/memories/global/preferences.md" in paths


def test_the_bundle_searches_the_demo_home_on_its_index(tmp_path: Path) -> None:
    """The search engine's native module (tantivy) is in the bundle and ranks."""
    home = tmp_path / "demo"
    assert run_bundle(tmp_path, "demo", str(home)).returncode == 0
    result = run_bundle(tmp_path, "--home", str(home), "search", "ruff", "--mux-only", "--json")
    assert result.returncode == 0, result.stderr
    results = json.loads(result.stdout)["results"]
    assert results and results[0]["path"] == "/memories/global/tools/python.md"
    assert any(path.name.startswith("search-v") for path in (tmp_path / "config").rglob("*"))


def test_the_bundle_consolidates_in_its_child_process(tmp_path: Path) -> None:
    result = run_bundle(tmp_path, "--self-test")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["frozen"] is True
    assert report["consolidation"]["ok"] is True
    assert report["consolidation"]["appliedOps"] > 0


def test_the_bundle_calls_a_model(tmp_path: Path, fake_model_server: FakeModelServer) -> None:
    """The HTTP client (httpx2, which reads its own version from its package metadata) is in
    the bundle and reaches a model server."""
    fake_model_server.add_openai_reply(text="OK")
    model = {
        "MEMTAB_PROVIDER": "openai",
        "MEMTAB_MODEL": "llama-test",
        "MEMTAB_BASE_URL": fake_model_server.openai_base_url,
    }
    home = str(tmp_path / "home")
    result = run_bundle(tmp_path, "doctor", "--home", home, "--check-provider", "--json", env=model)
    report = json.loads(result.stdout)
    assert report["provider"]["check"]["ok"] is True, result.stderr
    assert report["runtime"]["frozen"] is True and report["runtime"]["versions"]["httpx2"]
