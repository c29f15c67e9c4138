"""docs/ARCHITECTURE.md stays the one page a newcomer reads, and it and its topic pages
(docs/architecture/*.md) stay true: every module and folder they name exists, both maps'
folders too, and every section the code cites by title (`ARCHITECTURE "Start-up"`) is a
heading of the page or of a topic page; a module the code's own words name
(`gui/tree/view.py`, `components.loads.loads.CutBar`) is there too."""

from __future__ import annotations

import ast
import functools
import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
TOPICS = REPO / "docs" / "architecture"
PACKAGES = TOPICS / "packages.md"
README = REPO / "README.md"
LARGEST_PAGE = 16 * 1024  # read in 20 minutes; the long material is the topic pages'
RECIPES = ("A command", "A setting", "A record", "A window feature", "An agent source")
MEMTAB = REPO / "app" / "memtab"
CITED_IN = ("app", "tests", "docs", "scripts", "README.md", "pyproject.toml", "Makefile")
SKIPPED = {"fixtures", "__pycache__"}

# `gui/tasks/runner.py`, `memtab/file_protocol/`, `tests/support/logfail.py`
PATH = re.compile(r"`((?:[\w.-]+/)+(?:[\w-]+\.py)?)`")
# `memtab.sync.service`, `memtab.gui.first_paint`
MODULE = re.compile(r"`(memtab(?:\.\w+)+)`")
CITED_TITLE = re.compile(r'ARCHITECTURE(?:\.md)?,?\s+"([^"]+)"')
SEE_TITLE = re.compile(r'\b[Ss]ee "([^"]+)"')
HEADING = re.compile(r"^#{1,4} (.+?)\s*$", re.MULTILINE)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# A line of the map: its indentation, then the names it lists before the description.
MAP_LINE = re.compile(r"^( *)((?:[\w.]+/?\s)+?)\s")


def pages() -> list[Path]:
    """The page and its topic pages."""
    return [ARCHITECTURE, *sorted(TOPICS.glob("*.md"))]


def text() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in pages())


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


