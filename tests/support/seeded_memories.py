"""Seeded notes as the memories the trust engines read (`check.documents.Document`), made
in memory without a home on disk: where a seeded corpus says a note goes, as a file of
that agent and scope would be read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from memtab.check.documents import GLOBAL_GROUP, Document, pack_text

SRC = "/home/dev/src"


def project_path(name: str) -> str:
    return f"{SRC}/{name}"


def memory(place: str, name: str, text: str, *, modified_ms: int = 0) -> Document:
    """A memory at `place` ("global", "project:<p>", "workspace:<p>", "claude:<p>",
    "claude-user", "codex", "codex-import:<p>", "team:<p>", "gemini") named `name`."""
    kind, _, project = place.partition(":")
    path_of = project_path(project) if project else None
    if kind == "global":
        return _doc(f"/memories/global/{name}", "mux", "global", text, modified_ms)
    if kind == "project":
        key = f"mux:project:{path_of}:/memories/project/{name}"
        return _doc(
            f"/memories/project/{name}",
            "mux",
            "project",
            text,
            modified_ms,
            project=path_of,
            key=key,
        )
    if kind == "workspace":
        key = f"mux:workspace:ws-{project}:/memories/workspace/{name}"
        path = f"/memories/workspace/{name}"
        workspace = f"ws-{project}"
        return _doc(
            path,
            "mux",
            "workspace",
            text,
            modified_ms,
            project=path_of,
            workspace=workspace,
            key=key,
        )
    if kind == "claude":
        path = f"claude-code:project-{project}:memory/{name}"
        return _doc(path, "claude-code", "project", text, modified_ms, project=path_of)
    if kind == "team":
        path = f"claude-code:team-{project}:{name}"
        document = _doc(path, "claude-code", "project", text, modified_ms, project=path_of)
        return replace(document, shared=True)
    if kind == "claude-user":
        return _doc(f"claude-code:user:rules/{name}", "claude-code", "global", text, modified_ms)
    if kind == "codex-import":
        path = f"codex:memories:extensions/external_agent_import/resources/{project}/{name}"
        return _doc(path, "codex", "global", text, modified_ms)
    if kind == "codex":
        return _doc(f"codex:memories:{name}", "codex", "global", text, modified_ms)
    if kind == "gemini":
        return _doc(f"gemini:user:{name}", "gemini", "global", text, modified_ms)
    raise ValueError(place)


def _doc(
    path: str,
    agent: str,
    scope: str,
    text: str,
    modified_ms: int,
    *,
    project: str | None = None,
    workspace: str | None = None,
    key: str | None = None,
) -> Document:
    group = GLOBAL_GROUP if project is None else f"project:{project}"
    return Document(
        key=key or (f"mux:global::{path}" if agent == "mux" else path),
        path=path,
        agent=agent,  # type: ignore[arg-type]
        scope=scope,  # type: ignore[arg-type]
        packed=pack_text(text),
        project=project,
        workspace=workspace,
        group=group,
        modified_ms=modified_ms,
    )


def unique_names(places_and_names: Iterable[tuple[str, str]]) -> list[str]:
    """The names, each made unique within its place (`x.md`, `x-2.md`)."""
    seen: dict[tuple[str, str], int] = {}
    names = []
    for place, name in places_and_names:
        count = seen[(place, name)] = seen.get((place, name), 0) + 1
        names.append(name if count == 1 else f"{name[:-3]}-{count}.md")
    return names
