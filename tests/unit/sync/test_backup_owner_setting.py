"""settings.json's `xumBackup` (docs/formats.md §18.9): who owns the memory xum's backup
and Memtab's sync both carry, per home — an owner that is not one reads as not chosen,
the other homes' kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.store.xum_backup import backup_owner, set_backup_owner


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(config))
    return config


HOME = Home(Path("/home/alice/.xum"))


def _settings(config: Path, section: object) -> None:
    (config / "settings.json").write_text(json.dumps({"xumBackup": section}), encoding="utf-8")


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ({"owners": {str(HOME.root): "xum"}}, "xum"),
        ({"owners": {str(HOME.root): "memtab", "/other": "bad"}, "later": 1}, "memtab"),
        ({"owners": {str(HOME.root): "Memtab"}}, None),
        ({"owners": {str(HOME.root): 3}}, None),
        ({"owners": {str(HOME.root): None}}, None),
        ({"owners": [str(HOME.root)]}, None),
        ({"owners": "xum"}, None),
        ({}, None),
        ("xum", None),
        (None, None),
    ],
)
def test_the_owner_reads_leniently(config: Path, section: object, expected: str | None) -> None:
    _settings(config, section)
    assert backup_owner(HOME) == expected


@pytest.mark.parametrize("section", [{"owners": {"/other": "xum"}, "later": [1]}, "odd", None])
def test_choosing_keeps_the_other_homes_and_keys(config: Path, section: object) -> None:
    _settings(config, section)
    set_backup_owner(HOME, "memtab")
    written = json.loads((config / "settings.json").read_text(encoding="utf-8"))["xumBackup"]
    kept = section if isinstance(section, dict) else {"owners": {}}
    assert written == {**kept, "owners": {**kept["owners"], str(HOME.root): "memtab"}}
    assert backup_owner(HOME) == "memtab"
