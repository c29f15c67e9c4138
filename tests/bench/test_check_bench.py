"""Benchmark: `memtab check` of 1,000 memory files against a repository of 10,000 files.

Run: .venv/bin/python -m pytest --bench tests/bench/test_check_bench.py -s

The repository: 10,000 files in 500 folders, a git repository with a Makefile and a
package.json. The memory: 1,000 files of project memory, each naming paths of the
checkout (most there, some moved, some gone), make targets and npm scripts (one
undefined), a program, links to other memory files and a port. Measured: a check in a
fresh engine (the checkout indexed, every file read and checked), the same engine's next
check (each file's findings kept until it changes), and the same engine's check after one
file changed (what the window does after an edit: every file read, the changed one checked)
— against the floor of reading the 1,000 files and listing the repository with git.
Reported, never asserted (target: well under 2 s for the fresh check).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.table import Row, record
from memtab.check.engine import CheckEngine
from memtab.check.programs import which_in
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.scope_store import ScopeStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.checkouts import add_to_git, stand_in_programs

pytestmark = pytest.mark.bench

REPO_FILES = 10_000
MEMORY_FILES = 1_000
ROUNDS = 5

MEMORY = """\
---
description: Notes on area {area}
---
# Area {area}

- The handler lives in `src/area{area}/handler{n}.py`; tests in `tests/area{area}/`.
- Shared helpers: src/area{other}/util{n}.py and `src/area{area}/legacy{n}.py`.
- Settings moved: `src/settings{n}.py` holds them.
- Run `make test` before pushing, `make lint` for style, `npm run build` for the bundle.
- `npm run storybook` shows the components; `docker compose up -d` starts the database.
- The API runs on port 8080.
- See [area {other}](note{other_note}.md) and [the index](index.md).

```bash
make db-up
pytest tests/area{area} -q
```
"""


def _repository(root: Path) -> None:
    for index in range(REPO_FILES):
        folder = root / "src" / f"area{index % 500}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{index}.py").write_bytes(b"")
    for area in range(500):
        (root / "src" / f"area{area}" / f"handler{area}.py").write_bytes(b"")
        (root / "tests" / f"area{area}").mkdir(parents=True, exist_ok=True)
    (root / "src" / "config").mkdir()
    (root / "src" / "config" / "settings7.py").write_bytes(b"")
    (root / "Makefile").write_text("test:\n\tpytest\nlint:\n\truff .\ndb-%:\n\ttrue\n")
    (root / "package.json").write_text('{"scripts": {"build": "vite build"}}')
    add_to_git(root)


def _home(root: Path, repo: Path) -> tuple[Home, str]:
    home = Home(root / "home")
    home.root.mkdir(parents=True)
    workspace = add_workspace(home, str(repo), "main", workspace_path=str(repo))
    memory = home.project_root(str(repo))
    memory.mkdir(parents=True)
    for n in range(MEMORY_FILES):
        area, other = n % 500, (n * 7) % 500
        text = MEMORY.format(area=area, other=other, n=n, other_note=(n + 1) % MEMORY_FILES)
        (memory / f"note{n}.md").write_text(text)
    (memory / "index.md").write_text("# Index\n")
    home.memtab_dir.mkdir(parents=True, exist_ok=True)
    (home.memtab_dir / "sources.json").write_text('{"isolated": true}')
    return home, workspace


def _best(action: Callable[[], object], rounds: int = ROUNDS) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def test_a_check_of_1000_files_against_a_repository_of_10000(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _repository(repo)
    home, workspace = _home(tmp_path, repo)
    path = stand_in_programs(tmp_path / "bin", ("make", "npm", "git", "pytest"))

    def fresh() -> CheckEngine:
        return CheckEngine(home, env={"PATH": path}, find_program=which_in(path), stale_days=90)

    report = fresh().check(workspace)
    kinds = {kind: sum(1 for f in report.findings if f.kind == kind) for kind in
             {f.kind for f in report.findings}}  # fmt: skip
    assert report.files_checked == MEMORY_FILES + 1
    assert kinds.get("missing-path", 0) >= MEMORY_FILES  # legacy{n}.py, settings{n}.py
    assert kinds.get("missing-script", 0) == MEMORY_FILES  # npm run storybook

    store = ScopeStore(home, load_registry(home).require_workspace(workspace))

    def floor() -> None:
        listing = store.list_scope(Scope.PROJECT, read_files=False)
        for _ in store.read_many([entry.path for entry in listing.files]):
            pass
        subprocess.run(
            [
                "git",
                "-C",
                str(repo),
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
            check=True,
            capture_output=True,
        )

    cold = _best(lambda: fresh().check(workspace))
    engine = fresh()
    engine.check(workspace)
    warm = _best(lambda: engine.check(workspace))
    changed = home.project_root(str(repo)) / "note7.md"

    def edit_and_recheck() -> None:
        changed.write_text(changed.read_text() + "- one more line\n")
        engine.check(workspace)

    one = _best(edit_and_recheck)
    floor_s = _best(floor)
    print(
        f"\n{report.files_checked} files, {len(report.findings)} findings {kinds} "
        f"(best of {ROUNDS}):\n"
        f"  fresh engine (index + read + check)  {cold * 1000:7.1f} ms\n"
        f"  same engine again (files unchanged)  {warm * 1000:7.1f} ms\n"
        f"  one file changed, re-checked         {one * 1000:7.1f} ms\n"
        f"  floor: read the files + git ls-files {floor_s * 1000:7.1f} ms"
    )
    record(
        "check",
        Row(
            "`memtab check`: 1,000 memory files vs a 10,000-file repository",
            f"{cold * 1000:.0f} ms (again {warm * 1000:.0f} ms, one file {one * 1000:.0f} ms)",
            "well under 2 s",
            f"{floor_s * 1000:.0f} ms (read + git ls-files)",
            cold / floor_s,
        ),
    )
