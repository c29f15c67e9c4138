"""The window's features are given to each other, never set on the window or the tab.

`gui/window/features.py` builds every feature of the window; a feature that needs another
gets it from the composition by a typed key (`components.window.phases.FeatureKey`,
`MainWindow.part`), or is handed it as an argument (the Memory tab's controller, its parts).
So no module sets an attribute of the window or of the Memory tab from outside: a part
declared on them and set later by a builder is how the tab used to be its own run-time hub
(25 such attributes). The check reads every GUI module's assignments (ast): a target
`window.x`, `tab.x`, `frame.x` or `memory_tab.x` (`self.` in the two classes themselves
is theirs to set). `tab` names the Memory tab only in modules that speak of it (the
editor's file tabs are `tab` too).
"""

from __future__ import annotations

import ast
from pathlib import Path

import memtab
from support.syntax_trees import walk

APP = Path(memtab.__file__).parent
HOLDERS = {"window", "main_window", "_window", "memory_tab", "_memory_tab", "frame", "_frame"}
TABS = {"tab", "_tab"}


def _assigned_attributes(source: str) -> list[tuple[int, str]]:
    """The lines and targets of `source` that set an attribute of the window or the tab."""
    holders = HOLDERS | (TABS if "memory_tab" in source or "MemoryTab" in source else set())

    def held(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in holders
        return isinstance(node, ast.Attribute) and node.attr in holders

    found = []
    for node in walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for sub in walk(target):
                stored = isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store)
                if stored and held(sub.value):
                    found.append((node.lineno, ast.unparse(sub)))
    return found


def test_no_module_sets_an_attribute_of_the_window_or_the_memory_tab() -> None:
    found = {
        str(path.relative_to(APP)): hits
        for path in sorted((APP / "gui").rglob("*.py"))
        if (hits := _assigned_attributes(path.read_text(encoding="utf-8")))
    }
    assert found == {}, (
        f"set on the window or the Memory tab from outside: {found} — build the part as a "
        "feature of gui/window/features.py (a FeatureKey) and hand it to what needs it"
    )


def test_the_check_sees_a_part_set_on_the_window_or_the_tab() -> None:
    source = (
        "def build(window, memory_tab):\n"
        "    window.history = History()\n"  # 2
        "    tab = window.memory_tab\n"
        "    tab.editor = Editor()\n"  # 4
        "    window.memory_tab.footer: Footer = Footer()\n"  # 5
        "    self._window.count += 1\n"  # 6
        "    self.editor = Editor()\n"
        "    tab.model.pin_note = 'note'\n"
    )
    assert [line for line, _ in _assigned_attributes(source)] == [2, 4, 5, 6]
    assert _assigned_attributes("tab.kept = True\n") == []  # an editor's tab, not the Memory tab
