"""A settings.json whose provider keys are unusable is the settings file's own error
(`SettingsFileError`, naming the file and the key), and everyone who resolves the provider
says so in one line — the CLI, the doctor, consolidation — rather than failing with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.service import ConsolidationService
from memtab.diagnostics.setup import check_provider
from memtab.store.home import Home

PROBLEM = "'model' must be a string, not 42"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"provider": "anthropic", "model": 42}))
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(path.parent))
    return path


def test_memtab_models_names_the_file_and_the_key(
    settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--json"]) == 0
    problem = json.loads(capsys.readouterr().out)["configured"]["problem"]
    assert str(settings) in problem and PROBLEM in problem


def test_the_doctor_reports_it_broken(settings: Path) -> None:
    facts, found = check_provider({"MEMTAB_CONFIG_DIR": str(settings.parent)})
    assert facts.to_json() == {"problem": facts.problem}
    assert str(settings) in facts.problem and PROBLEM in facts.problem
    assert [item.level.value for item in found.items] == ["broken"]


def test_consolidation_says_it_is_misconfigured(settings: Path, tmp_path: Path) -> None:
    service = ConsolidationService(Home(tmp_path / "home"))
    described = service.describe_provider()
    assert described.startswith("misconfigured: the settings file") and PROBLEM in described
