"""File-sync tools' conflict copies, recognised here only (docs/formats.md §18.5): a name is a copy
only while its original exists beside it. Pure string work."""

from collections.abc import Iterable
from typing import NamedTuple

from memtab.fs.lazy_re import LazyPattern
from memtab.fs.slotted import Slotted
from memtab.store.paths import VirtualPath

# Each tool's pattern: the original's stem, what the tool added, the original's last `.suffix`.
_EXT = r"(?P<ext>\.[^.\s]+)?"
_PATTERNS: tuple[tuple[str, LazyPattern], ...] = (
    (
        # Syncthing: <stem>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<first 7 of device id><ext>
        "syncthing",
        LazyPattern(
            r"^(?P<stem>.+?)\.sync-conflict-(?P<when>\d{8}-\d{6})-(?P<by>[A-Z0-9]{7})" + _EXT + "$"
        ),
    ),
    (
        # ownCloud (and Nextcloud before 2.5): <stem>_conflict-<YYYYMMDD>-<HHMMSS><ext>
        "owncloud",
        LazyPattern(r"^(?P<stem>.+?)_conflict-(?P<when>\d{8}-\d{6})" + _EXT + "$"),
    ),
    (
        # Nextcloud and ownCloud now: <stem> (conflicted copy <YYYY-MM-DD> <HHMMSS>)<ext>,
        # also with the user's name before the date.
        "nextcloud",
        LazyPattern(
            r"^(?P<stem>.+?) \([Cc]onflicted copy (?:(?P<by>[^()]+?) )?"
            r"(?P<when>\d{4}-\d{2}-\d{2} \d{6})\)" + _EXT + "$"
        ),
    ),
    (
        # Dropbox: <stem> (<who>'s conflicted copy <YYYY-MM-DD>)<ext>, "(1)" when taken;
        # Google Drive's conflicted copies read the same way.
        "dropbox",
        LazyPattern(
            r"^(?P<stem>.+?) \((?:(?P<by>[^()]+?)['’]s )?[Cc]onflicted copy"
            r"(?: (?P<when>\d{4}-\d{2}-\d{2}))?(?: \(\d+\))?\)" + _EXT + "$"
        ),
    ),
    (
        # OneDrive adds the computer's NetBIOS name: <stem>-<COMPUTERNAME><ext>, with a digit or
        # hyphen so `-TODO` is none.
        "onedrive",
        LazyPattern(
            r"^(?P<stem>.+?)-(?P<by>(?=[A-Z0-9-]{0,14}[0-9-])[A-Z][A-Z0-9-]{1,14})" + _EXT + "$"
        ),
    ),
    (
        # Google Drive for desktop (and OneDrive for a name taken): <stem> (<n>)<ext>
        "google-drive",
        LazyPattern(r"^(?P<stem>.+?) \((?P<by>[1-9][0-9]{0,2})\)" + _EXT + "$"),
    ),
)

_MAYBE_A_COPY = LazyPattern(r" \(|conflict-|-[A-Z]")
"""What every tool's copy name holds: a name without any is ordinary at the cost of one search."""

TOOL_NAMES = {
    "syncthing": "Syncthing",
    "owncloud": "ownCloud",
    "nextcloud": "Nextcloud",
    "dropbox": "Dropbox",
    "onedrive": "OneDrive",
    "google-drive": "Google Drive",
}
"""Each tool as people write it."""


class CopyName(NamedTuple):
    """What a conflict copy's name says: its original, the tool, when and where it was written."""

    original: str
    tool: str
    when: str | None = None
    by: str | None = None

    @property
    def label(self) -> str:
        """How the window marks the copy: "conflict copy (Syncthing)"."""
        return f"conflict copy ({TOOL_NAMES.get(self.tool, self.tool)})"


def parse_copy_name(name: str) -> CopyName | None:
    """The original a name is a copy of by the first matching tool's pattern; None for an ordinary
    name (see `find_copies`)."""
    if _MAYBE_A_COPY.search(name) is None:
        return None
    for tool, pattern in _PATTERNS:
        if (match := pattern.match(name)) is None:
            continue
        original = match["stem"] + (match["ext"] or "")
        if original != name and not original.startswith("."):
            groups = match.groupdict()
            return CopyName(original, tool, groups.get("when"), groups.get("by"))
    return None


class ConflictCopy(Slotted):
    """A conflict copy in a memory scope and the file it is a copy of."""

    __slots__ = ("name", "original", "path")

    path: VirtualPath
    original: VirtualPath
    name: CopyName

    def __init__(self, path: VirtualPath, original: VirtualPath, name: CopyName) -> None:
        self.path = path
        self.original = original
        self.name = name


def find_copies(files: Iterable[VirtualPath]) -> dict[VirtualPath, ConflictCopy]:
    """The conflict copies among a listing's files whose original is listed too, by path."""
    listed = tuple(files)
    named = [path for path in listed if path.segments and _MAYBE_A_COPY.search(path.name)]
    if not named:
        return {}  # (the usual case: no set of every path to build)
    present = set(listed)
    return {path: copy for path in named if (copy := copy_of(path, present)) is not None}


def copy_of(
    path: VirtualPath, siblings: Iterable[VirtualPath] | set[VirtualPath]
) -> ConflictCopy | None:
    """`path` as a conflict copy when its original is among `siblings` (files), else None."""
    name = parse_copy_name(path.name) if path.segments else None
    if name is None:
        return None
    original = path.parent.child(name.original)
    present = siblings if isinstance(siblings, set) else set(siblings)
    return ConflictCopy(path, original, name) if original in present else None


def copy_names(names: Iterable[str]) -> set[str]:
    """The names in one directory's file names that are conflict copies of another."""
    present = set(names)
    return {
        name for name in present if (parsed := parse_copy_name(name)) and parsed.original in present
    }
