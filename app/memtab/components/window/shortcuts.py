"""Help → Keyboard shortcuts' words, without Qt: a row of the table (`ShortcutRow`), the
keys a widget handles itself rather than an action (the editor's Tab, the find bar's Enter,
the search box's Esc), the filter (`matches`: every word typed, in the row's name, keys or
section) and the table as HTML (`shortcuts_html`)."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.rich_text import escape_html


@dataclass(frozen=True)
class ShortcutRow:
    """One line of Help → Keyboard shortcuts."""

    id: str
    section: str
    """The menu that shows the action ("Edit"), else its feature ("Editor")."""
    name: str
    keys: str
    also: tuple[str, ...] = ()
    """The ids of other actions with the same keys, named in this row too."""


FIELD_KEYS = (
    ShortcutRow(
        "field.tab",
        "In the editor's text",
        "Indent (the selected lines) · outdent; in the frontmatter, or while Tab moves "
        "focus is on (Ctrl+M), move the focus",
        "Tab, Shift+Tab",
    ),
    ShortcutRow("field.escape", "In the editor's text", "Close the find bar", "Esc"),
    ShortcutRow(
        "find.enter", "In the find bar", "Next match · previous match", "Enter, Shift+Enter"
    ),
    ShortcutRow("find.replace", "In the find bar", "Replace the match (in Replace with)", "Enter"),
    ShortcutRow("find.escape", "In the find bar", "Close it, back to the text", "Esc"),
    ShortcutRow("search.escape", "In the search box", "Clear the search", "Esc"),
    ShortcutRow("search.down", "In the search box", "Go to the results", "↓, Enter"),
    ShortcutRow("tree.type", "In the tree", "Go to the row whose name starts so", "letters"),
    ShortcutRow("tree.open", "In the tree", "Open the file (or fold the folder)", "Enter"),
    ShortcutRow("inbox.enter", "In the Inbox", "Accept the selected proposals", "Enter"),
    ShortcutRow("window.dialogs", "In dialogs", "A button: its underlined letter", "Alt+letter"),
)
"""Keys a widget handles itself (not registered actions): listed after the actions."""

NOTES = (
    "Drag files and folders onto a folder or scope to move them, across scopes too. "
    "Edit → Undo and Redo take back a file operation, or typing when a text has the focus."
)


def matches(row: ShortcutRow, query: str) -> bool:
    """Whether every word of `query` is in the row's name, keys or section."""
    haystack = f"{row.section} {row.name} {row.keys}".casefold()
    return all(word in haystack for word in query.casefold().split())


def shortcuts_html(rows: list[ShortcutRow]) -> str:
    """The table of rows, grouped by section (a menu, a feature, a field)."""
    if not rows:
        return "<p>No shortcut matches.</p>"
    parts = ['<table cellspacing="0" cellpadding="3">']
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            parts.append(f'<tr><td colspan="2"><br><b>{escape_html(section)}</b></td></tr>')
        parts.append(
            f"<tr><td><code>{escape_html(row.keys)}</code>&nbsp;&nbsp;</td>"
            f"<td>{escape_html(row.name)}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)