def _module_file(parts: list[str]) -> Path | None:
    stem = MEMTAB.joinpath(*parts)
    for path in (stem.with_suffix(".py"), stem / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _top_names(path: Path) -> frozenset[str]:
    """What a module defines or imports at its top."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return frozenset(names)


def named_exists(parts: list[str]) -> bool:
    """A module or package of Memtab, or a name its nearest module defines at its top."""
    for length in range(len(parts), 0, -1):
        found = _module_file(parts[:length])
        if found is not None:
            return length == len(parts) or parts[length] in _top_names(found)
    return False


def map_block(page: Path, heading: str) -> list[str]:
    after = page.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    return after.split("```", 2)[1].splitlines()[1:]


def map_paths(page: Path = ARCHITECTURE, heading: str = "## The map") -> list[Path]:
    """Each folder and module a map lists, as the path its indentation places it at: the
    page's, or the full one of the packages' topic page."""
    parents: dict[int, Path] = {}
    paths: list[Path] = []
    for line in map_block(page, heading):
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


def full_map_paths() -> list[Path]:
    return map_paths(PACKAGES, "## The full map")


def test_the_maps_are_read() -> None:
    for paths in (map_paths(), full_map_paths()):
        assert MEMTAB / "store/scopes" in paths
        assert MEMTAB / "gui/first_paint" in paths
        assert REPO / "tests" in paths
    assert MEMTAB / "fs/records/compiler.py" not in map_paths()  # the page stops at folders


def test_every_folder_and_module_of_the_maps_exists() -> None:
    missing = [
        str(path.relative_to(REPO)) for path in map_paths() + full_map_paths() if not path.exists()
    ]
    assert not missing, f"a map of docs/ARCHITECTURE.md names what is not there: {missing}"


def test_the_page_is_read_in_twenty_minutes() -> None:
    size = len(ARCHITECTURE.read_bytes())
    assert size <= LARGEST_PAGE, (
        f"docs/ARCHITECTURE.md is {size:,} bytes: move what a newcomer can skip into a topic "
        f"page of docs/architecture/ (at most {LARGEST_PAGE:,})"
    )


def test_the_page_says_where_each_kind_of_change_goes() -> None:
    recipes = ARCHITECTURE.read_text(encoding="utf-8").split("\n## Where a change goes\n", 1)[1]
    recipes = recipes.split("\n## ", 1)[0]
    for recipe in RECIPES:
        steps = recipes.split(f"**{recipe}**", 1)[1].split("\n\n", 1)[0]
        assert "\n1. " in steps and "\n2. " in steps, recipe
        assert PATH.search(steps), f"{recipe}: a recipe names the files it touches"


def test_every_topic_page_is_listed_and_every_link_leads_somewhere() -> None:
    topics = sorted(TOPICS.glob("*.md"))
    assert PACKAGES in topics
    page, readme = ARCHITECTURE.read_text(encoding="utf-8"), README.read_text(encoding="utf-8")
    unlisted = [
        topic.name
        for topic in topics
        if f"(architecture/{topic.name})" not in page
        or f"(docs/architecture/{topic.name})" not in readme
    ]
    assert not unlisted, f"topic pages not listed on docs/ARCHITECTURE.md and README: {unlisted}"
    broken = [
        f"{doc.relative_to(REPO)}: {target}"
        for doc in pages()
        for target in LINK.findall(doc.read_text(encoding="utf-8"))
        if "://" not in target and not (doc.parent / target).exists()
    ]
    assert not broken, f"links that lead nowhere: {broken}"


def test_every_path_and_module_named_exists() -> None:
    doc = text()
    paths = [p for p in PATH.findall(doc) if not p.startswith(("/", ".", "<"))]
    modules = MODULE.findall(doc)
    assert paths and modules
    missing = [p for p in paths if not exists(p)] + [m for m in modules if not module_exists(m)]
    assert not missing, f"docs/ARCHITECTURE.md or a topic page names what is not there: {missing}"


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
    cited |= {
        (str(page.relative_to(REPO)), title)
        for page in pages()
        for title in SEE_TITLE.findall(page.read_text(encoding="utf-8"))
    }
    assert ("app/memtab/fs/records/__init__.py", "Records") in cited
    assert ("app/memtab/gui/tasks/jobs.py", "Threads and the watcher") in cited  # over a line
    missing = sorted(f"{where}: {title!r}" for where, title in cited if title not in headings)
    assert not missing, (
        f"cited in the code, not a heading of docs/ARCHITECTURE.md or docs/architecture/: {missing}"
    )


def test_every_module_file_named_is_somewhere() -> None:
    """A bare `atomic.py` in a description: some module of that name exists."""
    names = set(re.findall(r"(?<![>\w])(\w+\.py)\b", text()))  # not `test_<name>.py`
    on_disk = {path.name for top in (MEMTAB, REPO / "tests") for path in top.rglob("*.py")}
    assert "atomic.py" in names
    missing = sorted(names - on_disk)
    assert not missing, f"docs/ARCHITECTURE.md or a topic page names modules not there: {missing}"


PACKAGES_OF_MEMTAB = sorted(p.name for p in MEMTAB.iterdir() if (p / "__init__.py").is_file())
# `gui/tree/view.py`, `app/memtab/store/scopes/`, `gui/sync/feature.SyncConflictBars`
CODE_PATH = re.compile(
    rf"`(?:app/memtab/)?((?:{'|'.join(PACKAGES_OF_MEMTAB)})/[\w/-]*?(?:\.py)?)(?:\.\w+)*`"
)
# `memtab.gui.traces.feature.TracesTab`, `components.loads.loads.CutBar`
CODE_MODULE = re.compile(r"`(?:memtab\.)?((?:gui|components)(?:\.\w+)+)`")


def test_every_module_the_code_names_exists() -> None:
    """Memtab's and its tests' docstrings and comments name a module by a path from
    app/memtab or a dotted name in backticks: each is there (a fold moves what it names)."""
    missing: list[str] = []
    for top in (MEMTAB, REPO / "tests"):
        for path in top.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "`" not in text or "fixtures" in path.parts or path == Path(__file__):
                continue
            where = path.relative_to(REPO)
            for named in CODE_PATH.findall(text):
                if not (MEMTAB / named).exists() and not (MEMTAB / f"{named}.py").exists():
                    missing.append(f"{where}: {named}")
            for named in CODE_MODULE.findall(text):
                test_module = REPO.joinpath("tests", *named.split(".")).with_suffix(".py")
                if not named_exists(named.split(".")) and not test_module.is_file():
                    missing.append(f"{where}: {named}")
    assert not missing, f"the code names modules that are not there: {missing}"


def test_the_code_check_sees_a_module_that_is_gone() -> None:
    assert named_exists(["gui", "sync", "feature", "SyncConflictBars"])
    assert named_exists(["components", "loads"])
    assert not named_exists(["gui", "sync", "editor_bar"])
    assert not named_exists(["gui", "sync", "feature", "NoSuchThing"])
    assert CODE_PATH.findall("(`gui/tree/rows` paints, `store/scopes/` `gui/x.py.Name`)") == [
        "gui/tree/rows",
        "store/scopes/",
        "gui/x.py",
    ]
    assert CODE_MODULE.findall("`memtab.gui.sync.editor_bar` `check.panel`") == [
        "gui.sync.editor_bar"
    ]
