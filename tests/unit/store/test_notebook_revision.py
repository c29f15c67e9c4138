"""xum's clock of a workspace notebook, `sessions/<owner>/memory.revision` (coder/shux
`src/common/constants/memory.ts` `WORKSPACE_MEMORY_REVISION_FILE_NAME`,
`src/node/services/refinement/workspaceMemoryRevision.ts`; docs/formats.md §21.5): a
Memtab change of that notebook advances it as xum does, `max(now, previous + 1)`, under
the notebook's target lock; a home without it gets none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.history import xum_journal
from memtab.store.history.xum_journal import MAX_SAFE_INTEGER
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.store.xum_locks import target_lock_paths
from support.memory_paths import vpath

from .helpers import PROJECT, WORKSPACE_ID, FakeClock, write_config

CHILD = "c0c0c0c0c0"
AHEAD = 1_767_225_600_000
"""A clock value past the fake clock's now (another backend's clock ran ahead)."""


def _keeps_a_clock(home: Home, owner: str = WORKSPACE_ID, value: str = str(AHEAD)) -> Path:
    """The owner's session dir as xum's multi-backend build leaves it after a change."""
    path = home.workspace_dir(owner) / "memory.revision"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value)
    return path


def test_a_change_of_the_notebook_advances_its_clock(
    home: Home, store: MemoryStore, clock: FakeClock
) -> None:
    revision = _keeps_a_clock(home)
    store.create_file(vpath("/memories/global/prefs.md"), "tabs\n")
    store.create_file(vpath("/memories/project/build.md"), "make\n")
    assert revision.read_text() == str(AHEAD)  # another scope's change

    store.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")
    assert revision.read_text() == str(AHEAD + 1)  # ahead of now: previous + 1

    clock.now = AHEAD + 50_000
    store.edit_text(vpath("/memories/workspace/plan.md"), lambda text: text + "- step\n")
    advanced = int(revision.read_text())
    assert AHEAD + 50_000 < advanced <= clock.now  # now, once past it

    store.set_pinned(vpath("/memories/workspace/plan.md"), True)
    assert int(revision.read_text()) > advanced
    advanced = int(revision.read_text())
    store.delete(vpath("/memories/workspace/plan.md"))
    assert int(revision.read_text()) > advanced


def test_it_is_advanced_under_the_notebooks_target_lock(
    home: Home, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _keeps_a_clock(home)
    locks = target_lock_paths(home, [home.workspace_root(WORKSPACE_ID)])
    held: list[bool] = []
    advance = xum_journal.advance_revision

    def watched(*args: object, **kwargs: object) -> int | None:
        held.append(all(lock.exists() for lock in locks))
        return advance(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(xum_journal, "advance_revision", watched)
    store.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")
    assert held == [True]
    assert not any(lock.exists() for lock in locks)


def test_a_sub_agents_change_advances_its_owners_clock(home: Home, clock: FakeClock) -> None:
    workspaces = [
        {"id": WORKSPACE_ID, "name": "main", "path": "/w/main"},
        {"id": CHILD, "name": "task", "path": "/w/task", "parentWorkspaceId": WORKSPACE_ID},
    ]
    write_config(home, {"projects": [[PROJECT, {"workspaces": workspaces}]]})
    owner_clock = _keeps_a_clock(home)
    child_dir = home.workspace_dir(CHILD)
    child_dir.mkdir(parents=True)
    child = MemoryStore(home, load_registry(home).require_workspace(CHILD), clock=clock)

    child.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")

    assert owner_clock.read_text() == str(AHEAD + 1)
    assert list(child_dir.iterdir()) == []  # Memtab never makes a clock

    owner_clock.unlink()  # an owner that keeps none gets none
    child.create_file(vpath("/memories/workspace/steps.md"), "- one\n")
    assert not owner_clock.exists()


@pytest.mark.parametrize("content", ["12abc", "0", "-5", "1.5", "", "99999999999999999"])
@pytest.mark.expect_log(
    "memtab.store.history.xum_journal",
    "WARNING",
    r"^xum's notebook clock was not advanced: .* is not xum's clock",
)
def test_a_clock_that_cannot_be_trusted_is_left_as_it_is(
    home: Home, store: MemoryStore, content: str
) -> None:
    revision = _keeps_a_clock(home, value=content)
    store.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")
    assert revision.read_text() == content
    assert (
        store.read(vpath("/memories/workspace/plan.md")).content == "# Plan\n"
    )  # the change stands


@pytest.mark.expect_log(
    "memtab.store.history.xum_journal",
    "WARNING",
    r"^xum's notebook clock was not advanced: .* is exhausted",
)
def test_an_exhausted_clock_is_left_as_it_is(home: Home, store: MemoryStore) -> None:
    revision = _keeps_a_clock(home, value=f"{MAX_SAFE_INTEGER}\n")
    store.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")
    assert revision.read_text() == f"{MAX_SAFE_INTEGER}\n"


def test_xums_own_spelling_is_read(home: Home, store: MemoryStore) -> None:
    revision = _keeps_a_clock(home, value=f"  {AHEAD}\n")  # trimmed, as xum's reader
    store.create_file(vpath("/memories/workspace/plan.md"), "# Plan\n")
    assert revision.read_text() == str(AHEAD + 1)
