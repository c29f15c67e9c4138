"""Codex's import of a Claude Code memory is listed once by `memtab leaks` and
`contradictions` too (issue 83; issue 81 point 6's rule, `sources.codex.imports.shown_once`):
a finding is on the original — the file to edit — naming the import as a copy, which is
memory of the project its `scope.json`'s `cwd` names; what only the copy still says is its
own finding, saying whose copy it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.demo import acme_api, claude_project_name
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.memories import where_in_words
from support.codex_home import import_claude_memory
from support.demo_homes import copied_demo_home

SERVICES = "reference_local-services.md"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """The demo home with Codex's import of Claude Code's memory of acme-api, made after it."""
    home = copied_demo_home(tmp_path / "demo")
    agents = home.root / "other-agents"
    folder = import_claude_memory(
        agents / "codex" / "memories",
        agents / "claude" / "projects" / claude_project_name(acme_api(home)),
        acme_api(home),
    )
    later = os.stat(folder / SERVICES).st_mtime_ns + 60_000_000_000
    for path in folder.rglob("*.md"):
        os.utime(path, ns=(later, later))
    return home


def _copy(home: Home) -> Path:
    key = claude_project_name(acme_api(home))
    return (
        home.root / "other-agents/codex/memories/extensions/external_agent_import/resources" / key
    )


def test_a_secret_in_a_memory_and_its_import_is_one_leak_on_the_original(home: Home) -> None:
    [leak] = [x for x in LeaksEngine(home).find().leaks if x.kind == "secret"]
    assert leak.place.path.startswith("claude-code:") and leak.place.path.endswith(SERVICES)
    [copy] = leak.elsewhere
    assert copy.path.startswith("codex:memories:extensions/external_agent_import/")
    assert (copy.line, copy.text) == (leak.place.line, leak.place.text)
    assert where_in_words(copy) == f"Codex, imported from Claude Code (cwd {acme_api(home)})"
    assert (copy.scope, copy.project) == ("project", acme_api(home))
    assert "Codex's import of this memory holds the line too" in leak.why


def test_what_only_the_copy_still_says_is_the_copy_s_own_leak(home: Home) -> None:
    """The secret taken out of the original since Codex imported it: Codex's copy holds it
    still, and says whose copy it is."""
    original = (
        home.root
        / "other-agents/claude/projects"
        / claude_project_name(acme_api(home))
        / "memory"
        / SERVICES
    )
    lines = original.read_text(encoding="utf-8").splitlines(keepends=True)
    original.write_text("".join(x for x in lines if "DATABASE_URL" not in x), encoding="utf-8")
    [leak] = [x for x in LeaksEngine(home).find().leaks if x.kind == "secret"]
    assert leak.place.path.startswith("codex:memories:extensions/external_agent_import/")
    assert leak.elsewhere == ()
    assert where_in_words(leak.place).startswith("Codex, imported from Claude Code (cwd ")


def test_a_contradiction_is_said_at_the_original_its_copy_under_it(home: Home) -> None:
    """The API's port, 8080 in Claude Code's reference and in Codex's newer copy of it: the
    side's place is the original, the file to edit; the copy is listed under it."""
    [found] = ContradictionsEngine(home, line_time=lambda d, _: d.modified_ms).find().contradictions
    [side] = [s for s in (found.first, found.second) if s.value == "8080"]
    assert side.place.path.startswith("claude-code:") and side.place.path.endswith(SERVICES)
    assert [said.place.path.startswith("codex:") for said in side.elsewhere] == [True]
    assert side.elsewhere[0].place.imported.startswith("imported from Claude Code")
    assert side.written_at == side.place.modified_at  # the original's, not the copy's
    assert _copy(home).is_dir()
