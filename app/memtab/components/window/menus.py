"""The window's menus and own actions, without Qt: what each menu holds, in order; Help →
Keyboard shortcuts' rows, filter and HTML; Help → About's text, the writer's Pause title, and
what File → Open home and File → Add workspace… find in a folder and do with it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from memtab.components.jobs import JobContext
from memtab.components.rich_text import escape_html
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import add_workspace


@dataclass(frozen=True)
class ShortcutRow:
    """One line of Help → Keyboard shortcuts."""

    id: str
    section: str  # The menu that shows the action ("Edit"), else its feature ("Editor").
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


MENUS = (("file", "&File"), ("edit", "&Edit"), ("view", "&View"), ("help", "&Help"))
"""The menus, in menu-bar order: (id, title)."""

MENU_AT_MOST = 15  # Entries a menu shows at most (issue 84): the rest are the palette's and F1's.


def _menu(words: str) -> tuple[str | None, ...]:
    """A menu's action ids in order, from `words`; `|` is a separator."""
    return tuple(None if word == "|" else word for word in words.split())


MENU_LAYOUT: dict[str, tuple[str | None, ...]] = {
    "file": _menu(
        "window.quick_open | tree.new_file tree.new_folder files.codex_note editor.save "
        "editor.revert editor.autosave editor.close_tab | window.open_home "
        "window.add_workspace | sync.setup sync.now sync.conflicts | window.settings "
        "window.quit"
    ),
    "edit": _menu(
        "files.undo files.redo | window.find editor.replace editor.find_next "
        "editor.find_previous editor.go_to_line search.focus | tree.rename tree.delete "
        "tree.pin tree.copy_to | consolidation.run_now consolidation.run_scope "
        "writer.pause"
    ),
    "view": _menu(
        "window.command_palette | trust.room inbox.focus | window.view_source "
        "window.view_split window.view_preview blame.toggle blame.line | history.panel "
        "history.trash history.runs check.panel loads.show trust.panel | "
        "window.switch_workspace"
    ),
    "help": _menu("window.shortcuts window.about"),
}
"""What each menu holds, in order, by action id (`None`: a separator)."""

FEATURE_TITLES = {
    "editor": "Editor",
    "memory": "Window",
    "tree": "Tree",
    "files": "Tree",
    "search": "Search",
    "history": "History",
    "blame": "Editor",
    "window": "Window",
}
"""Where Help → Keyboard shortcuts lists an action no menu shows, by its id's feature."""


@dataclass(frozen=True)
class MenuAction:
    """A registered action as the menus and the shortcuts list see it."""

    id: str
    name: str  # What it is called, as registered ("Undo last change").
    menu: str | None
    keys: str = ""  # Its keys every keyboard has, as the platform writes them ("" when none).


def plan_menu(menu: str, actions: Sequence[MenuAction]) -> list[str | None]:
    """The ids `menu` shows, of `actions` (in the order registered): the layout's, then any
    other action registered for it; `None` is a separator, never two in a row nor at an end."""
    layout = MENU_LAYOUT.get(menu, ())
    registered = {action.id for action in actions}
    planned: list[str | None] = []
    for action_id in layout:
        if action_id is None:
            if planned and planned[-1] is not None:
                planned.append(None)
        elif action_id in registered:
            planned.append(action_id)
    extra = [action.id for action in actions if action.menu == menu and action.id not in layout]
    if extra and planned and planned[-1] is not None:
        planned.append(None)
    planned += extra
    while planned and planned[-1] is None:
        planned.pop()
    return planned


def shortcut_rows(actions: Sequence[MenuAction]) -> list[ShortcutRow]:
    """Every action with keys, each once, actions with the same keys in one row."""
    by_id = {action.id: action for action in actions}
    listed: set[str] = set()
    placed: list[tuple[MenuAction, str]] = []
    for menu, title in MENUS:
        section = title.replace("&", "")
        for action_id in plan_menu(menu, actions):
            if action_id is not None and action_id not in listed:
                listed.add(action_id)
                placed.append((by_id[action_id], section))
    for action in actions:
        if action.id not in listed:
            feature = action.id.split(".", 1)[0]
            placed.append((action, FEATURE_TITLES.get(feature, feature.title())))
    rows: dict[str, ShortcutRow] = {}  # by keys, in the order first placed
    for action, section in placed:
        first = rows.get(action.keys)
        if first is not None:
            name, also = f"{first.name} · {action.name}", (*first.also, action.id)
            rows[action.keys] = replace(first, name=name, also=also)
        elif action.keys:
            rows[action.keys] = ShortcutRow(action.id, section, action.name, action.keys)
    return list(rows.values())


def about_html(version: str, home: Path, log: Path | None) -> str:
    """Help → About: the version, the home and where the log is."""
    where = f"<code>{escape_html(str(log))}</code>" if log is not None else None
    log_line = f"Log: {where or 'not written (run with --verbose to log to the terminal)'}"
    return (
        f"<b>Memtab {version}</b><p>Browse, edit and consolidate the memories your "
        f"coding agents keep.</p><p>Home: <code>{escape_html(str(home))}</code></p>"
        f"<p>{log_line}</p>"
    )


def writer_pause_title(paused: bool) -> str:
    """Edit's entry for the memory writer: Resume once paused."""
    return "Resume the memory &writer" if paused else "Pause the memory &writer"


@dataclass(frozen=True)
class HomeFolder:
    """Whether Open home can open a folder, and what to say first (None: a memory home)."""

    path: Path
    can_open: bool
    note: str | None = None


