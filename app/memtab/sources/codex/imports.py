"""Claude Code's memory as Codex imported it (docs/formats.md §17.3): the extension
`external_agent_import`, read-only copies per project key with a `scope.json`, each linked to
its original in Claude Code's memory (the file to edit)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from memtab.file_protocol.file_ref import SourceError
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Lenient, Record
from memtab.sources.model import ImportedProject, Layout, Source, SourceFile, SourceListing

IMPORT_EXTENSION = "external_agent_import"
SCOPE_NAME = "scope.json"
IMPORTED_TAG = "imported"
"""The tree row's label of an imported file."""
CUSTOM_KEY = "_custom"
_RESOURCES = "resources"
ReadText = Callable[[Source, SourceFile], str]


class ImportScope(Record, keep_unknown=True):
    """A `scope.json` beside one project's imported files: the `cwd` they are for."""

    cwd: Annotated[str | None, Lenient(None)] = None


def imported_part(relative: str, root: str) -> tuple[str, str] | None:
    """The project key and the path in that project's memory of an imported file at
    `relative`, or None."""
    prefix = _resources(root)
    if not relative.startswith(prefix):
        return None
    key, _, rest = relative[len(prefix) :].partition("/")
    if not key or not rest or rest == SCOPE_NAME:
        return None
    return key, rest


def imported_projects(
    source: Source, files: Sequence[SourceFile], root: str, read_text: ReadText
) -> tuple[ImportedProject, ...]:
    """The import extension's projects among a Codex source's `files`, each with its `cwd`."""
    prefix = _resources(root)
    keys: dict[str, SourceFile | None] = {}
    for file in files:
        if file.relative.startswith(prefix):
            key, _, rest = file.relative[len(prefix) :].partition("/")
            if key and rest:
                if rest == SCOPE_NAME:
                    keys[key] = file
                else:
                    keys.setdefault(key, None)
    return tuple(
        ImportedProject(key, f"{prefix}{key}", _cwd(source, scope, read_text))
        for key, scope in sorted(keys.items())
    )


def _resources(root: str) -> str:
    """Where the imported projects are, below a root whose extensions are in `root`."""
    return f"{root}/" * bool(root) + f"{IMPORT_EXTENSION}/{_RESOURCES}/"


def _cwd(source: Source, scope: SourceFile | None, read_text: ReadText) -> str | None:
    if scope is None:
        return None
    try:
        raw: Any = parse_json(read_text(source, scope))
    except (SourceError, JsonError):
        return None
    record = ImportScope.read(raw)
    return record.cwd if record is not None else None


@dataclass(frozen=True)
class ImportLinks:
    """Codex's imported copies and their originals, by file id, both ways; `labels` the
    import's words for each copy, `projects` the `cwd` each names."""

    original_of: dict[str, str]
    imports_of: dict[str, tuple[str, ...]]
    labels: dict[str, str]
    projects: dict[str, str] = field(default_factory=dict)

    def shown_once(self, found: Iterable[str]) -> dict[str, str]:
        """The copies among `found` whose original is found too (see `shown_once`)."""
        return shown_once(found, self.original_of)


def shown_once(found: Iterable[str], original_of: Mapping[str, str]) -> dict[str, str]:
    """The copies among `found` whose original is among them too, each with it: the one rule
    for every view, a copy shown once (folded into its original, or alone with its label),
    never a duplicate to combine."""
    ids = set(found)
    return {copy: original for copy in ids if (original := original_of.get(copy)) in ids}


def link_imports(listings: Sequence[SourceListing]) -> ImportLinks:
    """Each imported file of Codex's listings linked to its original in the Claude Code
    `listings`, by its project key."""
    listed = {listing.source.id: {f.relative for f in listing.files} for listing in listings}
    claude = [listing.source for listing in listings if listing.source.agent == "claude-code"]
    original_of: dict[str, str] = {}
    imports_of: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    cwds: dict[str, str] = {}
    for listing in listings:
        for extension in listing.extensions:
            if extension.name != IMPORT_EXTENSION:
                continue
            root = extension.folder.rpartition("/")[0]
            projects = {project.key: project for project in extension.imports}
            for file in listing.files:
                part = imported_part(file.relative, root)
                if part is None or part[0] not in projects:
                    continue
                project = projects[part[0]]
                labels[file.id] = project.label
                if project.cwd:
                    cwds[file.id] = project.cwd
                original = _original(claude, listed, project, part[1])
                if original is not None:
                    original_of[file.id] = original
                    imports_of.setdefault(original, []).append(file.id)
    imports = {key: tuple(ids) for key, ids in imports_of.items()}
    return ImportLinks(original_of, imports, labels, cwds)


def _original(
    claude: Sequence[Source], listed: dict[str, set[str]], project: ImportedProject, path: str
) -> str | None:
    for source in claude:
        if source.layout is Layout.CLAUDE_MEMORY and source.root.name == project.key:
            relative = f"memory/{path}"
        elif source.layout is Layout.CLAUDE_AUTO_MEMORY and (
            (project.key == CUSTOM_KEY and source.project is None)
            or (project.cwd is not None and source.project == project.cwd)
        ):
            relative = path
        else:
            continue
        if relative in listed.get(source.id, set()):
            return source.file_id(relative)
    return None
