"""Gemini CLI as a source (docs/formats.md §17.7): its directory, its projects and their short
ids (`projects.json`, `slugify`), and the sources of its global and private project memory."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from memtab.file_protocol.file_ref import source_id
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Lenient, Record
from memtab.fs.user_files import read_regular_file
from memtab.sources.model import AgentFolder, Layout, Source, folder_sources, is_folder

logger = logging.getLogger(__name__)

GEMINI_DIR = ".gemini"
HOME_VARIABLE = "GEMINI_CLI_HOME"
TMP_DIR = "tmp"
MEMORY_DIR = "memory"
PROJECTS_NAME = "projects.json"
PROJECT_ROOT_FILE = ".project_root"
_ID = re.compile(r"^[a-z0-9-]+$")
_MAX_BYTES = 1024 * 1024
_MARKER_BYTES = 64 * 1024


class ProjectRegistryFile(Record):
    """`~/.gemini/projects.json`, Gemini CLI's project registry (path → id)."""

    projects: Annotated[dict[str, Any] | None, Lenient(None)] = None


@dataclass(frozen=True)
class GeminiProject:
    """A project Gemini CLI ran in: its path and its id (`tmp/<id>/`)."""

    path: str
    project_id: str


_NOT_IN_SLUG = re.compile(r"[^a-z0-9]")
_DASHES = re.compile(r"-+")


def slugify(name: str) -> str:
    """A folder's name made an id as Gemini CLI makes one (`ProjectRegistry.slugify`)."""
    return _DASHES.sub("-", _NOT_IN_SLUG.sub("-", name.lower())).strip("-") or "project"


def gemini_projects(gemini_dir: Path) -> list[GeminiProject]:
    """The projects Gemini CLI has ids for: the registry's, then each `tmp/<id>/` whose marker
    names a project it lost."""
    found: dict[str, str] = {}
    temp = gemini_dir / TMP_DIR
    for path, project_id in _registry(gemini_dir).items():
        owner = _marker(temp / project_id)
        if owner is None or owner == path:
            found.setdefault(path, project_id)
    taken = set(found.values())
    for project_id in _tmp_ids(temp):
        if project_id in taken:
            continue
        owner = _marker(temp / project_id)
        if owner is not None and os.path.isabs(owner) and owner not in found:
            found[owner] = project_id
    return [GeminiProject(path, found[path]) for path in sorted(found)]


def _registry(gemini_dir: Path) -> dict[str, str]:
    path = gemini_dir / PROJECTS_NAME
    try:  # without blocking: a FIFO named projects.json is refused at once
        registry = ProjectRegistryFile.read(parse_json(read_regular_file(path, limit=_MAX_BYTES)))
    except FileNotFoundError:
        return {}
    except (OSError, JsonError) as error:
        logger.info("Gemini CLI: cannot read %s: %s", path, error)
        return {}
    projects = registry.projects if registry is not None and registry.projects else {}
    return {
        os.path.normpath(p): i
        for p, i in projects.items()
        if os.path.isabs(p) and isinstance(i, str) and _ID.match(i)
    }


def _tmp_ids(temp: Path) -> list[str]:
    try:
        with os.scandir(temp) as entries:
            return sorted(e.name for e in entries if _ID.match(e.name) and is_folder(e))
    except OSError:
        return []


def _marker(folder: Path) -> str | None:
    """The project path a `tmp/<id>/.project_root` names (trimmed), or None."""
    try:
        data = read_regular_file(folder / PROJECT_ROOT_FILE, limit=_MARKER_BYTES)
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace").strip()
    return os.path.normpath(text) if text else None


def memory_dir_of(gemini_dir: Path, project_id: str) -> Path:
    """A project's private memory folder (`Storage.getProjectMemoryTempDir`)."""
    return gemini_dir / TMP_DIR / project_id / MEMORY_DIR


def gemini_sources(
    gemini_dir: Path, context_names: tuple[str, ...], projects: Iterable[GeminiProject]
) -> list[Source]:
    """The global memory and each project's private memory under `gemini_dir`."""
    sources = [
        Source(
            id=source_id("gemini", "user"),
            agent="gemini",
            layout=Layout.GEMINI_USER,
            root=gemini_dir,
            label="Gemini CLI (global GEMINI.md)",
            context_names=context_names,
        )
    ]
    private = (
        AgentFolder(
            f"memory-{project.project_id}",
            f"{TMP_DIR}/{project.project_id}/{MEMORY_DIR}",
            Layout.GEMINI_MEMORY,
            "Gemini CLI private project memory",
            project=project.path,
            note=f"Project id {project.project_id} (~/.gemini/tmp/{project.project_id})",
        )
        for project in projects
    )
    return sources + folder_sources("gemini", gemini_dir, private)


def project_source(project: str, dir_name: str, context_names: tuple[str, ...]) -> Source:
    """A project's own GEMINI.md files (`<project>/GEMINI.md`, or the names it reads)."""
    return Source(
        id=source_id("gemini", f"project-{dir_name}"),
        agent="gemini",
        layout=Layout.GEMINI_PROJECT,
        root=Path(project),
        label="Gemini CLI GEMINI.md",
        project=project,
        context_names=context_names,
    )
