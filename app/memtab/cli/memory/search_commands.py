"""`memtab search`: the memory files best matching a query, ranked by BM25 as the MCP server's
`search` ranks (docs/formats.md §22.3), over the home's shared search index (§22.11)."""

from __future__ import annotations

import argparse
import sys
from typing import Annotated

from memtab.agent_server.catalog import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MemoryCatalog,
    SearchHit,
    fold_copies,
)
from memtab.agent_server.session_scope import SessionScope
from memtab.cli.common import command, open_store
from memtab.cli.options import CliError
from memtab.fs.records import Record
from memtab.search_index.ranking import tokens
from memtab.sources.config import SourceContext
from memtab.store.home import Home

# The catalog indexes for a while, then goes on in the background (docs/formats.md §22.11):
# a command waits for the rest, to answer from every file, at most this long.
INDEXING_WAIT_S = 300.0


class SearchListing(Record, write_only=True):
    """`memtab search --json` (docs/formats.md §22.2's `search` result): the query, the files best
    matching it, best first (each as the MCP server's `search` gives it: path, scope, description,
    score, the line holding most of the query's words), and what the search left out and why."""

    query: str
    results: tuple[SearchHit, ...]
    notes: tuple[str, ...]


def _limit(text: str) -> int:
    """`--limit`: a whole number from 1 to MAX_LIMIT."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_LIMIT}")
    return value


@command("search", writes_home=False)
def search(
    home: Home,
    query: str,
    *,
    workspace: str | None = None,
    scope: str | None = None,
    limit: Annotated[int, _limit, f"at most this many (1–{MAX_LIMIT})"] = DEFAULT_LIMIT,
    mux_only: bool = False,
) -> SearchListing:
    """the memory files best matching a query, best first (ranked, BM25)

    Args:
        query: words to look for
        workspace (ID): include its project and workspace
        scope: only one scope (global, project, workspace, session) or another agent's memory
            (claude-code, codex, or a source id from `memtab sources`)
        mux_only: leave out the other agents' memory
        json: machine-readable output
    """
    if not tokens(query):
        raise CliError(
            f"Nothing to search for in {query!r}: a query needs a word (letters or digits)."
        )
    store, registry = open_store(home, workspace)
    session = SessionScope.of_workspace(registry.workspace(workspace) if workspace else None)
    sources = None if mux_only else (lambda: SourceContext.load(home))
    catalog = MemoryCatalog(store, sources=sources, keep=session.serves, background=False)
    try:
        hits = fold_copies(_search_everything(catalog, query, scope, limit))
        return SearchListing(query=query, results=tuple(hits), notes=catalog.notes())
    finally:
        catalog.close()


@search.text
def _print_hits(listing: SearchListing) -> None:
    for note in listing.notes:
        print(f"note: {note}", file=sys.stderr)
    if not listing.results:
        print(f"No memory file matches {listing.query!r}")
    for hit in listing.results:
        described = f" — {hit.description}" if hit.description else ""
        print(f"{hit.score:8.3f}  {hit.path}{described}")
        if hit.imported:
            copy_of = f": a copy of {hit.imported_from}" if hit.imported_from else ""
            print(f"{'':10}({hit.imported}{copy_of})")
        if hit.line is not None:
            print(f"{'':10}{hit.line}: {hit.snippet}")
        for copy in hit.imported_as:
            print(f"{'':10}(also Codex's import of it: {copy})")


def _search_everything(
    catalog: MemoryCatalog, query: str, scope: str | None, limit: int
) -> list[SearchHit]:
    """The catalog's answer once every file is indexed (the first search of a big home
    goes on indexing after the catalog's first answer; this waits for it)."""
    hits = catalog.search(query, scope=scope, limit=limit)
    if catalog.wait_until_indexed(0):
        return hits
    catalog.wait_until_indexed(INDEXING_WAIT_S)
    return catalog.search(query, scope=scope, limit=limit)
