"""The loads view's rows (no Qt): `@`-imports under the file that imports them, which line
imports them, where each stops in words; a file no source holds opens on disk."""

from __future__ import annotations

from memtab.components.loads.loads import agent_rows, opens_outside, where_it_stops
from memtab.loads.records import AgentLoads, LoadedFile

PROJECT = "/home/dev/src/acme"


def test_imports_go_under_their_importer_saying_which_line() -> None:
    claude_md = LoadedFile(
        id="claude-code:project-acme:CLAUDE.md", physical_path=f"{PROJECT}/CLAUDE.md"
    )
    style = LoadedFile(
        path=f"{PROJECT}/docs/style.md",
        physical_path=f"{PROJECT}/docs/style.md",
        imported_by=f"{PROJECT}/CLAUDE.md",
        imported_at_line=5,
    )
    deeper = LoadedFile(
        path=f"{PROJECT}/docs/tone.md",
        physical_path=f"{PROJECT}/docs/tone.md",
        imported_by=f"{PROJECT}/docs/style.md",
        imported_at_line=2,
    )
    index = LoadedFile(id="claude-code:memory-x:memory/MEMORY.md", physical_path="/m/MEMORY.md")
    rows = agent_rows(AgentLoads(agent="claude", files=(claude_md, style, deeper, index)))
    assert [(row.parent, row.label) for row in rows] == [
        (None, f"{PROJECT}/CLAUDE.md"),
        (0, "style.md"),
        (1, "tone.md"),
        (None, "/m/MEMORY.md"),
    ]
    assert rows[1].stops == "Imported by CLAUDE.md, line 5. Read whole"
    assert rows[2].stops == "Imported by style.md, line 2. Read whole"


def test_where_it_stops_and_what_opens_on_disk() -> None:
    cut = LoadedFile(cut_at_line=201, loaded_lines=200, cut_reason="the first 200 lines")
    assert where_it_stops(cut) == "From line 201 on it is not read: the first 200 lines"
    held = LoadedFile(id="claude-code:user:CLAUDE.md", physical_path="/c/CLAUDE.md")
    outside = LoadedFile(path="/p/docs/style.md", physical_path="/p/docs/style.md")
    xum = LoadedFile(path="/memories/global/git.md")
    assert [opens_outside(f) for f in (held, outside, xum)] == [False, True, False]
