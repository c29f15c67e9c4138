"""Links between memory files that lead nowhere, and the fix when the file is elsewhere."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from tests.quality.stores import CLAUDE, real_files

from memtab.check.documents import Document, pack_text
from memtab.check.markdown import scan_markdown as scan
from memtab.check.rules.links import broken_imports
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.memory_paths import vpath

from .helpers import check, home_with_project, isolate, of_kind


def test_claude_code_s_real_index_links_that_lead_nowhere_are_reported(tmp_path: Path) -> None:
    files = {name: data.decode("utf-8") for name, data in real_files(CLAUDE).items()}
    home, _ = home_with_project(tmp_path, "/nowhere/claude-config", files)
    links = of_kind(check(home, tmp_path), "broken-link")
    index = files["MEMORY.md"]
    linked = {
        line.split("](", 1)[1].split(")", 1)[0] for line in index.splitlines() if "](" in line
    }
    assert {f.subject for f in links} == linked - set(files)
    assert all(f.path == "/memories/project/MEMORY.md" for f in links)
    first = next(f for f in links if f.subject == "feedback_teaching-deck-bigfont-reveal.md")
    assert first.line == 4 and first.fix is None


def test_links_that_are_not_between_memory_files_are_left_alone(tmp_path: Path) -> None:
    text = (
        "- [site](https://example.com/a.md) [mail](mailto:a@b.c) [top](#top)\n"
        "- [home](~/notes.md) [abs](/etc/hosts.md) [tpl](<name>.md) [out](../../x.md)\n"
        "- [gone](old.md) was removed\n"
        "- e.g. [x](example.md)\n"
    )
    home, _ = home_with_project(tmp_path, "/nowhere/p", {"index.md": text})
    assert of_kind(check(home, tmp_path), "broken-link") == []


def test_a_link_s_label_and_the_past_its_line_speaks_of_do_not_hide_it(tmp_path: Path) -> None:
    text = (
        "- [Older decisions](decisions-2025.md)\n"  # the label names the file
        "- Error budget policy: [budgets](error-budgets.md)\n"  # a topic, not a failure
        "- The old flow was written up in [auth](auth-flow.md)\n"
        "- [notes](notes.md) is a dead link\n"  # the line says so
        "- The link to [setup](setup.md) is broken\n"
        "- [archive](archive.md) was deleted\n"
        "- It is gone, see [o](o.md)\n"  # a one-letter label takes no word's letter
    )
    home, _ = home_with_project(tmp_path, "/nowhere/p", {"index.md": text})
    found = of_kind(check(home, tmp_path), "broken-link")
    assert [finding.line for finding in found] == [1, 2, 3]


def test_a_link_to_a_renamed_memory_file_is_fixed_from_history(tmp_path: Path) -> None:
    home, workspace = home_with_project(
        tmp_path,
        "/nowhere/p",
        {"MEMORY.md": "- [Testing](testing.md) — how to run tests\n", "testing.md": "x\n"},
    )
    store = MemoryStore(home, load_registry(home).require_workspace(workspace))
    store.move(vpath("/memories/project/testing.md"), vpath("/memories/project/guides/tests.md"))
    [found] = of_kind(check(home, tmp_path), "broken-link")
    assert found.fix is not None and found.fix.plannable
    assert found.fix.new_str == "- [Testing](guides/tests.md) — how to run tests"


def test_a_link_to_a_moved_file_is_fixed_by_its_name(tmp_path: Path) -> None:
    home, _ = home_with_project(
        tmp_path,
        "/nowhere/p",
        {"MEMORY.md": "- [a.md](a.md)\n", "topics/a.md": "x\n"},
    )
    [found] = of_kind(check(home, tmp_path), "broken-link")
    assert found.fix is not None
    assert found.fix.new_str == "- [topics/a.md](topics/a.md)"


def test_a_virtual_link_is_resolved_in_the_workspace_s_scopes(tmp_path: Path) -> None:
    home, workspace = home_with_project(
        tmp_path,
        "/nowhere/p",
        {"a.md": "- see [b](/memories/global/b.md) and [c](/memories/global/c.md)\n"},
        global_memory={"b.md": "b\n"},
    )
    [found] = of_kind(check(home, tmp_path, workspace), "broken-link")
    assert found.subject == "/memories/global/c.md"


def test_an_index_in_claude_code_s_memory_folder_is_checked_there(tmp_path: Path) -> None:
    home, _ = home_with_project(tmp_path, "/nowhere/p")
    claude = tmp_path / "claude"
    memory = claude / "projects" / "-nowhere-p" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [a](a.md)\n- [b](b.md)\n")
    (memory / "a.md").write_text("a\n")
    overrides = {"isolated": True, "claude-code": {"enabled": True, "path": str(claude)}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides))
    [found] = of_kind(check(home, tmp_path), "broken-link")
    assert (found.path, found.agent, found.line) == (
        "claude-code:memory--nowhere-p:memory/MEMORY.md",
        "claude-code",
        2,
    )
    assert found.fix is None or not found.fix.plannable
    isolate(home)


class _OnDisk:
    """Where a document's file is (a check's origin, for `Document.physical`)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def physical(self, document: Document) -> Path:
        return self.path


IMPORTING = """# Acme

See @docs/setup.md and @docs/gone.md for setup.
@./CONVENTIONS.md
- Types come from @types/node; decorate with @pytest.fixture; ask @dana.
- Mail dana@acme.io; `@docs/in-code.md` is code; @~/notes/mine.md is mine.
- The old @docs/removed.md was removed.
```
@docs/in-block.md
```
"""


@pytest.mark.parametrize(
    ("name", "nowhere"),
    [
        ("CLAUDE.md", ["@docs/gone.md", "@./CONVENTIONS.md"]),
        ("CLAUDE.local.md", ["@docs/gone.md", "@./CONVENTIONS.md"]),
        # a rule's imports are resolved from its own folder
        (".claude/rules/setup.md", ["@docs/setup.md", "@docs/gone.md", "@./CONVENTIONS.md"]),
    ],
)
def test_claude_code_s_imports_that_lead_nowhere_are_broken_links(
    tmp_path: Path, name: str, nowhere: list[str]
) -> None:
    """`@docs/gone.md` in an instruction file imports nothing (Claude Code skips it unsaid);
    a package, a decorator, a person, an address, code, a home path and a line saying the
    file is gone are no import to check (issue 83)."""
    project = tmp_path / "acme"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "setup.md").write_text("x\n", encoding="utf-8")
    file = project / name
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(IMPORTING, encoding="utf-8")
    document = Document(
        key="k",
        path=f"claude-code:project-acme:{name}",
        agent="claude-code",
        scope="project",
        packed=pack_text(IMPORTING),
        link_root=project,
        origin=_OnDisk(file),
    )
    found = list(broken_imports(document, scan(IMPORTING)))
    assert [b.target for b in found] == nowhere
    assert found[-1].message == "The import of `@./CONVENTIONS.md` leads nowhere"
    memory = replace(document, origin=_OnDisk(project / "notes.md"))
    assert list(broken_imports(memory, scan(IMPORTING))) == []  # a memory file imports nothing
