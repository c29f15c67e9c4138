"""Links between memory files that lead nowhere (docs/formats.md §19.3).

A relative Markdown link (`[topic.md](topic.md)`, Claude Code's MEMORY.md index) is
resolved against the file's folder and must stay inside its root (the scope, or the
agent's memory folder); a mux file's `/memories/<scope>/…` link is resolved in the
scopes of its workspace. URLs, anchors, absolute paths of the machine, home-relative and
templated targets are not links between memory files. Claude Code's `@`-imports in its
instruction files are read too (`broken_imports`). A broken link to a file that was
renamed (the home's history says to what) or whose name is the name of exactly one other
file under the root gets a fix: the link to where the file is now.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.check.documents import Document
from memtab.check.markdown import ScannedText
from memtab.check.wording import is_example, says_gone
from memtab.markdown import link_path
from memtab.sources.claude.instructions import import_spans, import_target

_HOOK = re.compile(r"\s[—–-]\s")
_VIRTUAL = re.compile(r"^/memories/(global|project|workspace)(?:/(.*))?$")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_MAX_ROOT_FILES = 5000

Renamed = Callable[[Document, str], str | None]
"""The virtual path a mux file's virtual path was renamed to (following renames), if any."""
NamedUnder = Callable[[Path, str], tuple[Path, ...]]
"""The memory files under a root with a name (`MemoryNames.named`)."""
Exists = Callable[[Path], bool]
"""Whether a memory file is there (`os.path.lexists`)."""


@dataclass(frozen=True)
class BrokenLink:
    line: int
    target: str
    resolved: str
    fix: tuple[str, str] | None
    imported: bool = False
    """An `@`-import of Claude Code's (`broken_imports`), not a Markdown link."""

    @property
    def message(self) -> str:
        return f"The {'import of' if self.imported else 'link to'} `{self.target}` leads nowhere"

    @property
    def why(self) -> str:
        what = "file" if self.imported else "memory file"
        return f"No {what} is at {self.resolved}: it was renamed, moved or deleted."


def broken_links(
    document: Document,
    scanned: ScannedText,
    *,
    exists: Exists = os.path.lexists,
    renamed: Renamed,
    named_under: NamedUnder,
) -> Iterator[BrokenLink]:
    """Every link of `document` to a memory file that is not there (see the module doc)."""
    lines = scanned.lines
    for link in scanned.links:
        line = lines[link.line - 1]
        text = line.text
        written = link.target.strip()
        # An index line's hook after its dash describes the topic, not the link.
        about_link = _HOOK.split(line.words, maxsplit=1)[0]
        if says_gone(about_link) or is_example(about_link):
            continue
        target = link_path(written)
        if target is None:
            continue
        virtual = _VIRTUAL.match(target)
        if virtual is not None:
            physical = _virtual_physical(document, virtual)
        elif target.startswith(("/", "~", "\\")) or _WINDOWS_DRIVE.match(target):
            continue
        else:
            physical = _relative_physical(document, target)
        if physical is None or exists(physical):
            continue
        new = _fixed_target(document, target, physical, virtual is not None, renamed, named_under)
        fix = None
        if new is not None:
            fixed_line = _relinked(text, written, new, link.label)
            if fixed_line != text:
                fix = (f"Link to {new}, where the file is now", fixed_line)
        shown = target if virtual is not None else _shown(document, physical)
        yield BrokenLink(link.line, written, shown, fix)


def broken_imports(
    document: Document, scanned: ScannedText, *, exists: Exists = os.path.lexists
) -> Iterator[BrokenLink]:
    """Claude Code's `@path` imports in an instruction file (`CLAUDE.md`, `CLAUDE.local.md`, a
    rule) that lead nowhere: relative ones of a text file with its extension, outside code
    (read as `sources.claude.instructions` reads them); Claude Code skips them unsaid."""
    physical = document.physical
    if document.agent != "claude-code" or physical is None or not _instructions(physical):
        return
    for line in scanned.lines:
        if line.block is not None or line.fence or "@" not in line.prose:
            continue
        if says_gone(line.words) or is_example(line.words):
            continue
        for _start, _end, written in import_spans(line.text):
            if written.startswith(("~", "/")):
                continue
            target = import_target(written, physical.parent, physical.parent)
            if target is None or not target.suffix or exists(target):
                continue
            yield BrokenLink(line.number, "@" + written, _shown(document, target), None, True)


