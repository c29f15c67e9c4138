"""What a window settled on a home has loaded: never pydantic (about 0.1 s and 20 MB),
which only the memory tool's arguments and the settings' models bring in; nor
the writer's engine (the model loop, the offline writer and its rules), which its first
run brings in — the writer of this home has had nothing to do; nor the consolidation
engine, which loads once the pointer or the focus reaches Consolidate now; nor the search
index's reader and sqlite3 (~1 MiB resident), which the search field's first focus loads;
nor the dialogs of What each agent loads…, Resolve conflicts… and Settings, loaded when first
opened; nor, with no file open, any text of the editor (its empty page is built when first
asked for);
nor the standard library's modules only a rare path needs (~0.5 MiB resident): `datetime`
(a transcript's or the registry's time), `tomllib` (a TOML manifest or Codex's config) and
`secrets` (with `hmac`; ids are `os.urandom(n).hex()`).

Settled: the tab loaded, the first recording of what
changed outside Memtab done (it reads the history indexes and the runs log's catch-up of
mux's journal — logged by an earlier start, as on a home mux consolidates), and the first
background check made — its findings are records (`fs/records/__init__.py`, Memtab's own codec)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.unit.check.helpers import home_with_project, make_checkout

from memtab.fs.atomic import atomic_write_json
from memtab.store.catch_up.runs_log import catch_up_runs


@pytest.mark.slow
def test_a_settled_window_has_not_imported_pydantic(tmp_path: Path) -> None:
    project = make_checkout(tmp_path / "project", {"src/app.py": ""})
    notes = {f"note{number}.md": f"---\ndescription: note {number}\n---\n# Note {number}\n"
             for number in range(20)}  # fmt: skip
    notes["setup.md"] = "# Setup\n- Settings live in `src/settings_local.py`\n"
    home, workspace = home_with_project(tmp_path, project, notes)
    yesterday = int(time.time() * 1000) - 24 * 60 * 60 * 1000  # younger than history keeps
    op = {"command": "delete", "path": "/memories/project/x.md", "applied": True}
    mux_run = {"lastRunAt": yesterday, "trigger": "compaction", "summary": "merged", "ops": [op]}
    atomic_write_json(
        home.journal_path, {"workspaces": {workspace: mux_run}, "projects": {str(project): mux_run}}
    )
    assert [run.summary for run in catch_up_runs(home)] == ["merged"]  # an earlier start
    probe = f"""
import json, sys
WRITER_ENGINE = ("memtab.writer.job.run", "memtab.writer.job.offline_provider",
                 "memtab.writer.offline.extract", "memtab.llm.loop")
CONSOLIDATION_ENGINE = ("memtab.consolidation.service", "memtab.consolidation.job")
SEARCH_INDEX = ("memtab.components.search.indexed", "memtab.search_index.index", "sqlite3")
DIALOGS = ("memtab.gui.loads.dialog", "memtab.gui.sync.conflicts_dialog",
           "memtab.gui.settings.dialog")
RARE_PATHS = ("datetime", "tomllib", "secrets", "hmac")
from pathlib import Path
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QPlainTextEdit
from memtab.components.window.ui_state import UiState
from memtab.gui.first_paint.app import application, create_main_window
from memtab.store.home import Home

app = application()
window = create_main_window(Home(Path({str(home.root)!r})), None,
                            ui_state=UiState(Path({str(tmp_path / "ui.json")!r})))
synced = []
window.show()
def built(name):  # by its name: the probe imports nothing of the settled window itself
    return window.features.part(name) if window.features is not None else None
def busy():  # recording what changed outside Memtab, once the tab has loaded
    return built("history") is not None and built("history").busy
def checked():  # the check is built, and checks, once the tab has loaded
    check = built("check")
    return check is not None and check.report is not None and not check.busy
while not (synced and not busy() and checked()):
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    if busy():
        synced.append(True)
findings = [(f.kind, f.subject) for f in built("check").report.findings]
editor_texts = len(built("editor").findChildren(QPlainTextEdit))
window.close_without_asking()
print(json.dumps({{"findings": findings,
                  "pydantic": sorted(name for name in sys.modules
                                     if name.split(".")[0] in ("pydantic", "pydantic_core")),
                  "writer engine": sorted(name for name in WRITER_ENGINE if name in sys.modules),
                  "consolidation engine": sorted(name for name in CONSOLIDATION_ENGINE
                                                 if name in sys.modules),
                  "search index": sorted(name for name in SEARCH_INDEX if name in sys.modules),
                  "dialogs": sorted(name for name in DIALOGS if name in sys.modules),
                  "rare paths": sorted(name for name in RARE_PATHS if name in sys.modules),
                  "editor texts": editor_texts}}))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    settled = json.loads(result.stdout.strip().splitlines()[-1])
    assert settled == {
        "findings": [["missing-path", "src/settings_local.py"]],
        "pydantic": [],
        "writer engine": [],
        "consolidation engine": [],
        "search index": [],
        "dialogs": [],
        "rare paths": [],
        "editor texts": 0,
    }