def describe_home_folder(path: Path, _ctx: JobContext | None = None) -> HomeFolder:
    """Whether `path` can be opened as a home (a job: it looks at the disk); a folder without
    config.json, memory/ or sessions/ still opens, but the user should know."""
    if not path.is_dir():
        return HomeFolder(path, False, f"{path} is not a folder")
    home = Home(path)
    if any(p.exists() for p in (home.config_path, home.global_root.parent, home.sessions_dir)):
        return HomeFolder(path, True)
    return HomeFolder(
        path,
        True,
        f"{path} is not a memory home yet (no config.json, memory/ or sessions/). "
        "Memtab creates its files there when you add memories.",
    )


class OpenHomeStep(NamedTuple):
    """Open home's step: say why not (`refusal`), or open, after `question` if there is one."""

    refusal: str | None
    question: str | None


def open_home_step(found: HomeFolder) -> OpenHomeStep:
    """Open home's step for what it found: a folder that cannot be opened is refused with
    why; one that is not a memory home yet is asked about first."""
    if not found.can_open:
        return OpenHomeStep(found.note or f"Cannot open {found.path}", None)
    return OpenHomeStep(None, found.note)


ADD_LABEL = "&Add workspace"
ADD_ANYWAY = "Add anyway"
ADD_ANYWAY_LABEL = f"&{ADD_ANYWAY}"  # the button; the words name it without its mnemonic


def typed_project(text: str) -> str:
    """The project path as typed, `~` expanded and normalized ('' when blank)."""
    typed = os.path.expanduser(text.strip())
    return os.path.normpath(typed) if typed else ""


def folder_name(text: str) -> str:
    """The typed folder's own name: the workspace's name until the user types one."""
    return Path(text.strip().rstrip("/\\")).name if text.strip() else ""


def worth_checking(project: str) -> bool:
    """Whether a typed path is looked at on disk (an absolute one)."""
    return bool(project) and os.path.isabs(project)


@dataclass(frozen=True)
class Added:
    """A registered workspace's id, or why not (`missing`: no such folder here; confirmable)."""

    workspace_id: str | None = None
    error: str | None = None
    missing: bool = False


@dataclass(frozen=True)
class FolderCheck:
    """What is at a typed project path: `problem` None for a folder."""

    path: str
    problem: str | None
    missing: bool = False


def check_folder(path: str, _ctx: JobContext | None = None) -> FolderCheck:
    """Whether `path` is a folder on this machine (a job: it looks at the disk)."""
    if os.path.isdir(path):
        return FolderCheck(path, None)
    if os.path.lexists(path):
        return FolderCheck(path, f"{path} is not a folder.")
    return FolderCheck(path, f"{path} does not exist on this machine.", missing=True)


def register_workspace(
    home: Home, project: str, name: str, allow_missing: bool, _ctx: JobContext
) -> Added:
    """The job: add the project (if new) and the workspace to the home's config.json —
    a project folder that does not exist only with `allow_missing` (the user said so)."""
    found = check_folder(project)
    if found.problem is not None and not (found.missing and allow_missing):
        return Added(error=found.problem, missing=found.missing)
    try:
        return Added(workspace_id=add_workspace(home, project, name))
    except (HomeError, OSError, TimeoutError) as error:
        return Added(error=str(error) or type(error).__name__)


@dataclass(frozen=True)
class Register:
    """Adding may go ahead: register `name` in `project` (`allow_missing`: Add anyway)."""

    project: str
    name: str
    allow_missing: bool


@dataclass(frozen=True)
class Answer:
    """Close with `workspace_id`, or say `error` (the OK button reading `ok_label`)."""

    workspace_id: str | None
    error: str | None
    ok_label: str


class AddWorkspaceForm:
    """The dialog's state: what Add asks for, what each answer says."""

    def __init__(self) -> None:
        self.name_typed = False
        self._missing_confirmable: str | None = None  # a missing folder "Add anyway" adds

    @property
    def ok_label(self) -> str:
        """The OK button's text now."""
        return ADD_ANYWAY_LABEL if self._missing_confirmable is not None else ADD_LABEL

    def project_changed(self) -> None:
        """Another path typed: whatever was said (and confirmed) of the last one no longer holds."""
        self._missing_confirmable = None

    def add(self, project_text: str, name_text: str) -> Register | str:
        """Add pressed with these fields: the registration to run, or why not."""
        project = typed_project(project_text)
        name = name_text.strip() or Path(project).name
        if not project or not os.path.isabs(project):
            return "Choose the project folder (an absolute path)."
        if not name:
            return "Give the workspace a name."
        return Register(project, name, project == self._missing_confirmable)

    def answered(self, result: Added, project_text: str) -> Answer:
        """A registration's outcome, the project field now holding `project_text`."""
        if result.missing:
            self._missing_confirmable = typed_project(project_text)
            error = (
                f"{result.error} Choose an existing folder, or {ADD_ANYWAY} if mux runs "
                "this project on another machine that shares this home."
            )
            return Answer(None, error, self.ok_label)
        if result.workspace_id is None:
            error = result.error or "The workspace could not be added."
            return Answer(None, error, self.ok_label)
        return Answer(result.workspace_id, None, self.ok_label)

    @staticmethod
    def still_typed(found: FolderCheck, project_text: str) -> bool:
        """Whether a look at a typed folder is of what the field holds now (not typed
        over since): only then is its problem said."""
        return found.path == typed_project(project_text)
