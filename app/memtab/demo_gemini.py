"""The demo's Gemini CLI home, `other-agents/gemini/` (docs/formats.md §17.7): its seed, with what
names absolute paths written where the demo home is."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from memtab.fs.atomic import atomic_write_text
from memtab.resources import resource_path
from memtab.sources.gemini.source import PROJECT_ROOT_FILE, PROJECTS_NAME, memory_dir_of, slugify

MINUTE = 60_000
DAY = 24 * 60 * MINUTE
SEED = "gemini"


def write_gemini_demo(gemini_dir: Path, project: Path, now: int) -> None:
    """Write the demo's Gemini CLI home into `gemini_dir`, as having run in `project`."""
    seed = resource_path("demo", "other-agents", SEED)
    project_id = slugify(project.name)
    memory = memory_dir_of(gemini_dir, project_id)
    global_file = gemini_dir / "GEMINI.md"
    for name in ("GEMINI.md", "settings.json"):
        _write(gemini_dir / name, (seed / name).read_text(encoding="utf-8"), now - 20 * DAY)
    files = sorted(p for p in (seed / "memory").rglob("*") if p.is_file())
    for index, file in enumerate(files):
        text = file.read_text(encoding="utf-8")
        text = text.replace("{memory}", str(memory)).replace("{global}", str(global_file))
        _write(
            memory / file.relative_to(seed / "memory"), text, now - 9 * DAY + index * 97 * MINUTE
        )
    # Gemini CLI's own JSON (`JSON.stringify(data, null, 2)`, no final newline).
    registry = {"projects": {str(project): project_id}}
    _write(gemini_dir / PROJECTS_NAME, json.dumps(registry, indent=2), now - 20 * DAY)
    trusted = {str(project): "TRUST_FOLDER"}
    _write(gemini_dir / "trustedFolders.json", json.dumps(trusted, indent=2), now - 20 * DAY)
    for base in ("tmp", "history"):
        _write(gemini_dir / base / project_id / PROJECT_ROOT_FILE, str(project), now - 20 * DAY)
    state = {
        "runs": [
            {
                "runAt": _iso(now - 2 * DAY),
                "sessionIds": ["d3c1a8e0-5b7f-4c2e-9a14-6f0e2b7d9c41"],
                "skillsCreated": ["refresh-token-tests"],
                "memoryCandidatesCreated": [
                    ".inbox/global/extraction.patch",
                    ".inbox/private/extraction.patch",
                ],
                "memoryFilesUpdated": [],
            }
        ]
    }
    _write(memory / ".extraction-state.json", json.dumps(state, indent=2), now - 2 * DAY)


def _write(path: Path, text: str, modified_ms: int) -> None:
    atomic_write_text(path, text)
    os.utime(path, (modified_ms / 1000, modified_ms / 1000))


def _iso(ms: int) -> str:
    """JavaScript's `toISOString()` of a time in ms."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
