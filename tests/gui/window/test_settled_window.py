"""What a window settled on a home has loaded: never pydantic (docs/ARCHITECTURE.md,
"Records": about 0.1 s and 11 MB), which only a record read or written brings in.

Settled: the tab loaded, the consolidation engine preloaded, the first recording of what
changed outside Memtab done (it reads the history indexes and the runs log's catch-up).
The background check (issue 22: the Check panel, the marks) reads its findings as records
on its worker once the tab has loaded, so it brings pydantic in: it is left off here
(`start_check=False`), and this test keeps everything else from loading it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memtab.store.home import Home
from memtab.store.registry import add_workspace


def test_a_settled_window_has_not_imported_pydantic(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, str(tmp_path / "project"), "main")
    for number in range(20):
        note = home.root / "memory" / f"note{number}.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text(f"---\ndescription: note {number}\n---\n# Note {number}\n")
    probe = f"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QEventLoop
from memtab.gui.ui_state import UiState
from memtab.gui.window.app import application, create_main_window
from memtab.store.home import Home

app = application()
window = create_main_window(Home(Path({str(home.root)!r})), None,
                            ui_state=UiState(Path({str(tmp_path / "ui.json")!r})),
                            start_check=False)
consolidation = window.memory_tab.consolidation  # preloaded once the tab has loaded
synced = []
window.show()
def busy():  # recording what changed outside Memtab, once the tab has loaded
    return window.history is not None and window.history.busy
while not (synced and not busy() and consolidation.loaded):
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    if busy():
        synced.append(True)
window.close_without_asking()
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] == "pydantic")))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
