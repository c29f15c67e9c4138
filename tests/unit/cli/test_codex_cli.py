"""Codex's memory in the CLI as Codex writes it now (docs/formats.md §17.3): `memtab list
--source` and `show` give each extension with its manifest. The home is laid out as
Codex's sources write it (support.codex_home)."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from support.agent_machine import Machine
from support.codex_home import EXTENSION, NOTE_NAME, lay_out_codex_memories

NOTE_ID = f"codex:memories:extensions/ad_hoc/notes/{NOTE_NAME}"


@pytest.fixture
def codex(machine: Machine) -> Machine:
    lay_out_codex_memories(machine.codex / "memories")
    return machine


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_list_and_show_give_each_extension_with_its_manifest(
    codex: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["list", "--source", "codex:memories"], capsys)
    assert status == 0
    assert "Extensions (Codex's, read-only but for the ad-hoc notes):" in out
    assert f"codex:memories:extensions/{EXTENSION} — 3 resources · manifest v1: 2 listed" in out
    assert "resources/topic-b.md ← project/topic" in out
    assert f"ro  codex:memories:extensions/{EXTENSION}/resources/index-a.md" in out
    status, out, _ = run(["list", "--source", "codex:memories", "--json"], capsys)
    extensions = {e["name"]: e for e in json.loads(out)["extensions"]}
    managed = extensions[EXTENSION]
    assert managed["manifest"] == f"codex:memories:extensions/{EXTENSION}/manifest.json"
    assert managed["manifestVersion"] == 1
    assert managed["listed"][0] == {
        "sourceId": "project/index",
        "file": f"codex:memories:extensions/{EXTENSION}/resources/index-a.md",
        "contentSha256": "a" * 64,
        "present": True,
    }
    assert len(managed["resources"]) == 3 and "notes" not in managed
    assert extensions["ad_hoc"]["notes"] == [NOTE_ID]
    status, out, _ = run(["show", managed["manifest"]], capsys)
    assert status == 0 and out.startswith(f"# Manifest of Codex memory extension `{EXTENSION}`")
    status, out, _ = run(["show", managed["manifest"], "--json"], capsys)
    shown = json.loads(out)
    assert shown["rendered"] is True and shown["kind"] == "rendered"
    assert shown["writable"] is False and "memory extension" in shown["readOnlyReason"]
