"""xum's atomic-write temp siblings are never memory (docs/formats.md §16).

xum 0.30 writes a file's new content to `<target>.<12 hex>` beside it, fsyncs it and renames
it over the target (`tempPathFor` in coder/xum `src/node/utils/writeFileAtomic.ts`:
`${filename}.${sha1(pid|threadId|n|random).hex.slice(0, 12)}`). A xum killed between the
two leaves `environment.md.1a2b3c4d5e6f` beside `environment.md`: the homes below are laid
out so. Such a file is never listed, recorded in history, badged, synced or consolidated;
`memtab doctor` names one older than a minute.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.engine.prompts import run_message
from memtab.diagnostics.watching import check_xum_temps
from memtab.fs.atomic import is_write_temp, is_xum_temp_name
from memtab.store.catch_up.external import record_external
from memtab.store.errors import MemoryStoreError
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.sync.repository.layout import GLOBAL_SCOPE
from memtab.sync.repository.scopes import read_scope
from memtab.watch_policy.paths import is_ignored
from support.memory_paths import vpath

from .helpers import WORKSPACE_ID

TEMP = "environment.md.1a2b3c4d5e6f"
"""What xum's `tempPathFor` leaves beside `environment.md`."""


def _xum_leaves_a_temp(root: Path, name: str = "environment.md", *, age_s: float = 0) -> Path:
    """`name` as xum wrote it, and the temp sibling a killed write left, `age_s` old."""
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_text("# Environment\n- python 3.11\n", encoding="utf-8")
    temp = root / f"{name}.1a2b3c4d5e6f"
    temp.write_text("# Environment\n- python 3.12\n", encoding="utf-8")
    if age_s:
        then = time.time() - age_s
        os.utime(temp, (then, then))
    return temp


@pytest.mark.parametrize(
    ("name", "temp"),
    [
        (TEMP, True),
        ("notes.abcdef012345", True),  # a target without an extension
        ("environment.md", False),
        ("environment.md.1A2B3C4D5E6F", False),  # xum's hex is lower case
        ("environment.md.1a2b3c4d5e6", False),  # 11 digits
        ("environment.md.1a2b3c4d5e6f7", False),  # 13 digits
        (".1a2b3c4d5e6f", True),  # a dotfile anyway
        ("1a2b3c4d5e6f", False),  # no target before it
        ("log.2026-01-02.md", False),
    ],
)
def test_the_pattern_of_xums_temp_siblings(name: str, temp: bool) -> None:
    assert is_xum_temp_name(name) is (temp and not name.startswith("."))
    assert is_write_temp(name) is (temp and not name.startswith("."))


def test_the_name_is_what_xums_temp_path_for_makes() -> None:
    suffix = hashlib.sha1(b"4242|0|1|0011223344556677").hexdigest()[:12]
    assert is_xum_temp_name(f"environment.md.{suffix}")
    assert is_write_temp(".environment.md.0a1b2c3d.tmp")  # Memtab's own


def test_memtab_list_never_shows_a_temp_sibling(
    home: Home, store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    _xum_leaves_a_temp(home.global_root)
    _xum_leaves_a_temp(home.workspace_root(WORKSPACE_ID), "plan.md")

    assert main(["--home", str(home.root), "list", "--workspace", WORKSPACE_ID, "--json"]) == 0
    captured = capsys.readouterr()
    listing = json.loads(captured.out)
    assert [row["path"] for row in listing["files"]] == [
        "/memories/global/environment.md",
        "/memories/workspace/plan.md",
    ]
    assert listing.get("unaddressable", []) == []
    assert "1a2b3c4d5e6f" not in captured.err
    assert [f.path.name for f in store.list_scope(Scope.GLOBAL).files] == ["environment.md"]
    assert store.entries(parse_virtual_path("/memories/global")) == [("environment.md", False)]


def test_the_tool_and_the_consolidator_never_see_one(store: MemoryStore) -> None:
    _xum_leaves_a_temp(store.home.global_root)

    view = MemoryTool(store).execute({"command": "view", "path": "/memories/global"})
    assert view.output == "Directory: /memories/global\n- environment.md"
    message = run_message(store, trigger="manual", budget=8, dry_run=False)
    assert "/memories/global/environment.md ·" in message
    assert "1a2b3c4d5e6f" not in message


def test_history_never_records_one(home: Home, store: MemoryStore) -> None:
    _xum_leaves_a_temp(home.global_root)

    record_external(store)

    paths = {v.path for v in ScopeHistory(home, store.history_key(Scope.GLOBAL)).versions()}
    assert paths == {"/memories/global/environment.md"}


def test_a_change_to_one_is_never_badged() -> None:
    assert is_ignored(os.path.join("memory", "global", TEMP))
    assert is_ignored(os.path.join("sessions", WORKSPACE_ID, "memory", "plan.md.0123456789ab"))
    assert not is_ignored(os.path.join("memory", "global", "environment.md"))


def test_sync_never_carries_one(home: Home) -> None:
    _xum_leaves_a_temp(home.global_root)
    store = MemoryStore(home, None)

    files = read_scope(store, GLOBAL_SCOPE, lambda data: hashlib.sha1(data).hexdigest())

    assert set(files.files) == {"global/environment.md"}
    assert GLOBAL_SCOPE.virtual_path(f"global/{TEMP}") is None
    assert GLOBAL_SCOPE.virtual_path("global/environment.md") is not None


def test_memtab_never_makes_a_file_named_like_one(store: MemoryStore) -> None:
    with pytest.raises(PathError, match="named like xum's temporary files"):
        store.create_file(vpath(f"/memories/global/{TEMP}"), "x\n")
    store.create_file(vpath("/memories/global/environment.md"), "x\n")
    with pytest.raises((PathError, MemoryStoreError), match="named like xum's temporary files"):
        store.move(vpath("/memories/global/environment.md"), vpath(f"/memories/global/{TEMP}"))


def test_doctor_names_a_temp_sibling_older_than_a_minute(home: Home, store: MemoryStore) -> None:
    old = _xum_leaves_a_temp(home.workspace_root(WORKSPACE_ID), "plan.md", age_s=120)
    _xum_leaves_a_temp(home.global_root)  # a write under way: not named

    [finding] = check_xum_temps(home).items
    assert finding.level.value == "warning"
    assert str(old) in finding.message
    assert TEMP not in finding.message
    assert "delete them once xum is not running" in finding.message
    assert old.exists()  # named, never removed by Memtab
