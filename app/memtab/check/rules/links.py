"""Links between memory files that lead nowhere (docs/formats.md §19.3).

A relative Markdown link (`[topic.md](topic.md)`, Claude Code's MEMORY.md index) is
resolved against the file's folder and must stay inside its root (the scope, or the
agent's memory folder); a mux file's `/memories/<scope>/…` link is resolved in the
scopes of its workspace; a link no memory file answers but a file of the project's checkout
does (written from its root: `docs/runbook.md`) leads there. A link's `#anchor` must be a
heading of the file it leads to (as GitHub makes anchors) or of its own file (`#steps`).
URLs, absolute paths of the machine, home-relative and templated targets are not links
between memory files. Claude Code's `@`-imports in its
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
from urllib.parse import unquote

from memtab.check.checkout import Checkout
from memtab.check.documents import Document
from memtab.check.markdown import ScannedText
from memtab.check.wording import is_example, says_gone, says_link_gone
from memtab.fs.globs import walk_files
from memtab.markdown import LineKind, classify, link_path, text_lines
from memtab.sources.claude.instructions import import_spans, import_target

_HOOK = re.compile(r"\s[—–-]\s")
_VIRTUAL = re.compile(r"^/memories/(global|project|workspace)(?:/(.*))?$")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_MAX_ROOT_ENTRIES = 10_000

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
    anchor: str = ""
    """The `#anchor` no heading of the file (there) has now."""

    @property
    def message(self) -> str:
        if self.anchor:
            return f"The link to `{self.target}` leads to no heading"
        return f"The {'import of' if self.imported else 'link to'} `{self.target}` leads nowhere"

    @property
    def why(self) -> str:
        if self.anchor:
            return (
                f"No heading of {self.resolved} is `#{self.anchor}` now: it was renamed or removed."
            )
        what = "file" if self.imported else "memory file"
        return f"No {what} is at {self.resolved}: it was renamed, moved or deleted."


def broken_links(
    document: Document,
    scanned: ScannedText,
    *,
    exists: Exists = os.path.lexists,
    renamed: Renamed,
    named_under: NamedUnder,
    headings: Headings = lambda _path: None,
    checkout: Checkout | None = None,
) -> Iterator[BrokenLink]:
    """Every link of `document` to a memory file that is not there, or to a heading of one
    that is not (see the module doc); `checkout`: the project's (a link to a file of it,
    written from its root, leads there)."""
    lines = scanned.lines
    for link in scanned.links:
        line = lines[link.line - 1]
        text = line.text
        written = link.target.strip()
        # An index line's hook after its dash describes the topic, not the link, and its
        # label names what it leads to ("Older decisions"): neither says it is gone.
        about_link = _HOOK.split(_without(line.words, link.label), maxsplit=1)[0]
        if says_link_gone(about_link) or is_example(about_link):
            continue
        anchor = _anchor(written)
        if written.startswith("#") and anchor:
            if anchor not in heading_anchors(document.text):
                yield BrokenLink(link.line, written, "this file", None, anchor=anchor)
            continue
        target = link_path(_angled(written, text))
        if target is None:
            continue
        virtual = _VIRTUAL.match(target)
        if virtual is not None:
            physical = _virtual_physical(document, virtual)
        elif target.startswith(("/", "~", "\\")) or _WINDOWS_DRIVE.match(target):
            continue
        else:
            physical = _relative_physical(document, target)
        if physical is not None and anchor and exists(physical):
            known = headings(physical)
            if known is not None and anchor not in known:
                shown = target if virtual is not None else _shown(document, physical)
                yield BrokenLink(link.line, written, shown, None, anchor=anchor)
            continue
        if physical is None or exists(physical):
            continue
        relative = _in_checkout(target, checkout) if virtual is None else None
        if relative is not None and checkout is not None:
            known = headings(checkout.root / relative) if anchor else None
            if known is not None and anchor not in known:
                yield BrokenLink(link.line, written, relative, None, anchor=anchor)
            continue
        new = _fixed_target(document, target, physical, virtual is not None, renamed, named_under)
        fix = None
        if new is not None:
            fixed_line = _relinked(text, written, new, link.label)
            if fixed_line != text:
                fix = (f"Link to {new}, where the file is now", fixed_line)
        shown = target if virtual is not None else _shown(document, physical)
        yield BrokenLink(link.line, written, shown, fix)


def _without(words: str, label: str) -> str:
    """A line's words without its link's label (the first time the label stands whole)."""
    at = words.find(label) if label.strip() else -1
    while at >= 0:
        end = at + len(label)
        if not (words[at - 1 : at].isalnum() or words[end : end + 1].isalnum()):
            return words[:at] + " " * len(label) + words[end:]
        at = words.find(label, at + 1)
    return words


def broken_imports(
    document: Document, scanned: ScannedText, *, exists: Exists = os.path.lexists
) -> Iterator[BrokenLink]:
    """Claude Code's `@path` imports in an instruction file (`CLAUDE.md`, `CLAUDE.local.md`, a
    rule) that lead nowhere: relative ones of a text file with its extension, outside code
    (read as `sources.claude.instructions` reads them); Claude Code skips them unsaid."""
    if document.agent != "claude-code":  # before its path is made: most memory is not
        return
    physical = document.physical
    if physical is None or not _instructions(physical):
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


Headings = Callable[[Path], "tuple[str, ...] | None"]
"""The anchors of a memory file's headings (`heading_anchors`); None: not Markdown or not
read."""
_SLUG_DROPS = re.compile(r"[^\w\- ]")
_NO_HEADING = re.compile(r"^(?:l\d+(?:-l?\d+)?|top|:~:.*)$")
"""Anchors that name no heading: a line of code (`#L12-L30`), the page's top (HTML's own),
a text fragment."""


def heading_anchors(text: str) -> tuple[str, ...]:
    """The anchors a Markdown text's headings have, as GitHub makes them (lower case, its
    punctuation dropped, spaces as `-`, a repeated one with `-1`, `-2`…), and every explicit
    one (`{#id}`, `id="…"`, `name="…"`) — lower case."""
    lines = text_lines(text)
    anchors: list[str] = []
    seen: dict[str, int] = {}
    for found in classify(lines):
        if found.kind is not LineKind.HEADING:
            continue
        slug = _SLUG_DROPS.sub("", found.text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.append(slug if count == 0 else f"{slug}-{count}")
    if "#" in text or "=" in text:
        anchors += [one.lower() for pair in _EXPLICIT.findall(text) for one in pair if one]
    return tuple(anchors)


_EXPLICIT = re.compile(r"\{#([\w-]{1,100})\}|\b(?:id|name)=[\"']([\w-]{1,100})[\"']")


def headings_of(path: Path) -> tuple[str, ...] | None:
    """`heading_anchors` of the Markdown file at `path`; None when it is none or unreadable."""
    if path.suffix.lower() not in (".md", ".markdown", ".mdx"):
        return None
    try:
        return heading_anchors(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


MEMORY_QUESTIONS: dict[str, Callable[..., object]] = {
    "memory-exists": lambda _names, path: os.path.lexists(path),
    "memory-named": lambda names, root, name: tuple(map(str, names.named(Path(root), name))),
    "memory-headings": lambda _names, path: headings_of(Path(path)),
}
"""What the check asks of memory files (not of a checkout), and how it is answered; each
is given the check's `MemoryNames` first."""


