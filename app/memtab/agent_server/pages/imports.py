"""Codex's copies of Claude Code memory in a session's answers (docs/formats.md §17.3,
§22.2): Codex 0.169 imports Claude Code's auto memory into its own memory folder, so the
same file is there twice. An agent is told which is the copy and which the original —
the file to edit — and a search finds the fact once.

- `list` rows carry `importedFrom` (a copy's original) and `importedAs` (an original's
  copies), made where the session's sources are listed (`catalog_listing.list_files`).
- `search` folds a copy into its original's result when both are found (`fold_copies`):
  the original keeps its place and names the copy in `importedAs`; a copy whose original
  is not found stays, with `importedFrom`.
- `view` of a copy says whose copy it is and which file is its original (`copy_words`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memtab.agent_server.catalog import SearchHit
from memtab.sources.codex.imports import IMPORT_EXTENSION, link_imports, shown_once
from memtab.sources.listing import list_source
from memtab.sources.model import Discovery, Source, SourceFile


def fold_copies(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """`hits` with each copy whose original is among them folded into the original's
    result (`importedAs`), in the order found (`sources.codex.imports.shown_once`)."""
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
    """What `view` of `file` says after it when it is Codex's copy of a Claude Code memory
    file: where it comes from and its original among the Claude Code sources the session
    `serves` (None: not a copy)."""
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
