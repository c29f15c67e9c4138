"""The Inbox reads what agents and transcripts hold without a traceback, a hang or an
escape sequence reaching the terminal or notes.md (docs/formats.md §16.1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.inbox import Inbox
from memtab.writer.inbox.targets import GLOBAL_NOTES
from support.memory_paths import vpath

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"
EVIL = "plain asserts\x1b]52;c;aGVsbG8=\x07\x1b[2J\u202e"


@pytest.fixture
def harvest(home: Home, workspace: Workspace) -> Path:
    folder = home.workspace_root(workspace.id) / "harvest"
    folder.mkdir(parents=True)
    text = (FIXTURES / HARVEST_NAME).read_text(encoding="utf-8")
    path = folder / HARVEST_NAME
    path.write_text(text.replace("plain asserts", EVIL), encoding="utf-8")
    return path


@pytest.mark.timeout(60)
def test_a_fifo_transcript_is_not_read(home: Home, workspace: Workspace, harvest: Path) -> None:
    transcript = home.transcript_path(workspace.id)
    transcript.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(transcript)  # nothing writes to it: opening it to read would wait forever
    items = Inbox(home, workspace).items(with_evidence=True)
    assert items[0].evidence[0].role is None  # not found, not waited for


def test_a_deeply_nested_transcript_line_is_skipped(
    home: Home, workspace: Workspace, harvest: Path
) -> None:
    transcript = home.transcript_path(workspace.id)
    transcript.parent.mkdir(parents=True, exist_ok=True)
    deep = '{"id": "msg-u1a2", "parts": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    fixture = (FIXTURES / "chat.jsonl").read_text(encoding="utf-8")
    transcript.write_text(deep + fixture, encoding="utf-8")
    items = Inbox(home, workspace).items(with_evidence=True)
    assert items[0].evidence[0].role == "user"  # the readable line of that id


def test_escape_sequences_in_harvest_text_reach_neither_the_terminal_nor_the_notes(
    home: Home, workspace: Workspace, harvest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inbox", "--home", str(home.root)]) == 0
    table = capsys.readouterr().out
    assert "\x1b" not in table and "\u202e" not in table
    assert "plain asserts\\x1b]52;c;aGVsbG8=\\x07\\x1b[2J\\u202e" in table
    assert main(["inbox", "--home", str(home.root), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)["items"][0]["id"]
    assert main(["inbox", "--home", str(home.root), "accept", first]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    notes = MemoryStore(home, workspace).read_text(vpath(GLOBAL_NOTES))  # mux's 'preference'
    assert "\x1b" not in notes and "\u202e" not in notes
    assert "plain asserts" in notes and "52;c;" not in notes  # the sequences taken out whole