def _angled(written: str, line: str) -> str:
    """A link's target as `link_path` reads it: one in angle brackets may hold spaces
    (`[x](<deploy notes.md>)`, CommonMark's form for them)."""
    return written.replace(" ", "%20") if " " in written and f"(<{written}>" in line else written


def _anchor(written: str) -> str:
    """The `#anchor` a link target names (lower case; "" for none or one of no heading)."""
    _, hashed, anchor = written.partition("#")
    anchor = unquote(anchor).strip().lower()
    return anchor if hashed and anchor and not _NO_HEADING.match(anchor) else ""


def _in_checkout(target: str, checkout: Checkout | None) -> str | None:
    """The file of the checkout a link target names from its root, if one is there."""
    relative = os.path.normpath(target).replace(os.sep, "/")
    if checkout is None or relative.startswith("..") or relative == ".":
        return None
    return relative if checkout.exists(relative) else None


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
    `_MAX_ROOT_ENTRIES` files and folders, hidden ones left out) for the check that made this: a
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
    walked = walk_files(root, most_entries=_MAX_ROOT_ENTRIES, enter=_visible)
    for relative in walked.files:
        name = relative.rpartition("/")[2]
        if _visible(name):
            found.setdefault(name, []).append(root / relative)
    return {name: tuple(paths) for name, paths in found.items()}


def _visible(name: str) -> bool:
    return not name.startswith(".")


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
