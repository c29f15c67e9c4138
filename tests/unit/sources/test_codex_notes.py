"""Adding to Codex's memory as Codex means it: a note in extensions/ad_hoc/notes/, from
the library and from `memtab codex-note`; its generated files say so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.file_protocol.file_ref import SourceError
from memtab.sources.agent_file import SourceVersions
from memtab.sources.copy import add_codex_note, codex_memories, note_name
from memtab.sources.discovery import discover
from memtab.sources.layouts import CODEX_NOTES_DIR, GENERATED_BY_CODEX
from memtab.sources.listing import list_source
from memtab.sources.model import FileKind
from support.agent_machine import Machine

AT_MS = 1_789_691_459_000  # 2026-09-18T00:30:59Z


def test_a_note_is_named_by_its_time_and_first_words() -> None:
    assert note_name("Use pnpm, never npm — in every repo!", AT_MS) == (
        "2026-09-18T00-30-59-use-pnpm-never-npm-in-every.md"
    )
    assert note_name("¿?", AT_MS) == "2026-09-18T00-30-59-note.md"


def test_a_note_goes_into_codexs_notes_folder_and_into_history(machine: Machine) -> None:
    source = codex_memories(discover(machine.context()))
    assert source is not None
    written = add_codex_note(
        machine.home, source, "  Deploys go through `make release`.\n", at_ms=AT_MS
    )
    assert (
        written.relative
        == f"{CODEX_NOTES_DIR}/2026-09-18T00-30-59-deploys-go-through-make-release.md"
    )
    assert written.physical.read_text(encoding="utf-8") == "Deploys go through `make release`.\n"
    again = add_codex_note(machine.home, source, "Deploys go through make release", at_ms=AT_MS)
    assert again.relative.endswith("make-release-2.md")  # never over the first
    listed = {f.relative: f for f in list_source(source).files}
    assert listed[written.relative].kind is FileKind.EXTENSION
    assert listed[written.relative].writable
    assert [v.op for v in SourceVersions(machine.home).versions(written.id)] == ["create"]


def test_a_secret_is_redacted_and_an_empty_note_refused(machine: Machine) -> None:
    source = codex_memories(discover(machine.context()))
    assert source is not None
    written = add_codex_note(machine.home, source, "token sk-ant-abcdefghijklmnopqrstuvwx12345")
    assert "sk-ant-abcdefghij" not in written.physical.read_text(encoding="utf-8")
    with pytest.raises(SourceError, match="empty"):
        add_codex_note(machine.home, source, "   \n")
    claude = next(s for s in discover(machine.context()).sources if s.agent == "claude-code")
    with pytest.raises(SourceError, match="not Codex's memories"):
        add_codex_note(machine.home, claude, "x")


def test_codexs_generated_files_point_to_the_notes(machine: Machine) -> None:
    source = codex_memories(discover(machine.context()))
    assert source is not None
    generated = next(
        f for f in list_source(source).files if f.relative.startswith("rollout_summaries/")
    )
    assert generated.kind is FileKind.GENERATED
    assert generated.read_only_reason == GENERATED_BY_CODEX
    assert "Add a note to Codex memory" in GENERATED_BY_CODEX
    assert CODEX_NOTES_DIR in GENERATED_BY_CODEX


def test_the_cli_adds_a_note(
    machine: Machine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(machine.codex))
    monkeypatch.setenv("HOME", str(machine.user))
    status = main(["codex-note", "--home", str(machine.home.root), "Prefer uv over pip.", "--json"])
    out = capsys.readouterr().out
    assert status == 0, out
    added = json.loads(out)
    assert added["id"].startswith(f"codex:memories:{CODEX_NOTES_DIR}/")
    assert Path(added["path"]).read_text(encoding="utf-8") == "Prefer uv over pip.\n"
