"""docs/ARCHITECTURE.md stays true: every module and folder it names exists, and every
section the code cites by title (`ARCHITECTURE "Start-up"`) is one of its headings."""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
MEMTAB = REPO / "app" / "memtab"
CITED_IN = ("app", "tests", "docs", "scripts", "README.md", "pyproject.toml", "Makefile")
SKIPPED = {"fixtures", "__pycache__"}

# `gui/tasks/runner.py`, `memtab/file_protocol/`, `tests/support/logfail.py`
PATH = re.compile(r"`((?:[\w.-]+/)+(?:[\w-]+\.py)?)`")
# `memtab.sync.service`, `memtab.gui.first_paint`
MODULE = re.compile(r"`(memtab(?:\.\w+)+)`")
CITED_TITLE = re.compile(r'ARCHITECTURE(?:\.md)?,? "([^"]+)"')
SEE_TITLE = re.compile(r'\b[Ss]ee "([^"]+)"')
HEADING = re.compile(r"^#{2,4} (.+?)\s*$", re.MULTILINE)
# A line of the map: its indentation, then the names it lists before the description.
MAP_LINE = re.compile(r"^( *)((?:[\w.]+/?\s)+?)\s")


def text() -> str:
    return ARCHITECTURE.read_text(encoding="utf-8")


def exists(path: str) -> bool:
    return any((base / path).exists() for base in (REPO, REPO / "app", MEMTAB))


def module_exists(dotted: str) -> bool:
    """The module, or its last name an attribute of the module before it."""
    parts = dotted.split(".")[1:]
    for length in (len(parts), len(parts) - 1):
        stem = MEMTAB.joinpath(*parts[:length])
        if stem.with_suffix(".py").is_file() or (stem / "__init__.py").is_file():
            return True
    return False


def map_block() -> list[str]:
    after = text().split("## The map", 1)[1]
    return after.split("```", 2)[1].splitlines()[1:]


def map_paths() -> list[Path]:
    """Each folder and module the map lists, as the path its indentation places it at."""
    parents: dict[int, Path] = {}
    paths: list[Path] = []
    for line in map_block():
        found = MAP_LINE.match(line + "  ")
        if not found or line.lstrip().startswith("("):
            continue
        indent = len(found.group(1))
        if indent == 0:
            base = REPO
        elif indent == 2:
            base = MEMTAB
        elif indent - 2 in parents:
            base = parents[indent - 2]
        else:
            continue  # a description's continuation
        names = found.group(2).split()
        if not all(name.endswith(("/", ".py")) for name in names):
            continue
        for name in names:
            paths.append(base / name)
        if len(names) == 1 and names[0].endswith("/"):
            parents[indent] = base / names[0]
    return paths


def test_the_map_is_read() -> None:
    paths = map_paths()
    assert MEMTAB / "store/scopes" in paths
    assert MEMTAB / "gui/first_paint" in paths
    assert REPO / "tests" in paths


def test_every_folder_and_module_of_the_map_exists() -> None:
    missing = [str(path.relative_to(REPO)) for path in map_paths() if not path.exists()]
    assert not missing, f"docs/ARCHITECTURE.md's map names what is not there: {missing}"


def test_every_path_and_module_named_exists() -> None:
    doc = text()
    paths = [p for p in PATH.findall(doc) if not p.startswith(("/", ".", "<"))]
    modules = MODULE.findall(doc)
    assert paths and modules
    missing = [p for p in paths if not exists(p)] + [m for m in modules if not module_exists(m)]
    assert not missing, f"docs/ARCHITECTURE.md names what is not there: {missing}"


def cited_files() -> list[Path]:
    files: list[Path] = []
    for name in CITED_IN:
        top = REPO / name
        if top.is_file():
            files.append(top)
            continue
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = [d for d in subfolders if d not in SKIPPED]
            files.extend(Path(folder, n) for n in names if n.endswith((".py", ".md", ".toml")))
    return files


def test_every_cited_title_is_a_heading() -> None:
    headings = set(HEADING.findall(text()))
    cited = {
        (str(path.relative_to(REPO)), title)
        for path in cited_files()
        for title in CITED_TITLE.findall(path.read_text(encoding="utf-8"))
    }
    cited |= {("docs/ARCHITECTURE.md", title) for title in SEE_TITLE.findall(text())}
    assert ("app/memtab/fs/records/__init__.py", "Records") in cited
    missing = sorted(f"{where}: {title!r}" for where, title in cited if title not in headings)
    assert not missing, f"cited in the code, not a heading of docs/ARCHITECTURE.md: {missing}"


def test_every_module_file_named_is_somewhere() -> None:
    """A bare `atomic.py` in a description: some module of that name exists."""
    names = set(re.findall(r"\b(\w+\.py)\b", text()))
    on_disk = {path.name for top in (MEMTAB, REPO / "tests") for path in top.rglob("*.py")}
    assert "atomic.py" in names
    missing = sorted(names - on_disk)
    assert not missing, f"docs/ARCHITECTURE.md names modules that are not there: {missing}"
