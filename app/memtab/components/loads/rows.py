"""What the loads view lists for an agent, without Qt (`gui/loads/dialog`; docs/formats.md
§17.6): each file it reads at a session's start in order, its `@`-imports under it, and where
it stops reading each, wrapped, never elided; a file no source holds opens outside
(`opens_outside`)."""

from __future__ import annotations

import os
from typing import NamedTuple

from memtab.humanize import display_path
from memtab.loads.records import AgentLoads, LoadedFile


class LoadsRow(NamedTuple):
    """One file of an agent's: under which row it goes (an importer's; None: the agent's
    own), what it is called, where the agent stops."""

    file: LoadedFile
    parent: int | None
    label: str
    stops: str


def where_it_stops(file: LoadedFile) -> str:
    """Where the agent stops reading `file`, in words."""
    if file.when == "on demand" and file.cut_reason is None:
        return "Read only when the agent opens it"
    if file.cut_at_line is None:
        return "Read whole"
    if file.resumes_at_line is not None:
        return (
            f"Lines {file.cut_at_line}–{file.resumes_at_line - 1} are not read: {file.cut_reason}"
        )
    if file.cut_at_line == 1 and file.loaded_lines == 0:
        return file.cut_reason or "Not read"
    return f"From line {file.cut_at_line} on it is not read: {file.cut_reason}"


def file_label(file: LoadedFile) -> str:
    """How a row names its file: as its agent names it (`~/.claude/CLAUDE.md`,
    `./AGENTS.md`), else where it is on disk (`~/…`), else its id or path."""
    if file.name:
        return file.name
    if file.physical_path:
        return display_path(file.physical_path)
    return file.path or file.id or ""


def file_tip(file: LoadedFile) -> str:
    """What a row's tooltip says of its file: where it is on disk, and its id."""
    where = [display_path(file.physical_path)] if file.physical_path else []
    return "\n".join([*where, *(name for name in (file.id or file.path,) if name)])


def agent_rows(agent: AgentLoads) -> list[LoadsRow]:
    """The rows of `agent`'s files, in its order; an `@`-import under the row of the file
    that imports it, named by its file name and saying which line imports it."""
    rows: list[LoadsRow] = []
    at: dict[str, int] = {}  # a file's path on disk → its row
    for file in agent.files:
        parent = at.get(os.path.normpath(file.imported_by)) if file.imported_by else None
        stops = where_it_stops(file)
        label = file_label(file)
        if parent is not None:
            importer = os.path.basename(file.imported_by or "")
            line = f", line {file.imported_at_line}" if file.imported_at_line else ""
            stops = f"Imported by {importer}{line}. {stops}"
            label = os.path.basename(file.physical_path or label)
        if file.physical_path:
            at[os.path.normpath(file.physical_path)] = len(rows)
        rows.append(LoadsRow(file, parent, label, stops))
    return rows


def opens_outside(file: LoadedFile) -> bool:
    """Whether `file` is none of Memtab's memory files, only a file on disk (the external
    editor opens it)."""
    return file.id is None and file.physical_path is not None and not _is_virtual(file.path)


def _is_virtual(path: str | None) -> bool:
    return path is not None and path.startswith("/memories/")
