"""What the agent saved to its own memory during the session: Claude Code writes each of its
auto-memories as a Markdown file under `~/.claude/projects/<project>/memory/`, with a frontmatter
`description:` that says in one line what to remember ("Meow functions require explicit type
annotations on parameters and return type — type inference is not implemented")."""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from memtab.markdown import LineKind, classify, item_text
from memtab.transcripts import TranscriptToolCall
from memtab.writer.offline.answers import is_news, opens_on_a_verb, stands_alone
from memtab.writer.offline.language import ended, is_claimed

MIN_MEMORY_CHARS = 20
MAX_MEMORY_CHARS = 240

_MEMORY_FILE = re.compile(r"/\.claude/projects/[^/]+/memory/(?!MEMORY\.md$)[^/]+\.md$")
_MEMORY_INDEX = re.compile(r"/\.claude/projects/[^/]+/memory/MEMORY\.md$")
_EDIT_TOOL = re.compile(r"^edit$", re.IGNORECASE)
# A bullet of the older inline layout (`-` or `*`); a link bullet (`- [x.md](x.md) — …`)
# is the index's.
_INLINE_MARKERS = ("-", "*")
MAX_MEMORIES_PER_EDIT = 3
_WRITE_TOOL = re.compile(r"^(?:write|create_file)$", re.IGNORECASE)
# No run of blanks is read twice: the opening line holds no line break of the head, the
# description is its line to the end (trimmed after), a `type:` key is looked for in its line.
_FRONTMATTER = re.compile(r"\A---[^\S\n]*+\n(?P<head>.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_DESCRIPTION = re.compile(r"^description:\s*+(?P<text>.+)", re.MULTILINE)
_TYPE = re.compile(r"^[^\S\n]*type:\s*[\"']?(?P<type>\w+)", re.MULTILINE)


class SavedMemory(NamedTuple):
    """A memory the agent saved: a directive (its `feedback` type) or a finding."""

    kind: Literal["directive", "finding"]
    text: str


_PLACEHOLDER = re.compile(r"<[A-Za-z_ -]+>|\{\{|\bTODO\b")


def memories_saved(call: TranscriptToolCall) -> list[SavedMemory]:
    """The memories one call saved: a memory file written (`memory_saved`), or the bullets
    an edit added to an inline `MEMORY.md` (the older layout), at most
    `MAX_MEMORIES_PER_EDIT`, each a finding that stands alone and names its subject — in a
    language the writer claims (`language`): a memory is prose, and one in a language no
    session checked cannot be told from the session's news."""
    return [memory for memory in _memories_saved(call) if is_claimed(memory.text)]


def _memories_saved(call: TranscriptToolCall) -> list[SavedMemory]:
    saved = memory_saved(call)
    if saved is not None:
        return [saved]
    if not _EDIT_TOOL.match(call.name) or call.is_error or not isinstance(call.input, dict):
        return []
    path, old, new = (call.input.get(key) for key in ("file_path", "old_string", "new_string"))
    if not isinstance(path, str) or not isinstance(old, str) or not isinstance(new, str):
        return []
    if not _MEMORY_INDEX.search(path.replace("\\", "/")):
        return []
    before = set(old.splitlines())
    found: list[SavedMemory] = []
    lines = new.splitlines()
    for line, item in zip(lines, classify(lines, frontmatter=False), strict=True):
        bullet = item_text(line, item) if item.kind is LineKind.LIST_ITEM else ""
        if line in before or item.marker not in _INLINE_MARKERS or bullet.startswith("["):
            continue
        text = " ".join(bullet.replace("**", "").split())
        if not MIN_MEMORY_CHARS <= len(text) <= MAX_MEMORY_CHARS or opens_on_a_verb(text):
            continue  # a bullet with no subject leans on its heading ("Use `IF NOT EXISTS` …")
        if is_news(text):
            continue  # the session's history ("Phase 14 hit this exact bug … Fixed in PR #186")
        if stands_alone(text):
            found.append(SavedMemory("finding", ended(text)))
    return found[:MAX_MEMORIES_PER_EDIT]


def memory_saved(call: TranscriptToolCall) -> SavedMemory | None:
    """The note an agent's own memory write holds: the memory file's description, one
    sentence; None for any other call, a failed write, or a file with no usable one."""
    if not _WRITE_TOOL.match(call.name) or call.is_error or not isinstance(call.input, dict):
        return None
    path, content = call.input.get("file_path"), call.input.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    if not _MEMORY_FILE.search(path.replace("\\", "/")):
        return None
    head = _FRONTMATTER.match(content)
    described = _DESCRIPTION.search(head["head"]) if head else None
    if described is None:
        return None
    text = " ".join(described["text"].rstrip().strip("\"'").split())
    if not MIN_MEMORY_CHARS <= len(text) <= MAX_MEMORY_CHARS or _PLACEHOLDER.search(text):
        return None
    text = ended(text)
    typed = _TYPE.search(head["head"]) if head else None
    if typed is not None and typed["type"].casefold() == "feedback":
        return SavedMemory("directive", text)
    return SavedMemory("finding", text) if stands_alone(text) else None
