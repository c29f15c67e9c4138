"""What Tab does in the editor's Markdown source, no Qt (`gui.toolkit.text.source_edit`): it
moves the focus in the frontmatter (a tab is invalid YAML), a read-only text, a dialog, or with
"Tab moves focus" (Ctrl+M); elsewhere it indents each selected line, Shift+Tab outdents."""

from __future__ import annotations

import enum
from collections.abc import Iterable

from memtab.components.editor.frontmatter import frontmatter_lines
from memtab.components.editor.text_buffer import buffer_from_raw

INDENT_SPACES = 4
"""The spaces Shift+Tab takes away at most from a line indented with spaces."""
FRONTMATTER_SCAN_LINES = 200
"""How far down a closing fence is looked for (a frontmatter is a few lines)."""


class TabKey(enum.Enum):
    """What a plain Tab or Shift+Tab does."""

    MOVE_FOCUS = "move_focus"
    SHIFT_LINES = "shift_lines"
    """Indent (Tab) or outdent (Shift+Tab) every line the selection touches."""
    TYPE = "type"
    """A tab character, in place of what is selected."""


def tab_key(*, forward: bool, moves_focus: bool, selects_lines: bool) -> TabKey:
    """What Tab (`forward`) or Shift+Tab does: `moves_focus` where Tab leaves the text
    (see the module docstring); `selects_lines`: the selection reaches over a line break."""
    if moves_focus:
        return TabKey.MOVE_FOCUS
    if not forward or selects_lines:
        return TabKey.SHIFT_LINES
    return TabKey.TYPE


def indent_width(line: str) -> int:
    """How much one outdent takes from the start of `line`: a tab, or up to four spaces."""
    if line.startswith("\t"):
        return 1
    return min(len(line) - len(line.lstrip(" ")), INDENT_SPACES)


def frontmatter_head(lines: Iterable[str]) -> int | None:
    """How many of `lines` (read lazily, up to the closing fence or FRONTMATTER_SCAN_LINES) the
    frontmatter takes, fences included, or None (`components.editor.frontmatter`'s rule)."""
    head: list[str] = []
    for line in lines:
        head.append(line)
        if len(head) == 1:
            if line.rstrip("\r") != "---":
                return None
        elif line.rstrip("\r") in ("---", "...") or len(head) >= FRONTMATTER_SCAN_LINES:
            break
    if not head:
        return None
    return frontmatter_lines(buffer_from_raw("\n".join(head) + "\n"))
