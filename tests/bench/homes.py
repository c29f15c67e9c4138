"""The memory homes the benchmarks run on, built the same way for every bench.

- `HOME_3K`: three scopes of 1000 files (the size of issue 4's targets).
- `HOME_20K`: 20,000 files, all of them shown by the Memory tab — 4000 global, 6000
  project, 6000 workspace and two orphaned project dirs of 2000. The worst case for the
  window and for every headless command that reads a whole workspace: over mux's
  1000-file cap per scope, as files written outside the memory tool can be.

Files sit two directories deep (`area00/topic0/note0000.md`: 25 top-level folders of 4),
each with frontmatter (a description and tags) and ~2 KB of text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace

PROJECT = "/src/bench"
WORKSPACE = "b1b2b3b4b5"


@dataclass(frozen=True)
class HomeShape:
    """How many files each shown scope and each orphaned project dir holds."""

    global_files: int
    project_files: int
    workspace_files: int
    orphan_files: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return (
            self.global_files + self.project_files + self.workspace_files + sum(self.orphan_files)
        )


HOME_3K = HomeShape(1000, 1000, 1000)
HOME_20K = HomeShape(4000, 6000, 6000, (2000, 2000))


def note(index: int, description: str = "") -> str:
    """A memory file's text: frontmatter with a description and tags, ~2 KB of body.

    Like real stores, nearly every description is plain text (the fast path reads it);
    one file in 20 folds it over lines, which takes the YAML parser.
    """
    body = "A line of remembered detail about the project and its tooling.\n" * 30
    if description:
        header = f"description: {description}"
    elif index % 20 == 19:
        header = f"description: >\n  Note {index} about the build,\n  folded over two lines"
    else:
        header = f"description: Build, test and deploy facts, note {index}"
    return f"---\n{header}\ntags: [bench, area{index % 25}]\n---\n\n# Note {index}\n\n{body}"


def relative(index: int) -> tuple[str, ...]:
    """Where file `index` lives in its scope."""
    return (f"area{index % 25:02d}", f"topic{index % 4}", f"note{index:04d}.md")


def scope_roots(home: Home) -> list[Path]:
    """The global, project and workspace roots the window shows for `WORKSPACE`."""
    return [home.global_root, home.project_root(PROJECT), home.workspace_root(WORKSPACE)]


def _fill(root: Path, count: int) -> None:
    made: set[Path] = set()
    for index in range(count):
        target = root.joinpath(*relative(index))
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_text(note(index), encoding="utf-8")


def build_home(root: Path, shape: HomeShape) -> Home:
    """A home at `root` with `WORKSPACE` (of `PROJECT`) registered, filled to `shape`."""
    home = Home(root)
    add_workspace(home, PROJECT, "bench", workspace_id=WORKSPACE)
    counts = (shape.global_files, shape.project_files, shape.workspace_files)
    for scope_root, count in zip(scope_roots(home), counts, strict=True):
        _fill(scope_root, count)
    for number, count in enumerate(shape.orphan_files):
        _fill(home.projects_root / f"removed-project-{number:02d}-0a1b2c3d", count)
    return home
