"""Codex's memory in the CLI as Codex writes it now (docs/formats.md §17.3, §20.2):
`memtab list --source` and `show` give each extension with its manifest, and `memtab
blame` says which ad-hoc notes a line tagged `[ad-hoc note]` was drawn from. The home is
laid out as Codex's sources write it (support.codex_home)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.cli.main import main
from support.agent_machine import Machine
from support.codex_home import (
    EXTENSION,
    NOTE_LINE,
    NOTE_NAME,
    import_claude_memory,
    lay_out_codex_memories,
)

NOTE_ID = f"codex:memories:extensions/ad_hoc/notes/{NOTE_NAME}"


@pytest.fixture
def codex(machine: Machine) -> Machine:
    lay_out_codex_memories(machine.codex / "memories")
    return machine


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def blamed(file_id: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    status, out, err = run(["blame", file_id, "--json"], capsys)
    assert status == 0, err
    lines: list[dict[str, Any]] = json.loads(out)["lines"]
    return lines


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


def test_a_line_codex_drew_from_a_note_names_the_note(
    codex: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = codex.codex / "memories" / "MEMORY.md"
    real = memory.read_text(encoding="utf-8")
    memory.write_text(f"{real}\n{NOTE_LINE}\n- Deploys need a ticket [ad-hoc note]\n")
    lines = blamed("codex:memories:MEMORY.md", capsys)
    tagged = next(line for line in lines if line["text"] == NOTE_LINE)
    assert tagged["actor"] == "codex"
    [note] = tagged["source"]["notes"]
    assert tagged["source"]["kind"] == "codex-ad-hoc-note"
    assert note["id"] == NOTE_ID and note["actor"] == "codex" and isinstance(note["at"], int)
    # A tag no note there explains still says it came from one; other lines say nothing.
    orphan = next(line for line in lines if "Deploys need a ticket" in line["text"])
    assert orphan["source"] == {"kind": "codex-ad-hoc-note", "notes": []}
    assert all("source" not in line for line in lines if "[ad-hoc note]" not in line["text"])


def test_a_note_memtab_wrote_is_the_users_and_the_table_says_so(
    codex: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        ["codex-note", "和飞书有关的操作一律使用 lark-cli，不要改用其他飞书 MCP", "--json"], capsys
    )
    assert status == 0
    written = json.loads(out)["id"]
    summary = codex.codex / "memories" / "memory_summary.md"
    text = summary.read_text(encoding="utf-8")
    line = (
        "- 和飞书有关的操作一律使用 `lark-cli`；不要改用其他飞书 MCP 或网页手动操作 [ad-hoc note]"
    )
    summary.write_text(text.replace("## User preferences\n", f"## User preferences\n\n{line}\n"))
    lines = blamed("codex:memories:memory_summary.md", capsys)
    tagged = next(entry for entry in lines if entry["text"] == line)
    assert [(n["id"], n["actor"]) for n in tagged["source"]["notes"]] == [(written, "user")]
    status, out, _ = run(["blame", "codex:memories:memory_summary.md"], capsys)
    assert status == 0 and "codex ← note" in out
    number = tagged["line"]
    assert f"Lines Codex drew from ad-hoc notes:\n  {number}) ← {written} (You, " in out


def test_list_source_json_links_codex_imports_to_their_originals(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    """`memtab list --source ID --json` gives the rows the MCP server's `list` gives: a
    copy Codex imported names its original, the original its copy (formats §17.3)."""
    key = import_claude_memory(
        machine.codex / "memories", machine.claude_memory.parent, str(machine.project)
    ).name
    copy = f"codex:memories:extensions/external_agent_import/resources/{key}/MEMORY.md"
    original = f"claude-code:memory-{key}:memory/MEMORY.md"
    status, out, _ = run(["list", "--source", "codex:memories", "--json"], capsys)
    rows = {row["path"]: row for row in json.loads(out)["files"]}
    assert status == 0 and rows[copy]["importedFrom"] == original
    status, out, _ = run(["list", "--source", f"claude-code:memory-{key}", "--json"], capsys)
    rows = {row["path"]: row for row in json.loads(out)["files"]}
    assert status == 0 and rows[original]["importedAs"] == [copy]
