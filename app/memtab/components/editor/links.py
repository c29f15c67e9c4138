"""Where a link in a memory file's preview leads — no Qt.

Claude Code's MEMORY.md is an index of `[topic.md](topic.md)` links, and mux's files link
`/memories/<scope>/…` paths: the preview opens the memory file a link names, in Memtab.
A relative link is resolved against the linking file's folder and must stay inside its
scope (or the agent's memory folder), as `memtab check` resolves links
(`markdown.link_path` says which targets are links to files); a `/memories/…` link of a
mux file names a file of its workspace. `#anchor` links stay in the page; web links go to
the browser; anything else is not followed (memory files are untrusted text). In Claude
Code's instruction files an `@`-import leads to the file it names on disk
(`follow_link`, `components.loads.imports`).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from memtab.components.loads.imports import IMPORT_HREF, import_file, reads_imports
from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef
from memtab.markdown import link_path
from memtab.store.paths import PathError, parse_file_path

WEB_SCHEMES = ("http", "https")


@dataclass(frozen=True)
class LinkTarget:
    """Where a link leads: a memory file (`ref`), a place in the page (`anchor`), a web
    page (`web`), a file on disk an `@`-import names (`file`), or nowhere Memtab follows
    (all None; `why` says so)."""

    ref: MemoryFileRef | None = None
    anchor: str | None = None
    web: str | None = None
    why: str = ""
    file: Path | None = None


def follow_link(
    source: MemoryFileRef | None, href: str, real_path: Path | None, home: Path
) -> LinkTarget:
    """Where `href`, clicked in the text or the preview of the file `source` (on disk at
    `real_path`; `home`: the user's, as `~/` in an import means it), leads: an `@`-import
    where Claude Code follows them, else `resolve_link`."""
    if not (href.startswith(IMPORT_HREF) and reads_imports(source)):
        return resolve_link(source, href)
    written = href.removeprefix(IMPORT_HREF)
    target = import_file(written, real_path, home) if real_path is not None else None
    if target is None:
        return LinkTarget(why=f"Claude Code imports no file by @{written}")
    return LinkTarget(file=target)


def resolve_link(source: MemoryFileRef | None, href: str) -> LinkTarget:
    """Where `href`, a link in the file `source` (None: a file shown only to be read),
    leads."""
    written = href.strip()
    scheme = written.split(":", 1)[0].lower() if ":" in written else ""
    if scheme in WEB_SCHEMES:
        return LinkTarget(web=written)
    if written.startswith("#"):
        return LinkTarget(anchor=written[1:])
    path = link_path(written)
    if path is None:
        return LinkTarget(why=f"Memtab does not follow this link: {written}")
    if source is None:
        return LinkTarget(why=f"This file's links are not followed: {written}")
    if source.source_id == MUX_SOURCE_ID:
        return _mux_target(source, path, written)
    return _agent_target(source, path, written)


def _mux_target(source: MemoryFileRef, path: str, written: str) -> LinkTarget:
    if path.startswith("/"):
        resolved = posixpath.normpath(path)
    else:
        here = posixpath.dirname(source.path)
        resolved = posixpath.normpath(posixpath.join(here, path))
        scope_root = "/".join(source.path.split("/")[:3])  # /memories/<scope>
        if not resolved.startswith(f"{scope_root}/"):
            return LinkTarget(why=f"The link leads out of its scope: {written}")
    try:
        return LinkTarget(ref=MemoryFileRef.of_mux(parse_file_path(resolved)))
    except PathError as error:
        return LinkTarget(why=f"The link does not name a memory file ({error}): {written}")


def _agent_target(source: MemoryFileRef, path: str, written: str) -> LinkTarget:
    if path.startswith("/"):
        return LinkTarget(why=f"The link names a path outside the memory: {written}")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source.path), path))
    if resolved == "." or resolved.startswith("../") or resolved == "..":
        return LinkTarget(why=f"The link leads out of the memory folder: {written}")
    return LinkTarget(ref=MemoryFileRef(source.source_id, resolved))
