"""`memtab check` flags Codex's memory_summary.md without its first line `v1`
(docs/formats.md §19.3): Codex's consolidation would not read it, and would write it again
from scratch. The summary is the real one Codex wrote (first line `v1`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from support.agent_machine import STORES

from .helpers import check, home_with_project, make_checkout, of_kind

SUMMARY = STORES / "codex-memories" / "ShengLin1001-codex-config__memories__memory_summary.md"


def codex_home(tmp_path: Path) -> tuple[Home, Path]:
    repo = make_checkout(tmp_path / "tool", {"docs/index.md": ""})
    home, _ = home_with_project(tmp_path, repo)
    memories = tmp_path / "codex" / "memories"
    memories.mkdir(parents=True)
    shutil.copyfile(SUMMARY, memories / "memory_summary.md")
    overrides = {"isolated": True, "codex": {"enabled": True, "path": str(tmp_path / "codex")}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides))
    return home, memories / "memory_summary.md"


def test_a_summary_codex_would_not_read_is_a_finding(tmp_path: Path) -> None:
    home, summary = codex_home(tmp_path)
    assert of_kind(check(home, tmp_path), "codex-summary-version") == []
    real = summary.read_text(encoding="utf-8")
    summary.write_text(real.split("\n", 1)[1], encoding="utf-8")  # `v1` gone: "\n## User…"
    [found] = of_kind(check(home, tmp_path), "codex-summary-version")
    assert found.path == "codex:memories:memory_summary.md" and found.agent == "codex"
    assert found.line == 1 and found.text == "" and found.subject == "v1"
    assert "does not begin with the line `v1`" in found.message
    assert "from scratch" in found.why
    assert found.fix is not None and found.fix.new_str == "v1\n" and not found.fix.plannable
    summary.write_text("\ufeffV1 \n" + real.split("\n", 1)[1], encoding="utf-8")
    [near] = of_kind(check(home, tmp_path), "codex-summary-version")
    assert near.fix is not None and near.fix.new_str == "v1"
    summary.write_text(real.replace("\n", "\r\n"), encoding="utf-8")  # still `v1` to Codex
    assert of_kind(check(home, tmp_path), "codex-summary-version") == []


def test_only_codexs_own_summary_is_held_to_it(tmp_path: Path) -> None:
    home, summary = codex_home(tmp_path)
    summary.write_text("## User Profile\n", encoding="utf-8")
    (summary.parent / "notes.md").write_text("## User Profile\n", encoding="utf-8")
    [found] = of_kind(check(home, tmp_path), "codex-summary-version")
    assert found.path == "codex:memories:memory_summary.md"


def test_the_cli_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, summary = codex_home(tmp_path)
    summary.write_text("# Summary\n", encoding="utf-8")
    monkeypatch.setenv("PATH", "")
    status = main(["check", "--home", str(home.root), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    kinds = [finding["kind"] for finding in report["findings"]]
    assert "codex-summary-version" in kinds
