"""The keys of the editor's message bar: a conflict's choices from anywhere in the window,
and the way from the text to the bar and back.

A conflict — a save refused because the file changed, a change on disk under a draft, a
file in sync conflict — offers Compare, Keep mine, Keep theirs (and Keep both) on the
open file's bar. Each is an action of the window (`editor.compare`, `editor.keep_mine`,
`editor.keep_theirs`, `editor.keep_both`): Alt+C, Alt+M, Alt+T, Alt+B, the letters the
bar's buttons underline (`components.merge`), listed in Help → Keyboard
shortcuts. They are enabled only while the open file's bar offers them (`follow_bar`, asked
whenever a bar shows or clears and the current tab changes): their keys then work from
anywhere in the window and the palette lists them; with no conflict shown the letters
are the panels' (Trust's Com&bine into…, a panel's own letters). Each presses its
button (`components.editor.session.bar_choice` says which is which); Keep both, where
the bar has none (the editor's own conflict), opens Compare, whose three-way view keeps
both (Alt+B there).

F6 (`editor.go_to_bar`) puts the keyboard on the bar's default button (Enter picks it),
Tab going on through its buttons; F6 again, or Escape, puts it back in the text. File →
Resolve conflicts… opens the Compare of the first tab in such a conflict when sync has
none (`resolve_first`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from memtab.components import merge as choices
from memtab.components.editor.session import SHOW_DIFF, bar_choice
from memtab.components.merge import ConflictChoice
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.toolkit.keyboard_return import KeyboardReturn, holds_keyboard

BAR_KEY = "F6"
CONFLICT_KEYS = (
    ("editor.compare", choices.COMPARE, "Alt+C"),
    ("editor.keep_mine", choices.KEEP_MINE, "Alt+M"),
    ("editor.keep_theirs", choices.KEEP_THEIRS, "Alt+T"),
    ("editor.keep_both", choices.KEEP_BOTH, "Alt+B"),
)
"""Each conflict choice's action and key: the letter its label underlines."""
NO_CONFLICT = "The open file has no conflict: nothing to {what}"
NO_MESSAGE = "The editor's bar shows nothing now"
BOTH_IN_COMPARE = "Keep both is in the compare window: Alt+B there once both sides merged"


class BarView(Protocol):
    """The open file's view (`EditorView`): its text takes the keyboard back."""

    def take_keyboard(self) -> None: ...


class BarPrompts(Protocol):
    """The open file's prompts (`EditorPrompts`)."""

    @property
    def bar(self) -> MessageBar: ...


class BarTab(Protocol):
    """An open file's tab (`FileTab`)."""

    @property
    def key(self) -> str | None: ...

    @property
    def prompts(self) -> BarPrompts: ...

    @property
    def view(self) -> BarView: ...


TabT = TypeVar("TabT", bound=BarTab)


class BarEditor(Protocol[TabT]):
    """The editor (`EditorPanel`), as these keys need it."""

    @property
    def current_tab(self) -> TabT | None: ...

    @property
    def tabs(self) -> list[TabT]: ...

    def set_current_tab(self, tab: TabT) -> None: ...


class BarKeys(QObject):
    """The bar's keys of one editor (see the module docstring)."""

    def __init__(
        self,
        actions: ActionRegistry,
        widget: QWidget,
        editor: BarEditor[Any],
        say: Callable[[str], None],
    ) -> None:
        """Register the keys: the conflict's in the window, F6 in `widget` (the editor)."""
        super().__init__(widget)
        self._editor = editor
        self._say = say
        self._choices: list[tuple[QAction, ConflictChoice]] = []
        for action_id, choice, key in CONFLICT_KEYS:
            action = actions.add(
                action_id,
                f"Conflict: {choice.button}",
                functools.partial(self.choose, choice),
                keys=[key],
                tip=choice.tip,
            )
            self._choices.append((action, choice))
        self.follow_bar()
        actions.add(
            "editor.go_to_bar",
            "Go to the editor's message bar",
            self.go_to_bar,
            keys=[BAR_KEY],
            focus=Focus.WITHIN,
            on=widget,
            tip="Put the keyboard on the open file's bar (a conflict's choices); again, or "
            "Escape, puts it back in the text",
        )

    def _bar(self) -> MessageBar | None:
        """The open file's bar, while it shows something."""
        tab = self._editor.current_tab
        bar = tab.prompts.bar if tab is not None else None
        return bar if bar is not None and not bar.isHidden() else None

    def _offered(self, choice: ConflictChoice) -> str | None:
        """The action id of the bar's button that is `choice`, if it offers one."""
        bar = self._bar()
        ids = bar.action_ids() if bar is not None else []
        found = next((i for i in ids if bar_choice(i) is choice), None)
        if found is None and choice is choices.KEEP_BOTH:  # kept in the compare window
            found = next((i for i in ids if bar_choice(i) is choices.COMPARE), None)
        return found

    def offers(self, choice: ConflictChoice) -> bool:
        """Whether the open file's bar offers `choice` now (the palette lists it then)."""
        return self._offered(choice) is not None

    def follow_bar(self) -> None:
        """Enable each choice's action while the open file's bar offers it, and only then:
        a key always on took its letter from every panel (a bar shown or cleared, the
        current tab changed: the editor asks)."""
        for action, choice in self._choices:
            action.setEnabled(self.offers(choice))

    def choose(self, choice: ConflictChoice) -> None:
        """Press the bar's button of `choice`, or say there is no conflict."""
        action_id = self._offered(choice)
        bar = self._bar()
        if action_id is None or bar is None:
            self._say(NO_CONFLICT.format(what=choice.button.lower()))
            return
        if choice is choices.KEEP_BOTH and bar_choice(action_id) is choices.COMPARE:
            self._say(BOTH_IN_COMPARE)
        bar.button(action_id).click()

    def go_to_bar(self) -> None:
        """F6: the keyboard on the bar's default (else first) button; from the bar, back."""
        tab = self._editor.current_tab
        bar = self._bar()
        if tab is None or bar is None:
            self._say(NO_MESSAGE)
            return
        way_back = bar.findChild(KeyboardReturn) or KeyboardReturn(bar)
        if holds_keyboard(bar):
            if not way_back.give_back():
                tab.view.take_keyboard()
            return
        ids = bar.action_ids()
        first = bar.default_action or (ids[0] if ids else None)
        way_back.take(bar.button(first) if first is not None else None)

    def resolve_first(self) -> str | None:
        """File → Resolve conflicts… with the editor's own conflict: the first tab whose
        draft conflicts with the disk shown, its Compare opened; its file's name (None:
        no tab has one)."""
        for tab in self._editor.tabs:
            bar = tab.prompts.bar
            if not bar.isHidden() and SHOW_DIFF in bar.action_ids():
                self._editor.set_current_tab(tab)
                bar.button(SHOW_DIFF).click()
                return tab.key
        return None
