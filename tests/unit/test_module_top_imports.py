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
from collections import Counter
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"
LAZY = "# lazy:"
REASONS_FOR_TYPE_CHECKING = ("# lazy:", "# cycle:")

# Imports inside functions without a reason, by module, as they were when this test came
# (issue 37): the count may only go down — move them to the module's top, or say why not.
UNMARKED_FUNCTION_IMPORTS: dict[str, int] = {
    "memtab.cli.check_commands": 4,
    "memtab.cli.history_commands": 8,
    "memtab.cli.self_test": 4,
    "memtab.cli.store_commands": 1,
    "memtab.cli.sync_commands": 4,
    "memtab.components.search.search": 1,
    "memtab.consolidation.job": 1,
    "memtab.consolidation.engine.run_books": 1,
    "memtab.consolidation.service": 2,
    "memtab.demo": 3,
    "memtab.demo_history": 1,
    "memtab.diagnostics.runtime": 5,
    "memtab.diagnostics.setup": 1,
    "memtab.diagnostics.watching": 1,
    "memtab.llm.probe": 1,
    "memtab.llm.settings": 4,
    "memtab.file_protocol.memory_file": 2,
    "memtab.sources.open_file": 1,
    "memtab.store.catch_up": 1,
    "memtab.store.history.runs": 2,
    "memtab.store.history.started": 3,
    "memtab.store.history.xum_journal": 1,
    "memtab.store.interrupted": 1,
    "memtab.store.proposals.queue": 3,
    "memtab.store.scopes.tool": 2,
    "memtab.sync.imports": 1,
    "memtab.sync.service": 1,
    "memtab.sync.state": 1,
    "memtab.traces.reader": 5,
    "memtab.writer.config": 2,
    "memtab.writer.job.dumps": 3,
    "memtab.writer.offline.notes": 1,
    "memtab.writer.job.run": 3,
    "memtab.writer.job.service": 3,
    "memtab.writer.job.state": 1,
    "memtab.writer.inbox.suggestions": 6,
}
# `TYPE_CHECKING` blocks without a reason, by module, likewise.
UNMARKED_TYPE_CHECKING: dict[str, int] = {
    "memtab.cli.history_commands": 1,
    "memtab.cli.writer_commands": 1,
    "memtab.components.blame.gutter": 1,
    "memtab.components.check.marks": 1,
    "memtab.components.files.ops": 1,
    "memtab.components.history.history": 1,
    "memtab.components.history.runs": 1,
    "memtab.components.search.search": 1,
    "memtab.consolidation.errors": 1,
    "memtab.consolidation.job": 1,
    "memtab.consolidation.engine.run_books": 1,
    "memtab.consolidation.service": 1,
    "memtab.llm.probe": 1,
    "memtab.llm.settings": 1,
    "memtab.sources.content": 1,
    "memtab.sources.copy": 1,
    "memtab.file_protocol.memory_file": 1,
    "memtab.sources.open_file": 1,
    "memtab.store.catch_up": 1,
    "memtab.store.history.describe": 1,
    "memtab.store.history.records": 1,
    "memtab.store.history.runs": 1,
    "memtab.store.proposals.queue": 1,
    "memtab.store.scopes.tool": 1,
    "memtab.store.restore.undo": 1,
    "memtab.sync.objects": 1,
    "memtab.sync.state": 1,
    "memtab.traces.outcome": 1,
    "memtab.traces.reader": 1,
    "memtab.writer.job.dumps": 1,
    "memtab.writer.inbox.inbox": 1,
    "memtab.writer.offline.notes": 1,
    "memtab.writer.job.offline_provider": 1,
    "memtab.writer.job.policy": 1,
    "memtab.writer.job.state": 1,
    "memtab.writer.inbox.suggestions": 1,
}


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
    lines = source.splitlines()
    imports: list[int] = []
    blocks: list[int] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
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
    grown = {
        name: f"lines {where[name]}"
        for name, count in imports.items()
        if count > UNMARKED_FUNCTION_IMPORTS.get(name, 0)
    }
    assert not grown, (
        f"imports inside functions without a reason: {grown} — import at the module's top; "
        "if the window's first paint must not load it, build it in memtab.gui.window."
        "features; if a command or a worker must not pay for it, say so with `# lazy: "
        "<what it costs>` (tests/unit/test_module_top_imports.py)"
    )


def test_type_checking_blocks_say_why() -> None:
    _, blocks, where = unmarked_counts()
    grown = {
        name: f"lines {where[name]}"
        for name, count in blocks.items()
        if count > UNMARKED_TYPE_CHECKING.get(name, 0)
    }
    assert not grown, (
        f"TYPE_CHECKING blocks without a reason: {grown} — import at the module's top, or "
        "say why not: `# lazy: …` (the first paint may not import it) or `# cycle: …`"
    )


def test_the_lists_of_unmarked_imports_only_shrink() -> None:
    """A module that lost its unmarked imports leaves the lists (so they cannot grow back)."""
    imports, blocks, _ = unmarked_counts()
    stale = {
        name: (count, imports.get(name, 0))
        for name, count in UNMARKED_FUNCTION_IMPORTS.items()
        if imports.get(name, 0) < count
    } | {
        name: (count, blocks.get(name, 0))
        for name, count in UNMARKED_TYPE_CHECKING.items()
        if blocks.get(name, 0) < count
    }
    assert not stale, f"fewer unmarked imports than listed (listed, now): {stale}"


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
