"""Codex's copies of Claude Code memory in a session's answers (docs/formats.md §17.3, §22.2):
`importedFrom`/`importedAs` in rows, a copy folded into its original's search result, `view` saying
whose copy it is."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memtab.agent_server.catalog import SearchHit
from memtab.sources.codex.imports import IMPORT_EXTENSION, link_imports, shown_once
from memtab.sources.listing import list_source
from memtab.sources.model import Discovery, Source, SourceFile


def fold_copies(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """`hits` with each copy whose original is among them folded into it, in order."""
    original_of = {hit.path: hit.imported_from for hit in hits if hit.imported_from}
    folded = shown_once((hit.path for hit in hits), original_of)
    if not folded:
        return list(hits)
    copies: dict[str, tuple[str, ...]] = {}
    for hit in hits:
        if hit.path in folded:
            copies[folded[hit.path]] = (*copies.get(folded[hit.path], ()), hit.path)
    return [
        hit.replaced(imported_as=copies[hit.path]) if hit.path in copies else hit
        for hit in hits
        if hit.path not in folded
    ]


def copy_words(
    discovery: Discovery, source: Source, file: SourceFile, serves: Callable[[Source], bool]
) -> str | None:
    """What `view` says after Codex's copy of a Claude Code memory: its original among the sources
    served (None: no copy)."""
    if source.agent != "codex" or f"/{IMPORT_EXTENSION}/" not in f"/{file.relative}":
        return None
    claude = [s for s in discovery.sources if s.agent == "claude-code" and serves(s)]
    links = link_imports([list_source(s) for s in (source, *claude)])
    label = links.labels.get(file.id)
    if label is None:
        return None
    original = links.original_of.get(file.id)
    where = (
        f"its original, the file to edit, is {original}"
        if original is not None
        else "its original is not in the memory this session serves"
    )
    return f"({file.id} is Codex's copy of a Claude Code memory file, {label}: {where})"
