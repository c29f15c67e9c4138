"""Names follow the glossary (docs/ARCHITECTURE.md "Words, one meaning each"): a word the
table gives one meaning is not used in a name for another (issue 37).

Each rule below is a combination the table forbids, matched against every name the app
defines or uses (functions, classes, arguments, variables, attributes, imported names) and
every module path: a match is a name to change to the word the table gives.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from support.syntax_trees import walk

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"


class Rule(NamedTuple):
    word: str
    pattern: re.Pattern[str]
    say_instead: str
    where: tuple[str, ...] = ("memtab/",)  # the modules whose names it reads (path prefixes)
    allowed: frozenset[str] = frozenset()  # names that keep the word in another's meaning


RULES = (
    Rule(
        "sync",
        re.compile(r"sync_?(source_?)?external|external_?sync|sourcesyncreport", re.I),
        "recording outside changes is not a sync: record_external, ExternalReport",
    ),
    Rule(
        "sync",
        re.compile(r"sync_?(file_?system|everything)|file_?system_?sync|^_?unsynced$", re.I),
        "flushing to disk is not a sync: make_filesystem_durable, FILESYSTEM_FLUSH_WORKS",
    ),
    Rule(
        "sync",
        re.compile(r"(?<!f)sync(?!fs)", re.I),
        "outside git sync, nothing syncs: record, follow, link, mirror, make durable",
        where=(
            "memtab/gui/tree/",
            "memtab/gui/memory_tab/",
            "memtab/gui/search/",
            "memtab/gui/editor/",
            "memtab/gui/history/",
            "memtab/store/restore/",
            "memtab/store/history/",
            "memtab/store/catch_up/",
            "memtab/watch/",
            "memtab/components/history/",
            "memtab/sources/",
        ),
    ),
    Rule(
        "fix",
        re.compile(r"(^|_)fix(es)?(_|$)|^_?FIX(ES)?(_|$)|^Fix", re.I),
        "a problem the writer saw an agent solve is not a fix: SolvedProblem, solved_problems",
        where=("memtab/writer/",),
    ),
    Rule(
        "command",
        re.compile(r"command(?!_?lines?\b|_palette\b)", re.I),
        "a window action is not a command: *_actions (gui/actions.py), command lines of processes",
        where=("memtab/gui/", "memtab/components/"),
        # mux's memory tool names its operation `command` (formats §5), shown in the review
        allowed=frozenset({"command"}),
    ),
    Rule(
        "undo",
        re.compile(r"undo", re.I),
        "restoring a version, the trash or reverting a run is not undo: restore, revert",
        where=("memtab/store/", "memtab/cli/", "memtab/sync/", "memtab/watch/", "memtab/check/"),
    ),
    Rule(
        "merge",
        re.compile(r"merg", re.I),
        "the consolidator joining notes is not a merge: combine (the journal's op kind stays)",
        where=(
            "memtab/consolidation/",
            "memtab/components/consolidation/consolidation.py",
            "memtab/gui/consolidation/",
            "memtab/store/history/describe.py",
            # the tree model takes a new scan in (reconcile); the writer adds its findings
            "memtab/gui/tree/",
            "memtab/components/tree/",
            "memtab/gui/first_paint/",
            "memtab/writer/",
        ),
    ),
    Rule(
        "run",
        re.compile(r"^(SyncRun|RunOutcome)$|(sync|check)_?runs?$", re.I),
        "a sync or a check is not a run: TargetSync, SyncOutcome; check/rules/runnable.py",
        where=("memtab/sync/", "memtab/check/"),
    ),
)


class ModuleWords(NamedTuple):
    """What one module names (its functions, classes, variables, attributes, arguments,
    imports) and the string literals it shows or writes (its docstrings left out: prose
    for maintainers, not words shown to users)."""

    names: frozenset[str]
    texts: tuple[str, ...]


# Definitions, as one tuple: `A | B | C` in the loop made a union for each of every
# module's ~690,000 nodes.
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _words(module: str, tree: ast.Module) -> ModuleWords:
    names: set[str] = {part.removesuffix(".py") for part in module.split("/")}
    docstrings: set[int] = set()
    constants: list[ast.Constant] = []
    for node in walk(tree):  # one walk for both: every module is walked once
        if isinstance(node, ast.Name):  # the most frequent kinds first
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                constants.append(node)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.update((node.asname or node.name).split("."))
        elif isinstance(node, _DEFINITIONS):
            names.add(node.name)
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docstrings.add(id(body[0].value))
    texts = tuple(str(c.value) for c in constants if id(c) not in docstrings)
    return ModuleWords(frozenset(names), texts)


@functools.cache
def _words_by_module() -> dict[str, ModuleWords]:
    return {
        str(path.relative_to(APP.parent)): _words(
            str(path.relative_to(APP.parent)), ast.parse(path.read_text(encoding="utf-8"))
        )
        for path in sorted(APP.rglob("*.py"))
    }


# Words the window, the CLI's help and the ops' descriptions showed in a meaning the
# glossary forbids, and what they say now.
UI_TEXTS = (
    (re.compile(r"\bMerged \S+ into\b|\bMerged into\b|Merge, prune"), "the consolidator combines"),
    (re.compile(r"can be undone here|history can undo"), "an older version is restored"),
    (
        re.compile(r"\bcommand(s|'s)? (matches|by typing|name)|part of a command"),
        "the palette lists actions",
    ),
    (re.compile(r"\(merge, prune, promote\)"), "consolidate combines, prunes, promotes"),
)


def test_no_text_shown_uses_a_word_in_a_meaning_the_glossary_forbids() -> None:
    wrong = [
        (module, text, instead)
        for module, words in _words_by_module().items()
        for text in words.texts
        for pattern, instead in UI_TEXTS
        if pattern.search(text)
    ]
    assert wrong == []


@pytest.mark.parametrize("rule", RULES, ids=[f"{rule.word}-{n}" for n, rule in enumerate(RULES)])
def test_no_name_uses_a_word_in_a_meaning_the_glossary_forbids(rule: Rule) -> None:
    by_module = _words_by_module()
    assert len(by_module) > 300  # the package itself, not an installed stub
    wrong = {
        module: sorted(
            name for name in words.names if rule.pattern.search(name) and name not in rule.allowed
        )
        for module, words in by_module.items()
        if module.startswith(rule.where)
    }
    assert {module: names for module, names in wrong.items() if names} == {}, rule.say_instead
