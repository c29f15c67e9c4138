"""The window's features follow the disk through the window context, not the watcher.

The watcher's batches are classified once and published on the context
(`WindowContext.changes`); a feature subscribes to `context.changes.published`. Only the
window feeds the context from the watcher, so a new feature that connects to
`HomeWatcher.paths_changed` itself (and classifies every path again) fails here. Nor is a
feature wired to another object's private slot: it connects to what that object offers.
Nor does a subscriber test the batch's paths itself: it reads their places, which
`Home.classify` gave once (Memtab's own files, the Inbox's, a workspace's transcript…).
Nor is a call put off with `QTimer.singleShot(ms, owner, callback)`: PySide keeps that
callback alive for good when the owner goes first; `toolkit.clock.call_soon` does not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memtab
from support.syntax_trees import walk

APP = Path(memtab.__file__).parent
FEEDS_THE_CONTEXT = {"gui/first_paint/main_window.py"}


def _connections_to_paths_changed(path: Path) -> list[int]:
    """The lines of `path` that connect a slot to a `paths_changed` signal."""
    source = path.read_text(encoding="utf-8")
    if "paths_changed" not in source:  # parsing every module took ~2 s; 3 name it
        return []
    lines = []
    for node in walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        signal = node.func.value
        if (
            node.func.attr == "connect"
            and isinstance(signal, ast.Attribute)
            and signal.attr == "paths_changed"
        ):
            lines.append(node.lineno)
    return lines


def test_only_the_window_connects_to_the_watchers_batches() -> None:
    found = {
        str(path.relative_to(APP)): lines
        for path in APP.rglob("*.py")
        if (lines := _connections_to_paths_changed(path))
    }
    assert set(found) == FEEDS_THE_CONTEXT and all(len(lines) == 1 for lines in found.values()), (
        f"connected to HomeWatcher.paths_changed: {found} — subscribe to the window "
        "context's classified batches instead (`context.changes.published`, a ChangeBatch)"
    )


# The runner hands jobs to its own worker object (one class's two halves, one per thread).
OWN_HALVES = {"gui/tasks/runner.py"}


def _connections_to_private_slots(source: str) -> list[int]:
    """The lines that connect a signal to a private method of another object than `self`
    (`x.signal.connect(window._on_something)`)."""
    if ".connect(" not in source:
        return []
    lines = []
    for node in walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "connect"
            and node.args
        ):
            continue
        slot = node.args[0]
        if (
            isinstance(slot, ast.Attribute)
            and slot.attr.startswith("_")
            and not slot.attr.startswith("__")
            and not (isinstance(slot.value, ast.Name) and slot.value.id == "self")
        ):
            lines.append(node.lineno)
    return lines


def test_no_feature_is_wired_to_another_objects_private_slot() -> None:
    found = {
        name: lines
        for path in APP.rglob("*.py")
        if (name := str(path.relative_to(APP))) not in OWN_HALVES
        and (lines := _connections_to_private_slots(path.read_text(encoding="utf-8")))
    }
    assert found == {}, (
        f"connected to another object's private slot: {found} — connect to a public method "
        "or signal it offers, or subscribe on the window context"
    )


def test_the_check_sees_a_private_slot_of_another_object() -> None:
    source = (
        "a.clicked.connect(self._on_clicked)\n"
        "a.news.connect(window._on_news)\n"
        "a.done.connect(self.tab._on_done)\n"
        "a.done.connect(window.open_news)\n"
    )
    assert _connections_to_private_slots(source) == [2, 3]


# What a subscriber reads of a batch: the places `Home.classify` gave its paths.
BATCH_READS = {"places", "kinds", "everything", "affects", "keys"}
# The Memory tab hands the paths a batch concerns to its scans: the files to read again
# (and other agents' files, which are outside the home's layout, by path).
READ_PATHS = {"gui/first_paint/memory_tab.py"}


def _names_change_batch(annotation: ast.expr | None) -> bool:
    if isinstance(annotation, ast.Name):
        return annotation.id == "ChangeBatch"
    return isinstance(annotation, ast.Constant) and annotation.value == "ChangeBatch"


def _batch_subscribers(source: str, checked: frozenset[str] = frozenset()) -> dict[str, list[int]]:
    """Each function with a `ChangeBatch` parameter, and the lines where it reads more of
    the batch than its places (its paths, an item, the batch passed on whole).

    Handing the batch whole to a function named in `checked` (one with a `ChangeBatch`
    parameter of its own, which this check reads too: a Qt-free presenter deciding for
    the widget) is not reading it."""
    if "ChangeBatch" not in source:
        return {}
    found: dict[str, list[int]] = {}
    for node in walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        batches = {
            arg.arg
            for arg in node.args.args + node.args.kwonlyargs
            if _names_change_batch(arg.annotation)
        }
        if not batches:
            continue
        allowed: set[int] = set()
        for inner in walk(node):
            if (
                isinstance(inner, ast.Attribute)
                and isinstance(inner.value, ast.Name)
                and inner.value.id in batches
                and inner.attr in BATCH_READS
            ):
                allowed.add(id(inner.value))
            if isinstance(inner, ast.Call) and _called_name(inner) in checked:
                arguments = [*inner.args, *(keyword.value for keyword in inner.keywords)]
                allowed.update(id(argument) for argument in arguments)
        found[node.name] = [
            inner.lineno
            for inner in walk(node)
            if isinstance(inner, ast.Name)
            and inner.id in batches
            and isinstance(inner.ctx, ast.Load)
            and id(inner) not in allowed
        ]
    return found


def test_subscribers_read_the_batchs_places_not_its_paths() -> None:
    subscribers: dict[str, list[str]] = {}
    reading_paths: dict[str, dict[str, list[int]]] = {}
    sources = {
        str(path.relative_to(APP)): path.read_text(encoding="utf-8") for path in APP.rglob("*.py")
    }
    checked = frozenset(name for source in sources.values() for name in _batch_subscribers(source))
    for name, source in sources.items():
        found = _batch_subscribers(source, checked)
        if found:
            subscribers[name] = sorted(found)
        if name not in READ_PATHS and (paths := {f: ls for f, ls in found.items() if ls}):
            reading_paths[name] = paths
    assert len(subscribers) >= 8, subscribers  # the tab, history, check, Inbox, sync…
    assert reading_paths == {}, (
        f"a subscriber reads the batch's paths: {reading_paths} — ask the places "
        "`Home.classify` gave them (`batch.places`, `kinds`, `affects`, `keys`, "
        "`everything`); a place it needs that classify lacks is a new PathKind"
    )


def test_the_check_sees_a_subscriber_that_reads_paths() -> None:
    source = (
        "def a(self, batch: ChangeBatch) -> None:\n"
        "    if batch.affects(PathKind.SYNC) or PathKind.CONFIG in batch.kinds:\n"
        "        return\n"
        "    for path in batch.paths:\n"
        "        print(path)\n"
        "def b(self, changes: 'ChangeBatch') -> None:\n"
        "    self.rescan(changes)\n"
        "    for path, place in changes.items():\n"
        "        pass\n"
        "def c(self, paths: list[str]) -> None:\n"
        "    print(paths)\n"
    )
    assert _batch_subscribers(source) == {"a": [4], "b": [7, 8]}
    handing_on = (
        "def d(self, batch: ChangeBatch) -> None:\n"
        "    wants = batch_wants(batch, configured=True)\n"
        "    self.rescan(batch)\n"
    )
    assert _batch_subscribers(handing_on, frozenset({"batch_wants"})) == {"d": [3]}


def _called_name(call: ast.Call) -> str | None:
    """The name a call calls: `f(...)` → f, `self.g(...)` → g."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _single_shots_with_an_owner(source: str) -> list[int]:
    """The lines that call `QTimer.singleShot` with an owner (three arguments)."""
    if "singleShot" not in source:
        return []
    return [
        node.lineno
        for node in walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "singleShot"
        and len(node.args) == 3
    ]


def test_no_call_is_put_off_with_an_owner_qt_does_not_let_go_of() -> None:
    found = {
        str(path.relative_to(APP)): lines
        for path in APP.rglob("*.py")
        if (lines := _single_shots_with_an_owner(path.read_text(encoding="utf-8")))
    }
    assert found == {}, (
        f"QTimer.singleShot(ms, owner, callback) at {found}: its callback (and all it "
        "reaches) stays alive when the owner is deleted first — use "
        "`toolkit.clock.call_soon(owner, callback, ms)`"
    )


def test_the_check_sees_a_single_shot_with_an_owner() -> None:
    source = (
        "QTimer.singleShot(0, self.place)\n"
        "QTimer.singleShot(0, self, self.place)\n"
        "call_soon(self, self.place)\n"
    )
    assert _single_shots_with_an_owner(source) == [2]
