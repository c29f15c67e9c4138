"""Memtab's modules import at their top (docs/ARCHITECTURE.md "Start-up"): what the window's
first paint may not wait for is held by the import contract "first-paint" and loaded by the
one step after the paint (`memtab.gui.window.features`), not by imports hidden in functions.

An import inside a function stays only with a `# lazy:` comment saying what it saves (a
measured cost on a path that matters: the first paint, a command's start, a worker), on
its line or on the comment lines right above it (one comment covers the imports that
follow it). A `TYPE_CHECKING` block needs a `# lazy:` or `# cycle:` comment on its `if`
line or the line above: names the first paint may not import, or a real import cycle.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from support.syntax_trees import children

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"
LAZY = "# lazy:"
REASONS_FOR_TYPE_CHECKING = ("# lazy:", "# cycle:")
# What a module needs to have an import in a function (indented, or after `def f():` or
# `x = 1;`) or a TYPE_CHECKING block: most have neither and are not parsed (parsing all
# ~500 took ~3 s of CPU).
MAY_HAVE_ONE = re.compile(
    r"^[ \t]+(?:import|from)\b|[:;](?:[ \t]|\\\n)*(?:import|from)\b|TYPE_CHECKING", re.MULTILINE
)


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def says_why(lines: list[str], statement: ast.stmt, reasons: tuple[str, ...]) -> bool:
    """Whether the statement's own lines, or the comment and import lines right above it,
    carry one of `reasons`."""
    end = statement.end_lineno or statement.lineno
    if any(
        reason in lines[number - 1]
        for number in range(statement.lineno, end + 1)
        for reason in reasons
    ):
        return True
    number = statement.lineno - 1
    while number >= 1:
        text = lines[number - 1].strip()
        if text.startswith("#"):
            if any(reason in text for reason in reasons):
                return True
        elif not text.startswith(("import ", "from ")) or not text:
            return False
        number -= 1
    return False


def unmarked(path: Path) -> tuple[list[int], list[int]]:
    """The lines of `path`'s function-level imports and `TYPE_CHECKING` blocks that do not
    say why."""
    source = path.read_text(encoding="utf-8")
    if not MAY_HAVE_ONE.search(source):
        return [], []
    lines = source.splitlines()
    imports: list[int] = []
    blocks: list[int] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in children(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                if in_function and not says_why(lines, child, (LAZY,)):
                    imports.append(child.lineno)
            elif (
                isinstance(child, ast.If)
                and is_type_checking(child.test)
                and not says_why(lines, child, REASONS_FOR_TYPE_CHECKING)
            ):
                blocks.append(child.lineno)
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            walk(child, in_function or function)

    walk(ast.parse(source), in_function=False)
    return imports, blocks


@functools.cache
def unmarked_counts() -> tuple[Counter[str], Counter[str], dict[str, list[int]]]:
    imports: Counter[str] = Counter()
    blocks: Counter[str] = Counter()
    where: dict[str, list[int]] = {}
    for path in sorted(APP.rglob("*.py")):
        import_lines, block_lines = unmarked(path)
        name = module_name(path)
        if import_lines:
            imports[name] = len(import_lines)
        if block_lines:
            blocks[name] = len(block_lines)
        if import_lines or block_lines:
            where[name] = import_lines + block_lines
    return imports, blocks, where


def test_imports_inside_functions_say_why() -> None:
    imports, _, where = unmarked_counts()
    assert not imports, (
        f"imports inside functions without a reason: { {name: where[name] for name in imports} }"
        " — import at the module's top; if the window's first paint must not load it, build "
        "it in memtab.gui.window.features; if a command, a worker or the settled window must "
        "not pay for it, say so with `# lazy: <what it costs>`"
    )


def test_type_checking_blocks_say_why() -> None:
    _, blocks, where = unmarked_counts()
    assert not blocks, (
        f"TYPE_CHECKING blocks without a reason: { {name: where[name] for name in blocks} } — "
        "import at the module's top, or say why not: `# lazy: …` (the first paint may not "
        "import it) or `# cycle: …`"
    )


# 51: Trust's Ask the model loads the judge; 52–53: `check --plan-out` loads consolidation;
# 54: a 2026-07-28 session loads the MCP SDK; 55–56: a warm `memtab duplicates --json` prints
# what the last run did without the engine and its judging (~0.5 s of imports quiet); 57: the
# secret patterns only for a write to shared memory, not every trust command's start (~0.03 s);
# 58–60: a warm `memtab contradictions --json` without the engine, its readers or the blame
# service (warm CPU 0.40 → 0.33 s on 20,000 files); 61–64: `memtab recall`, `loads`, `runs` and
# `status` say it in the window's words, whose presenters `memtab --help` (every command module)
# does not load (2 modules and ~7–17 ms CPU each at load 4–6)
MEMTAB_IMPORTS_IN_FUNCTIONS_AT_MOST = 64
"""How many imports of Memtab's own modules stay inside functions, each with its `# lazy:`
reason (docs/architecture/start-up.md: what waits is a module of its own loaded by one
import; what every path loads anyway is at its module's top): one more raises this on
purpose, in the change that needs it."""


def memtab_imports_in_functions(path: Path) -> list[int]:
    """The lines of `path`'s imports of Memtab's own modules inside functions."""
    source = path.read_text(encoding="utf-8")
    if not MAY_HAVE_ONE.search(source):
        return []
    found: list[int] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in children(node):
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                if isinstance(child, ast.Import):
                    names = [alias.name for alias in child.names]
                else:
                    names = ["memtab" if child.level else child.module or ""]
                if any(name.split(".")[0] == "memtab" for name in names):
                    found.append(child.lineno)
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            walk(child, in_function or function)

    walk(ast.parse(source), in_function=False)
    return found


def test_few_of_memtabs_own_imports_wait_inside_functions() -> None:
    found = {
        module_name(path): lines
        for path in sorted(APP.rglob("*.py"))
        if (lines := memtab_imports_in_functions(path))
    }
    count = sum(len(lines) for lines in found.values())
    assert count <= MEMTAB_IMPORTS_IN_FUNCTIONS_AT_MOST, (
        f"{count} imports of Memtab's modules inside functions "
        f"(at most {MEMTAB_IMPORTS_IN_FUNCTIONS_AT_MOST}): {found} — import at the module's "
        "top; a cost that must wait (the first paint, a command's or a session's start, the "
        "settled window's memory) is measured and said with `# lazy:`, and raises the ceiling"
    )


def test_the_count_sees_memtabs_own_imports_in_functions(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "import memtab.store\n"
        "def f():\n"
        "    import os\n"
        "    from memtab.store import home  # lazy: ~10 ms\n"
        "    from . import sibling  # lazy: ~10 ms\n"
        "    import memtab.fs.atomic  # lazy: ~10 ms\n"
        "    g = lambda: __import__('json')\n",
        encoding="utf-8",
    )
    assert memtab_imports_in_functions(module) == [4, 5, 6]


def test_the_check_sees_an_unmarked_import(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import json\n"
        "if TYPE_CHECKING:  # cycle: a imports b\n"
        "    import json\n"
        "def f():\n"
        "    import os\n"
        "    # lazy: ~10 ms the window's start saves\n"
        "    import re\n"
        "    import sys\n"
        "    import csv  # lazy: only for the export\n",
        encoding="utf-8",
    )
    assert unmarked(module) == ([7], [2])


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    import os\n",
        "def f():\n\tfrom . import x\n",
        "def f(): import os\n",
        "def f():\n    x = 1; import os\n",
        "def f(): \\\nimport os\n",
    ],
)
def test_the_check_parses_every_module_that_may_import_in_a_function(
    tmp_path: Path, source: str
) -> None:
    module = tmp_path / "sample.py"
    module.write_text(source, encoding="utf-8")
    assert unmarked(module)[0], source


def _is_module(name: str) -> bool:
    """Whether `name` is one of Memtab's modules or packages, or the standard library's."""
    if name == "memtab" or name.startswith("memtab."):
        stem = APP.parent.joinpath(*name.split("."))
        return stem.with_suffix(".py").is_file() or (stem / "__init__.py").is_file()
    if name.partition(".")[0] not in sys.stdlib_module_names:
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


def _imported(statement: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The modules an import statement loads: `import a.b` loads `a.b`; `from x import y`
    loads `x.y` when that is a module, else `x` (relative to `package`)."""
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    base = statement.module or ""
    if statement.level:
        parts = package.split(".")[: len(package.split(".")) - statement.level + 1]
        base = ".".join([*parts, *([base] if base else [])])
    loaded = [f"{base}.{alias.name}" for alias in statement.names]
    return [name if _is_module(name) else base for name in loaded]


def imported_again(path: Path) -> list[int]:
    """The lines of `path`'s imports inside functions and `TYPE_CHECKING` blocks whose every
    module the file already imports at its top (outside any function or block)."""
    source = path.read_text(encoding="utf-8")
    if not MAY_HAVE_ONE.search(source):
        return []
    name = module_name(path) if path.is_relative_to(APP) else path.stem
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(source)
    at_top = {
        module
        for statement in tree.body
        if isinstance(statement, ast.Import | ast.ImportFrom)
        for module in _imported(statement, package)
    }
    again: list[int] = []

    def walk(node: ast.AST, deferred: bool) -> None:
        for child in children(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                if deferred and set(_imported(child, package)) <= at_top:
                    again.append(child.lineno)
                continue
            inner = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) or (
                isinstance(child, ast.If) and is_type_checking(child.test)
            )
            walk(child, deferred or inner)

    walk(tree, deferred=False)
    return again


def test_no_import_is_deferred_that_its_module_already_makes_at_its_top() -> None:
    found = {
        module_name(path): lines
        for path in sorted(APP.rglob("*.py"))
        if (lines := imported_again(path))
    }
    assert not found, (
        f"imported inside a function or a TYPE_CHECKING block, and at the module's top too: "
        f"{found} — the deferred import saves nothing; use the top one"
    )


def test_the_check_sees_an_import_made_at_the_top_already(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from collections.abc import Callable\n"
        "from memtab.store import home\n"
        "from memtab.store.home import Home\n"
        "if TYPE_CHECKING:  # lazy: ~80 ms\n"
        "    from collections.abc import Sequence\n"
        "    from memtab.store import paths\n"
        "def f():\n"
        "    from memtab.store.home import HomeError  # lazy: ~10 ms\n"
        "    from memtab.store.home import Home, PathKind  # lazy: ~10 ms\n"
        "    from memtab.store import home, paths  # lazy: ~10 ms\n"
        "    import memtab.store.home  # lazy: ~10 ms\n"
        "    import json  # lazy: ~1 ms\n",
        encoding="utf-8",
    )
    assert imported_again(module) == [6, 9, 10, 12]
