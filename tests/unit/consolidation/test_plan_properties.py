"""No accepted part of a plan loses a line (issue 19): on the demo and on real stores.

For every subset of the units of the offline consolidator's plan, applying that subset
leaves every content line that was in the workspace's three scopes before somewhere in
them after (a line compared modulo whitespace runs and its bullet marker, as the
consolidator compares lines; blank lines, headings and frontmatter are not content: a
merged note's title gives way to its keeper's). And because
units are only what the review shows, the apply itself must hold the line too: for any
subset of the plan's ops — units cut apart, as in a plan file edited by hand — no delete
applies whose lines the plan keeps in a file that did not get them.

The real stores are each installed as the mux scope their agent's memory corresponds to
(`quality.stores`), as they are, and with the content a user's memory grows: the store
copied into a narrower scope as well (cross-scope repeats), and a variant of each note
beside it (a line dropped, a line added: near-duplicates to merge).
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.consolidation.engine.run_books import RunStore
from memtab.consolidation.review.plan_apply import apply_ops
from memtab.consolidation.review.plan_check import check_ops
from memtab.consolidation.service import ConsolidationService
from memtab.demo import MAIN_ID
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER, Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from quality.stores import REAL_STORES, RealStore, install
from support.demo_homes import copied_demo_home
from support.property_examples import examples

from .helpers import WS, new_home, store_for

OFFLINE = ProviderSettings("offline", "offline", "")
NARROWER = {Scope.GLOBAL: Scope.PROJECT, Scope.PROJECT: Scope.WORKSPACE}
_FRONTMATTER = re.compile(r"\A---\r?\n.*?\r?\n---\r?\n", re.DOTALL)
_MARKER = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


def lines_of(text: str) -> set[str]:
    """A file's content lines (written here apart from the code under test)."""
    body = _FRONTMATTER.sub("", text, count=1)
    found = set()
    for line in body.splitlines():
        words = " ".join(line.split())
        if words and not _HEADING.match(line):
            found.add(_MARKER.sub("- ", words, count=1))
    return found


def scope_lines(store: MemoryStore) -> set[str]:
    """Every content line of every file of the store's three scopes."""
    found: set[str] = set()
    for scope in SCOPE_ORDER:
        if store.unavailable_reason(scope):
            continue
        root = store.root(scope)
        for path in root.rglob("*") if root.exists() else ():
            if path.is_file() and not path.name.startswith("."):
                found |= lines_of(path.read_bytes().decode("utf-8", "replace"))
    return found


def add_variants(store: MemoryStore, scope: Scope) -> None:
    """Beside each Markdown note of the scope, a variant: its second item dropped and a
    line of the user's own added (what a second session writes down again)."""
    root = store.root(scope)
    for path in sorted(root.rglob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        items = [i for i, line in enumerate(lines) if line.startswith("- ")]
        if len(items) < 3:
            continue
        del lines[items[1]]
        lines.append(f"- Noted again for {path.stem}: check this before the next release.")
        path.with_name(f"{path.stem}-again.md").write_text("\n".join(lines), encoding="utf-8")


def real_home(root: Path, real: RealStore, grown: bool) -> Home:
    home = new_home(root)
    store = store_for(home, WS)
    install(store, real)
    if grown:
        add_variants(store, real.scope)
        if real.scope in NARROWER:
            install(store, real, scope=NARROWER[real.scope])
    return home


HOMES: dict[str, tuple[Callable[[Path], Home], str]] = {
    "demo": (lambda root: copied_demo_home(root), MAIN_ID),
    **{
        f"{real.folder}{'-grown' if grown else ''}": (
            lambda root, real=real, grown=grown: real_home(root, real, grown),  # type: ignore[misc]
            WS,
        )
        for real in REAL_STORES
        for grown in (False, True)
    },
}


def subsets(items: list[tuple[int, ...]]) -> Iterator[list[tuple[int, ...]]]:
    for size in range(len(items) + 1):
        yield from (list(chosen) for chosen in itertools.combinations(items, size))


def workspace_store(home: Home, workspace_id: str) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(workspace_id))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOMES))
def test_no_subset_of_a_plans_units_loses_a_line(name: str, tmp_path: Path) -> None:
    make, workspace_id = HOMES[name]
    original = make(tmp_path / "original")
    service = ConsolidationService(original, settings=OFFLINE)
    plan = service.plan(workspace_id)
    before = scope_lines(workspace_store(original, workspace_id))
    if name.endswith("-grown") or name == "demo":
        assert any(len(unit.ops) > 1 for unit in plan.units), "a merge to take apart"
    units = [unit.indexes for unit in plan.units]
    for number, chosen in enumerate(subsets(units)):
        home = Home(tmp_path / f"apply-{number}")
        shutil.copytree(original.root, home.root)
        accepted = [index for unit in chosen for index in unit]
        moved = plan.replaced(home=str(home.root))
        record = ConsolidationService(home, settings=OFFLINE).apply_plan(moved, accepted)
        assert sum(op.applied for op in record.ops) == len(accepted), record.summary
        lost = before - scope_lines(workspace_store(home, workspace_id))
        assert not lost, f"{name}, units {chosen}: lost {sorted(lost)[:3]}"


@pytest.mark.slow
@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_subset_of_a_plans_ops_loses_a_line(data: st.DataObject, tmp_path: Path) -> None:
    merging = sorted(name for name in HOMES if name.endswith("-grown") or name == "demo")
    name = data.draw(st.sampled_from(merging))
    make, workspace_id = HOMES[name]
    with tempfile.TemporaryDirectory(dir=tmp_path) as root:
        home = make(Path(root) / "home")
        plan = ConsolidationService(home, settings=OFFLINE).plan(workspace_id)
        accepted = data.draw(st.sets(st.sampled_from([op.index for op in plan.proposed])))
        store = RunStore(home, load_registry(home).require_workspace(workspace_id))
        before = scope_lines(store)
        apply_ops(store, plan, accepted, check_ops(store, plan), budget=len(plan.ops))
        lost = before - scope_lines(store)
    assert not lost, f"{name}, ops {sorted(accepted)}: lost {sorted(lost)[:3]}"
