"""Claude Code's memory as Codex imported it: the extension `external_agent_import`, each
file linked to its original (docs/formats.md §17.3).

Codex 0.169.0 imports Claude Code's auto memory (openai/codex `external-agent-migration/src/
memory.rs`, `memory_import.rs`; the binary's strings: `external_agent_import`, `scope.json`,
and its instructions: "Read each project's `scope.json` first. Its `cwd` is the scope for
every imported memory file in that project directory. … The first path component is the
source project key; the remaining path exactly matches the file's path in that project's
memory directory", "Never edit, rename, or delete extension resources during
consolidation") into `memories/extensions/external_agent_import/resources/<project key>/`:
a copy of each Markdown file of one project's memory, and `scope.json` naming the `cwd` it
is for. A project key is Claude Code's folder name under `<config>/projects/` (its
`memory/` copied), or, for a directory `autoMemoryDirectory` named, `_custom` (the user's or
managed one) or `project:<checkout>`.

So each imported file is a copy, read-only here: it is shown as "imported from Claude Code
(cwd …)", and linked to its original in Claude Code's memory when Memtab lists that — the
file to edit (`link_imports`).
"""

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
    """A `scope.json` Codex wrote beside one project's imported files: the `cwd` they are
    for (kept whole, with whatever else it holds)."""

    cwd: Annotated[str | None, Lenient(None)] = None


def imported_part(relative: str, root: str) -> tuple[str, str] | None:
    """The project key and the path inside that project's memory of an imported file at
    `relative` (below a Codex root whose extensions are in `root`), or None when it is not
    one (its `scope.json` is not one either)."""
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
    """The projects of the import extension among a Codex source's `files`, each with the
    `cwd` its `scope.json` names (read with `read_text`)."""
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
    """Codex's imported copies and their originals in Claude Code's memory, by file id, both
    ways; `labels` the import's words for each imported file — every copy, its original
    listed or not (`ImportedProject.label`: the `cwd` its `scope.json` names) — and
    `projects` the `cwd` of each whose `scope.json` names one: the project it is memory of."""

    original_of: dict[str, str]
    imports_of: dict[str, tuple[str, ...]]
    labels: dict[str, str]
    projects: dict[str, str] = field(default_factory=dict)

    def shown_once(self, found: Iterable[str]) -> dict[str, str]:
        """The copies among `found` (file ids) whose original is found too, each with that
        original: see `shown_once`."""
        return shown_once(found, self.original_of)


def shown_once(found: Iterable[str], original_of: Mapping[str, str]) -> dict[str, str]:
    """The copies among `found` (file ids) whose original is among them too, each with
    that original (`original_of`: copy → original).

    The one rule for showing an import, which the window's search and Quick open, the
    MCP server's and `memtab search` and the trust engines follow: Codex's copy of a Claude
    Code memory file is shown once — folded into its original, the file to edit, where both
    would be shown; alone, as the copy it is, its label (`ImportLinks.labels`) naming the
    project (`cwd`) its `scope.json` gives — and never as a duplicate to combine (Codex:
    "Never edit, rename, or delete extension resources")."""
    ids = set(found)
    return {copy: original for copy in ids if (original := original_of.get(copy)) in ids}


def link_imports(listings: Sequence[SourceListing]) -> ImportLinks:
    """Each imported file of Codex's listings linked to its original in the Claude Code
    listings among `listings`: for a key that is a folder of `<config>/projects/`, that
    folder's `memory/<path>`; for `_custom`, the user's moved auto memory; for another key,
    the auto memory source of the `cwd` its `scope.json` names."""
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
