"""Codex 0.169.0's import of a Claude Code memory is shown once, as the copy it is (issue 81
point 6; `sources.codex.imports.shown_once`): never a duplicate to combine, folded into its
original by the window's search, Quick open and `memtab search` where both are found, and,
found alone, saying whose copy it is and the project (`cwd`) its `scope.json` gives."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from memtab.cli.main import main
from memtab.components.search.search import Matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import FileMatch, NodeKind, TreeNode, ref_key
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.components.tree.sources import build_source_sections
from memtab.components.tree.sources_scan import SourcesScan
from memtab.components.window.palette import file_entries
from memtab.demo import MAIN_ID, acme_api, claude_project_name
from memtab.file_protocol.file_ref import parse_file_id
from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from support.codex_home import import_claude_memory
from support.demo_homes import copied_demo_home

TOPIC = "project_token-refresh-race.md"


class Names(NamedTuple):
    """Claude Code's memory of the demo's acme-api, where Codex keeps its copies, and the
    label a copy carries."""

    claude: str
    copies: str
    label: str


def names_in(home: Home) -> Names:
    key = claude_project_name(acme_api(home))
    return Names(
        f"claude-code:memory-{key}",
        f"codex:memories:extensions/external_agent_import/resources/{key}",
        f"imported from Claude Code (cwd {acme_api(home)})",
    )


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = copied_demo_home(tmp_path / "demo")
    agents = home.root / "other-agents"
    import_claude_memory(
        agents / "codex" / "memories",
        agents / "claude" / "projects" / claude_project_name(acme_api(home)),
        acme_api(home),
    )
    return home


def _scan(home: Home) -> HomeScan:
    return scan_home(ScanRequest(home, MAIN_ID, with_sources=True))


def test_an_import_is_never_a_duplicate_to_combine(home: Home) -> None:
    names = names_in(home)
    report = DuplicatesEngine(home).find()
    shown = (*report.groups, *report.candidates)
    members = [m.path for group in shown for m in group.members]
    assert not any(path.startswith(names.copies) for path in members)
    # reworded, still: a candidate (issue 94)
    assert f"{names.claude}:memory/feedback_staging-is-read-only.md" in members
    # The demo's lines said twice word for word are findings (`uv pip` in global and a
    # workspace, three of testing.md's in test-tips.md); the rest only alike in words are
    # candidates (issue 94): the two notes reworded, the flaky refresh test, "keep diffs
    # small" in CLAUDE.md and Codex's summary, "connection refused" in two agents' notes.
    assert [g.kind for g in report.groups] == ["rule"] * 4
    assert [g.kind for g in report.candidates] == ["reworded", "reworded", *["rule"] * 4]


def test_memtab_search_shows_an_import_once(home: Home, capsys: pytest.CaptureFixture[str]) -> None:
    names = names_in(home)
    query = "two tabs refreshing rotated the same refresh token"
    assert main(["--home", str(home.root), "search", query]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = [line.split()[1] for line in lines if line[:1] == " " and line.split()[0][0].isdigit()]
    assert f"{names.claude}:memory/{TOPIC}" in found and not any(
        p.startswith(names.copies) for p in found
    )
    assert f"{'':10}(also Codex's import of it: {names.copies}/{TOPIC})" in lines
    assert main(["--home", str(home.root), "search", query, "--scope", "codex"]) == 0
    alone = capsys.readouterr().out.splitlines()
    assert alone[0].split()[1] == f"{names.copies}/{TOPIC}"
    assert alone[1] == f"{'':10}({names.label}: a copy of {names.claude}:memory/{TOPIC})"


def test_quick_open_lists_an_import_once(home: Home) -> None:
    names = names_in(home)
    scan = _scan(home)
    entries = file_entries(scan, lambda key: key)
    named = [entry for entry in entries if entry.label == TOPIC]
    assert [entry.choose() for entry in named] == [
        ref_key(parse_file_id(f"{names.claude}:memory/{TOPIC}"))
    ]
    assert scan.sources is not None
    claude_less = SourcesScan(
        scan.sources.discovery,
        tuple(x for x in scan.sources.listings if x.source.agent != "claude-code"),
    )
    alone = file_entries(scan._replace(sources=claude_less), lambda key: key)
    [copy] = [entry for entry in alone if entry.label == TOPIC]
    assert copy.detail == f"Codex memories · {names.label}"


def _files(nodes: list[TreeNode]) -> list[TreeNode]:
    found: list[TreeNode] = []
    for node in nodes:
        found += [node] if node.kind is NodeKind.FILE else _files(node.children)
    return found


def test_the_window_s_search_shows_an_import_once(home: Home) -> None:
    names = names_in(home)
    scan = _scan(home)
    assert scan.sources is not None
    original, copy = (
        ref_key(parse_file_id(f"{names.claude}:memory/{TOPIC}")),
        ref_key(parse_file_id(f"{names.copies}/{TOPIC}")),
    )
    both = Matches({original: FileMatch(1, ()), copy: FileMatch(1, ())})
    shown = [n.key for n in _files(build_source_sections(scan.sources, both))]
    assert shown == [original]
    alone = _files(build_source_sections(scan.sources, Matches({copy: FileMatch(1, ())})))
    assert [n.key for n in alone] == [copy]
    assert alone[0].tag == "imported" and alone[0].description.startswith(
        f"I{names.label[1:]}: a copy of {names.claude}"
    )
