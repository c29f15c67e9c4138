"""What Gemini CLI reads at a session's start (docs/formats.md §17.6, §17.7), in its prompt's
order, every file whole: global context files, the project's private `MEMORY.md`, and in a
trusted folder the project's context files with their imports; notes `MEMORY.md` names on demand."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from memtab.humanize import plural
from memtab.loads import measure
from memtab.loads.measure import Identify, measured, named, on_demand
from memtab.loads.records import AgentLoads, LoadedFile
from memtab.sources.gemini.context_files import (
    ContextFile,
    global_files,
    named_notes,
    private_index,
    project_files,
    read_text,
    sibling_notes,
    with_imports,
)
from memtab.sources.gemini.settings import DEFAULT_CONTEXT_NAME, SettingsReader
from memtab.sources.gemini.source import gemini_projects, memory_dir_of

WHOLE = "Gemini CLI reads each of these files whole: it cuts none of them"


def gemini_loads(
    *,
    gemini_dir: Path | None,
    cwd: Path | None,
    identify: Identify,
    env: Mapping[str, str],
    system_settings: bool = True,
) -> AgentLoads:
    """Gemini CLI's session start in `cwd` (the global files only without one)."""
    if gemini_dir is None:
        return AgentLoads(agent="gemini", notes=("Gemini CLI's directory was not found",))
    reader = SettingsReader(gemini_dir, env, system=system_settings)
    settings = reader.settings(cwd)
    notes = list(settings.problems)
    names = settings.context_names
    if names != (DEFAULT_CONTEXT_NAME,):
        notes.append(f"context.fileName: {', '.join(names)}")
    tiers = [ContextFile(path, "global") for path in global_files(gemini_dir, names)]
    memory: Path | None = None
    if cwd is None:
        notes.append("No project chosen: only the global files are shown")
    else:
        memory = _memory_dir(gemini_dir, cwd)
        if memory is None:
            notes.append(
                f"Gemini CLI has not run in {cwd} yet: it has no private project memory there"
            )
        else:
            tiers += [ContextFile(path, "memory") for path in private_index(memory, names)]
        if reader.trusts(cwd):
            found = project_files([cwd], names, settings.boundary_markers, gemini_dir)
            tiers += [ContextFile(path, "project") for path in found]
        else:
            notes.append(
                f"{cwd} is not a trusted folder: Gemini CLI reads no project GEMINI.md there "
                "(security.folderTrust; ~/.gemini/trustedFolders.json)"
            )
    files = [
        _record(file, text, identify)
        for file in with_imports(tiers, settings.boundary_markers, settings.import_format)
        if (text := measure.read_text(file.path, notes)) is not None
    ]
    if memory is not None:
        files += _notes(memory, files, identify, notes)
    if cwd is not None:
        notes.append(
            "A subfolder's GEMINI.md is read when Gemini CLI works in it; extensions' context "
            "files are not shown"
        )
    notes.append(WHOLE)
    total = sum(f.loaded_tokens for f in files if f.when == "start")
    return AgentLoads(agent="gemini", files=tuple(files), total_tokens=total, notes=tuple(notes))


def _memory_dir(gemini_dir: Path, cwd: Path) -> Path | None:
    """The private memory folder of the project Gemini CLI keys `cwd` to (None: none yet)."""
    wanted = os.path.normpath(os.path.abspath(cwd))
    project = next((p for p in gemini_projects(gemini_dir) if p.path == wanted), None)
    return memory_dir_of(gemini_dir, project.project_id) if project is not None else None


def _record(file: ContextFile, text: str, identify: Identify) -> LoadedFile:
    return measured(
        text,
        kind=file.tier,
        imported_by=str(file.imported_by) if file.imported_by else None,
        imported_at_line=file.imported_at_line,
        **named(file.path, identify),
    )


def _notes(
    memory: Path, files: list[LoadedFile], identify: Identify, notes: list[str]
) -> list[LoadedFile]:
    """The sibling notes `MEMORY.md` points to (`on demand`), and a note of the others."""
    index = memory / "MEMORY.md"
    if not any(f.physical_path == os.fspath(index) for f in files):
        return []
    text = read_text(index) or ""
    named_ones = named_notes(text, memory)
    found = [
        on_demand(read_text(path) or "", kind="note", **named(path, identify))
        for path in named_ones
    ]
    others = [p for p in sibling_notes(memory) if p not in named_ones]
    if others:
        shown = ", ".join(p.name for p in others[:5]) + (" …" if len(others) > 5 else "")
        notes.append(
            f"{plural(len(others), 'note')} of the private memory no line of MEMORY.md names "
            f"({shown}): Gemini CLI reads a note only when MEMORY.md points to it"
        )
    return found