def _instructions(path: Path) -> bool:
    """Whether Claude Code reads `path` as instructions, following its `@`-imports."""
    if path.name in ("CLAUDE.md", "CLAUDE.local.md"):
        return True
    return any(a == ".claude" and b == "rules" for a, b in itertools.pairwise(path.parts))


def _virtual_physical(document: Document, match: re.Match[str]) -> Path | None:
    root = document.scope_roots.get(match.group(1))
    if root is None:
        return None
    rest = (match.group(2) or "").strip("/")
    parts = rest.split("/") if rest else []
    if any(part in ("", ".", "..") for part in parts):
        return None
    return root.joinpath(*parts)


def _relative_physical(document: Document, target: str) -> Path | None:
    if document.physical is None or document.link_root is None:
        return None  # a rendered file: its links are not a file's
    resolved = Path(os.path.normpath(document.physical.parent / target))
    root = Path(os.path.normpath(document.link_root))
    if resolved != root and root not in resolved.parents:
        return None  # outside the memory: not a link between memory files
    return resolved


class MemoryNames:
    """The memory files under each root by name, each root walked once (at most
    `_MAX_ROOT_FILES` files, hidden ones left out) for the check that made this: a
    broken link in each of thousands of files walks its root once, not once each."""

    def __init__(self) -> None:
        self._roots: dict[Path, dict[str, tuple[Path, ...]]] = {}

    def named(self, root: Path, name: str) -> tuple[Path, ...]:
        by_name = self._roots.get(root)
        if by_name is None:
            by_name = self._roots[root] = _by_name(root)
        return by_name.get(name, ())


def _by_name(root: Path) -> dict[str, tuple[Path, ...]]:
    found: dict[str, list[Path]] = {}
    count = 0
    for folder, directories, files in os.walk(root):
        directories[:] = [d for d in directories if not d.startswith(".")]
        for name in files:
            if not name.startswith("."):
                found.setdefault(name, []).append(Path(folder) / name)
                count += 1
        if count > _MAX_ROOT_FILES:
            break
    return {name: tuple(paths) for name, paths in found.items()}


def _fixed_target(
    document: Document,
    target: str,
    physical: Path,
    virtual: bool,
    renamed: Renamed,
    named_under: NamedUnder,
) -> str | None:
    """Where the link should lead now, written as the link was (virtual or relative)."""
    if document.agent == "mux":
        old_virtual = target if virtual else _as_virtual(document, physical)
        new_virtual = renamed(document, old_virtual) if old_virtual else None
        if new_virtual is not None:
            if virtual:
                return new_virtual
            new_physical = _virtual_physical(document, _VIRTUAL.match(new_virtual))  # type: ignore[arg-type]
            if new_physical is not None and document.physical is not None:
                return os.path.relpath(new_physical, document.physical.parent)
    if document.link_root is None:
        return None
    same_name = named_under(document.link_root, physical.name)
    if len(same_name) != 1 or document.physical is None:
        return None
    if virtual:
        return _as_virtual(document, same_name[0])
    return Path(os.path.relpath(same_name[0], document.physical.parent)).as_posix()


def _as_virtual(document: Document, physical: Path) -> str | None:
    for scope, root in document.scope_roots.items():
        if physical == root or root in physical.parents:
            relative = physical.relative_to(root).as_posix()
            return f"/memories/{scope}/{relative}" if relative != "." else f"/memories/{scope}"
    return None


def _relinked(line: str, written: str, new: str, label: str) -> str:
    fixed = line
    for before, after in ((f"]({written}", f"]({new}"), (f"](<{written}>", f"](<{new}>")):
        fixed = fixed.replace(before, after, 1)
    if fixed == line:
        fixed = re.sub(
            rf"(\]:\s*<?){re.escape(written)}", lambda m: m.group(1) + new, line, count=1
        )
    if label == written:
        fixed = fixed.replace(f"[{written}]", f"[{new}]", 1)
    return fixed


def _shown(document: Document, physical: Path) -> str:
    if document.link_root is None:
        return str(physical)
    return os.path.relpath(physical, document.link_root)
