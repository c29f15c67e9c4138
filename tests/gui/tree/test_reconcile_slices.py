"""SlicedReconcile on a clock the test moves: a new tree is reconciled in slices of
`RECONCILE_SLICE_MS`, the GUI painting between them — how many slices depends on the time
the steps take on that clock, never on how fast the machine running the test is."""

from __future__ import annotations

from contextlib import nullcontext

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from gui import memory_tree_support as support
from memtab.components.tree.reconcile_slices import RECONCILE_SLICE_MS
from memtab.components.tree.tree import build_tree
from memtab.gui.tree.model import MemoryTreeModel, SlicedReconcile, TreeFill
from memtab.store.home import Home
from support.gui_clock import FakeGuiClock
from support.memory_home import scanned

home = support.home


class SlowSteps(FakeGuiClock):
    """A clock on which every reading finds `step_ms` more passed: each step of a
    reconcile costs that much (`advance` still sets the time it is asked to)."""

    def __init__(self, step_ms: float) -> None:
        super().__init__()
        self.step_ms = step_ms

    def monotonic_ms(self) -> float:
        self.now_ms += self.step_ms
        return self.now_ms


def slices(clock: FakeGuiClock, home: Home) -> tuple[int, MemoryTreeModel]:
    """How many slices it takes to show the home's tree, and the model it is shown in."""
    owner = QObject()
    model = MemoryTreeModel()
    fill = TreeFill(model, lambda: None, lambda: False)
    reconcile = SlicedReconcile(model, fill, nullcontext, owner, clock=clock)
    done: list[bool] = []
    reconcile.reconciled.connect(lambda: done.append(True))
    reconcile.show(build_tree(scanned(home)), None)
    count = 1
    while not done:
        waiting = clock.next_deadline_ms()  # the next slice, after a paint
        assert reconcile.busy and waiting is not None
        clock.advance(max(waiting, 0))
        count += 1
    assert not reconcile.busy
    owner.deleteLater()
    return count, model


def test_a_tree_is_reconciled_in_slices_of_the_budget_on_the_clock(
    qapp: QApplication, home: Home
) -> None:
    whole, shown = slices(FakeGuiClock(), home)  # time stands still: one slice does it all
    assert whole == 1
    one_step_each, _ = slices(SlowSteps(RECONCILE_SLICE_MS), home)
    three_steps_each, model = slices(SlowSteps(RECONCILE_SLICE_MS / 3), home)
    assert one_step_each > 3
    assert three_steps_each == -(-one_step_each // 3)  # 3 steps a slice (the same steps)
    assert [node.key for node in model.nodes()] == [node.key for node in shown.nodes()]
