"""What Gemini CLI reads at a session's start (docs/formats.md §17.6, §17.7), as its 0.61
bundle finds it (`memoryDiscovery.js`, `memoryImportProcessor.js`): the global file, the
private MEMORY.md, then in a trusted folder the project's files up to its git root, sorted,
each followed by its `@` imports; nothing cut."""

from __future__ import annotations

import json
import os
from pathlib import Path

from memtab.loads.gemini import gemini_loads
from memtab.loads.records import AgentLoads
from memtab.sources.gemini.context_files import find_imports
from support.gemini_home import build_gemini_home


def _loads(gemini_dir: Path, cwd: Path, **env: str) -> AgentLoads:
    return gemini_loads(
        gemini_dir=gemini_dir, cwd=cwd, identify=lambda _path: None, env=env, system_settings=False
    )


def _shown(loads: AgentLoads) -> list[tuple[str, str, str | None, int | None]]:
    return [
        (f.path or "", f.kind, f.imported_by, f.imported_at_line)
        for f in loads.files
        if f.when == "start"
    ]


def test_the_walk_goes_up_to_the_git_root_and_the_project_files_are_sorted(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    cwd = repo / "services" / "api"
    gemini = build_gemini_home(tmp_path / "user", cwd)
    (repo / ".git").mkdir()
    (repo / "GEMINI.md").write_text("# Repo\n")
    (repo / "services" / "GEMINI.md").write_text("# Services\n")
    (tmp_path / "GEMINI.md").write_text("# Above the git root: never read\n")

    loads = _loads(gemini.gemini_dir, cwd)

    assert _shown(loads) == [
        (str(gemini.global_file), "global", None, None),
        (str(gemini.memory / "MEMORY.md"), "memory", None, None),
        (str(repo / "GEMINI.md"), "project", None, None),
        (str(repo / "services" / "GEMINI.md"), "project", None, None),
        (str(cwd / "GEMINI.md"), "project", None, None),
    ]
    assert all(f.cut_at_line is None for f in loads.files)
    assert loads.total_tokens == sum(f.loaded_tokens for f in loads.files if f.when == "start")


def test_imports_are_inlined_within_the_project_root_outside_code(tmp_path: Path) -> None:
    project = tmp_path / "app"
    gemini = build_gemini_home(tmp_path / "user", project)
    (project / ".git").mkdir()
    (project / "docs").mkdir()
    (project / "docs" / "style.md").write_text("Style.\n@./deep.md\n")
    (project / "docs" / "deep.md").write_text("Deep.\n")
    (tmp_path / "outside.md").write_text("Outside.\n")
    (project / "GEMINI.md").write_text(
        "# App\n@docs/style.md\n`@docs/deep.md` is code\n@../outside.md\nmail me@x.md\n"
    )

    loads = _loads(gemini.gemini_dir, project)

    project_rows = [row for row in _shown(loads) if row[1] == "project"]
    assert project_rows == [
        (str(project / "GEMINI.md"), "project", None, None),
        (str(project / "docs" / "style.md"), "project", str(project / "GEMINI.md"), 2),
        (str(project / "docs" / "deep.md"), "project", str(project / "docs" / "style.md"), 2),
    ]


def test_an_untrusted_folder_reads_no_project_file_and_says_so(tmp_path: Path) -> None:
    project = tmp_path / "app"
    gemini = build_gemini_home(tmp_path / "user", project)
    (gemini.gemini_dir / "trustedFolders.json").write_text(
        json.dumps({str(project): "DO_NOT_TRUST"})
    )

    loads = _loads(gemini.gemini_dir, project)

    assert [row[1] for row in _shown(loads)] == ["global", "memory"]
    assert any("is not a trusted folder" in note for note in loads.notes)
    trusted = _loads(gemini.gemini_dir, project, GEMINI_CLI_TRUST_WORKSPACE="true")
    assert [row[1] for row in _shown(trusted)] == ["global", "memory", "project"]


def test_a_directory_gemini_never_ran_in_has_no_private_memory(tmp_path: Path) -> None:
    gemini = build_gemini_home(tmp_path / "user", tmp_path / "app")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    loads = _loads(gemini.gemini_dir, elsewhere)
    assert [row[1] for row in _shown(loads)] == ["global"]
    assert any("has not run in" in note for note in loads.notes)


def test_without_memory_md_the_private_folder_s_context_file_is_read(tmp_path: Path) -> None:
    project = tmp_path / "app"
    gemini = build_gemini_home(tmp_path / "user", project)
    os.unlink(gemini.memory / "MEMORY.md")
    (gemini.memory / "GEMINI.md").write_text("# The older layout\n")
    loads = _loads(gemini.gemini_dir, project)
    assert (str(gemini.memory / "GEMINI.md"), "memory", None, None) in _shown(loads)
    assert not any(f.kind == "note" for f in loads.files)  # no index to point to notes


def test_find_imports_follows_gemini_cli_s_rule() -> None:
    text = "@a.md x@b.md @/abs.md\n@.hidden @1bad ```\n@in-code.md\n``` @c.md"
    assert [(i.path, i.line) for i in find_imports(text)] == [
        ("a.md", 1),
        ("/abs.md", 1),
        (".hidden", 2),
        ("c.md", 4),
    ]
