"""Codex's memory extensions as Memtab lists them, read-only (docs/formats.md §17.3): a folder of
`memories/extensions/` with `instructions.md`, `resources/` and maybe a manifest; the ad-hoc
notes extension holds the user's notes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Annotated

from memtab.file_protocol.file_ref import SourceError
from memtab.fs.records import OmitEmpty, OmitNone, Record
from memtab.sources.codex.imports import IMPORT_EXTENSION, imported_projects
from memtab.sources.codex.manifest import (
    INSTRUCTIONS_NAME,
    MANIFEST_NAME,
    RESOURCES_DIR,
    ExtensionManifest,
    manifest_of,
)
from memtab.sources.model import (
    AD_HOC_EXTENSION,
    CodexExtension,
    Layout,
    ListedResource,
    Source,
    SourceFile,
)

NOTES_DIR = "notes"
ReadText = Callable[[Source, SourceFile], str]
"""A listed file's own text through the source's confined, capped read; SourceError."""


def extensions_root(layout: Layout) -> str | None:
    """Where extensions are in a root of `layout` ("" for the root itself; None: none)."""
    if layout is Layout.CODEX_MEMORIES:
        return "extensions"
    if layout is Layout.CODEX_EXTENSIONS:
        return ""
    return None


def read_extensions(
    source: Source, files: Sequence[SourceFile], read_text: ReadText
) -> tuple[CodexExtension, ...]:
    """The extensions among a Codex source's listed `files`, by name, each manifest read."""
    root = extensions_root(source.layout)
    if root is None:
        return ()
    prefix = f"{root}/" if root else ""
    by_name: dict[str, list[SourceFile]] = {}
    for file in files:
        if file.relative.startswith(prefix):
            inside = file.relative[len(prefix) :].split("/")
            if len(inside) > 1:
                by_name.setdefault(inside[0], []).append(file)
    extensions = [
        _extension(source, prefix + name, name, by_name[name], read_text)
        for name in sorted(by_name)
    ]
    return tuple(
        replace(extension, imports=imported_projects(source, files, root, read_text))
        if extension.name == IMPORT_EXTENSION
        else extension
        for extension in extensions
    )


def _extension(
    source: Source, folder: str, name: str, files: list[SourceFile], read_text: ReadText
) -> CodexExtension:
    at = {file.relative[len(folder) + 1 :]: file for file in files}
    resources = tuple(sorted(f"{folder}/{i}" for i in at if i.startswith(f"{RESOURCES_DIR}/")))
    notes = tuple(sorted(f"{folder}/{i}" for i in at if i.startswith(f"{NOTES_DIR}/")))
    notes = notes if name == AD_HOC_EXTENSION else ()
    instructions = at.get(INSTRUCTIONS_NAME)
    manifest_file = at.get(MANIFEST_NAME)
    manifest: ExtensionManifest | None = None
    problem: str | None = None
    if manifest_file is not None:
        try:
            manifest, problem = manifest_of(read_text(source, manifest_file))
        except SourceError as error:
            problem = str(error)
    listed: tuple[ListedResource, ...] = ()
    if manifest is not None:
        present = set(resources)
        listed = tuple(
            ListedResource(
                source_id=origin,
                relative=(relative := f"{folder}/{RESOURCES_DIR}/{entry.target_file_name}"),
                content_sha256=entry.content_sha256,
                present=relative in present,
            )
            for origin, entry in sorted(manifest.resources.items())
        )
    return CodexExtension(
        name=name,
        folder=folder,
        description=instructions.description if instructions is not None else "",
        instructions=instructions.relative if instructions is not None else None,
        manifest=manifest_file.relative if manifest_file is not None else None,
        manifest_version=manifest.version if manifest is not None else None,
        listed=listed,
        resources=resources,
        notes=notes,
        problem=problem,
    )


class ListedRow(Record, write_only=True):
    """A resource an extension's manifest lists, in `memtab list --source ID --json`."""

    source_id: str
    """Where Codex says it comes from (the manifest's key)."""
    file: str
    """Its file id."""
    content_sha256: str
    present: bool


class ExtensionRow(Record, write_only=True):
    """A Codex memory extension as `memtab list --source ID --json` gives it (§17.3)."""

    name: str
    folder: str
    description: str
    instructions: Annotated[str | None, OmitNone] = None
    manifest: Annotated[str | None, OmitNone] = None
    manifest_version: Annotated[int | None, OmitNone] = None
    manifest_problem: Annotated[str | None, OmitNone] = None
    listed: Annotated[tuple[ListedRow, ...], OmitEmpty] = ()
    resources: tuple[str, ...] = ()
    notes: Annotated[tuple[str, ...], OmitEmpty] = ()


def extension_row(source: Source, extension: CodexExtension) -> ExtensionRow:
    def named(relative: str | None) -> str | None:
        return source.file_id(relative) if relative is not None else None

    return ExtensionRow(
        name=extension.name,
        folder=source.file_id(extension.folder),
        description=extension.description,
        instructions=named(extension.instructions),
        manifest=named(extension.manifest),
        manifest_version=extension.manifest_version,
        manifest_problem=extension.problem,
        listed=tuple(
            ListedRow(
                source_id=listed.source_id,
                file=source.file_id(listed.relative),
                content_sha256=listed.content_sha256,
                present=listed.present,
            )
            for listed in extension.listed
        ),
        resources=tuple(map(source.file_id, extension.resources)),
        notes=tuple(map(source.file_id, extension.notes)),
    )
