"""Every pattern Memtab runs over text takes time linear in that text (issue 49).

Memory files, transcripts, tool output, a checkout's Makefile and the names other programs
give files all come from outside, and any of them may hold a 100 KB line. A pattern that
backtracks over a run it cannot give back — `\\s*$` after text that may hold spaces, a lazy
`.*?` before something that can fail, each of many starts scanning to the same far end —
is quadratic there: `memtab check` took 16 s on one heading of spaces and tabs ending in
`#`, the window's Check the same.

`WORST` (`support/worst_inputs.py`) holds the worst input of every pattern compiled at a
module's level in the app (`test_every_pattern_has_its_worst_input` collects them, so a new
pattern cannot come without one), and `CALLS` the functions that build a pattern from their
arguments or run patterns over a text in a loop. Each is fed its worst input at 25 KB and
at 100 KB, applied as the code applies it: the cost (this thread's CPU time, the least of
five tries of each size taken in turn) must grow about 4 times, as a linear one does, never
near 16 times (quadratic); a CPU guard stops a run past a budget no linear one comes near
(exponential). No wall time is asserted.
"""

from __future__ import annotations

import ast
import dataclasses
import gc
import importlib
import pkgutil
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType, ModuleType

import pytest

import memtab
from memtab.check.markdown import scan_markdown
from memtab.check.rules import links
from memtab.check.scripts import PythonProject
from memtab.fs.lazy_re import LazyPattern
from memtab.markdown import heading
from memtab.redact import KeyScrubber
from memtab.store.text.frontmatter import title_of
from memtab.trust.leaks import engine as leaks_engine
from memtab.trust.reading.attached import said
from memtab.writer.offline import directives
from memtab.writer.offline.shell import commands, outcomes
from support.syntax_trees import children, walk
from support.worst_inputs import WORST as APP_WORST
from support.worst_shapes import Worst
from support.worst_trust_inputs import TRUST_READING

WORST = {**APP_WORST, **TRUST_READING}
SMALL = 25_000
LARGE = 100_000
LINEAR_AT_MOST = 8.0
"""Four times the text costs about 4 times as much in linear time, 16 in quadratic."""
CPU_BUDGET_S = 5.0
"""What one run of 100 KB may cost (a linear pattern costs a few milliseconds)."""
ROUNDS = 5
TRY_S = 0.004
APP = Path(memtab.__file__).parent


# --- functions that build patterns or loop them over a text --------------------------------


CALL = "call"
CALLS: dict[str, tuple[Callable[[str], object], Worst]] = {
    # patterns built from what they look for: an escaped literal between look-arounds
    "memtab.check.rules.links:_relinked": (
        lambda text: links._relinked(text, "notes.md", "other.md", ""),
        Worst(CALL, "", "]:", " "),
    ),
    "memtab.check.scripts:PythonProject.runs": (
        lambda text: PythonProject(mentioned=text).runs("a" * 40 + "b"),
        Worst(CALL, "", "a"),
    ),
    "memtab.redact.__init__:_keys_pattern": (
        lambda text: KeyScrubber(["k", "a" * 40 + "b"]).text(text),
        Worst(CALL, "", "a"),
    ),
    "memtab.trust.leaks.engine:_names_pattern": (
        lambda text: leaks_engine.mentions_of(text, leaks_engine._names_pattern(["acme-api"])),
        Worst(CALL, "", "acme-ap/"),
    ),
    "memtab.trust.leaks.engine:_owns_a_path": (
        lambda text: leaks_engine.mentions_of(text, leaks_engine._names_pattern(["ledger"])),
        Worst(CALL, "/", "ledger's a a a a/"),
    ),
    # what runs patterns line by line, or over what a pattern found
    "memtab.markdown:heading": (heading, Worst(CALL, "# x", " \t", "#y")),
    "memtab.check.markdown:scan_markdown": (scan_markdown, Worst(CALL, "# x", " \t", "#")),
    "memtab.store.text.frontmatter:title_of": (title_of, Worst(CALL, "# x", " \t", "# #")),
    "memtab.writer.offline.shell.outcomes:hooks_that_passed#dots": (
        outcomes.hooks_that_passed,
        Worst(CALL, "a", ".", "x"),
    ),
    "memtab.writer.offline.shell.outcomes:hooks_that_passed#echo": (
        outcomes.hooks_that_passed,
        Worst(CALL, "> a@1 b\n", "\n"),
    ),
    "memtab.writer.offline.shell.commands:unfiltered": (
        commands.unfiltered,
        Worst(CALL, "make", " | tail a", "&"),
    ),
    "memtab.trust.reading.attached:said#list": (said, Worst(CALL, "Ports: ", "a: 1, ", "a b")),
    "memtab.writer.offline.directives:_without_trailing_off": (
        directives._without_trailing_off,
        Worst(CALL, "a", ".…"),
    ),
}

# Patterns compiled inside a function: what each is, and where its worst input is.
DYNAMIC = {
    "memtab.fs.lazy_re:LazyPattern.compiled": "compiles the module-level patterns (in WORST)",
    "memtab.redact.rules:_rule": "compiles the redaction rules (in WORST, by REDACTION)",
    "memtab.components.editor.find:_pattern": "the user's own expression in Find, on the text "
    "they opened (a worker runs it)",
}


# --- the machinery -------------------------------------------------------------------------


def _imported_names(module: ModuleType) -> set[str]:
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    return {
        alias.asname or alias.name
        for node in walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _patterns_in(
    value: object, where: str, depth: int = 0
) -> Iterator[tuple[str, re.Pattern[str]]]:
    if isinstance(value, LazyPattern):
        yield where, value.compiled()
    elif isinstance(value, re.Pattern):
        yield where, value
    elif depth >= 3:
        return
    elif isinstance(value, tuple | list | set | frozenset):
        for index, item in enumerate(value):
            yield from _patterns_in(item, f"{where}[{index}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _patterns_in(item, f"{where}[{key!r}]", depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _patterns_in(getattr(value, field.name), f"{where}.{field.name}", depth + 1)


def app_modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(memtab.__path__, "memtab."):
        if info.name != "memtab.__main__":
            yield importlib.import_module(info.name)


def app_patterns() -> dict[str, re.Pattern[str]]:
    """Every pattern a module of the app compiles at its top, by `module:name[index]`."""
    found: dict[str, re.Pattern[str]] = {}
    for module in app_modules():
        imported = _imported_names(module)
        for name, value in vars(module).items():
            if name in imported or isinstance(value, ModuleType):
                continue
            if isinstance(value, type):
                if value.__module__ != module.__name__:
                    continue
                for attribute, item in vars(value).items():
                    found.update(_patterns_in(item, f"{module.__name__}:{name}.{attribute}", 1))
                continue
            found.update(_patterns_in(value, f"{module.__name__}:{name}"))
    return found


_RE_CALLS = {
    "compile",
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "findall",
    "finditer",
    "split",
}


def patterns_compiled_in_functions() -> set[str]:
    """`module:function` of every function of the app that compiles or applies a pattern
    of its own (`re.compile`, `re.search(…)`, `LazyPattern(…)`)."""
    found: set[str] = set()
    for path in sorted(APP.rglob("*.py")):
        module = ".".join(path.relative_to(APP.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for scope, function in _functions(tree, ""):
            for node in walk(function):
                if isinstance(node, ast.Call) and _compiles(node.func):
                    found.add(f"{module}:{scope}")
    return found


def _functions(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.AST]]:
    for child in children(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{child.name}", child
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")


def _compiles(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "LazyPattern"
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "re"
        and func.attr in _RE_CALLS
    )


class CpuBudgetExceededError(Exception):
    pass


def _on_budget(_signum: int, _frame: FrameType | None) -> None:
    raise CpuBudgetExceededError


def _apply(pattern: re.Pattern[str], how: str) -> Callable[[str], object]:
    if how == "finditer":
        return lambda text: deque(pattern.finditer(text), maxlen=0)
    if how == "sub":
        return lambda text: pattern.sub("", text)
    method: Callable[[str], object] = getattr(pattern, how)
    return method


def growth(call: Callable[[str], object], worst: Worst) -> float:
    """How many times more `call` costs on 100 KB of its worst input than on 25 KB: each
    size's least cost over `ROUNDS` tries taken in turn (what another process costs this
    thread's caches passes), a try being as many calls as take a few milliseconds."""
    small, large = worst.text(SMALL), worst.text(LARGE)
    previous = signal.signal(signal.SIGVTALRM, _on_budget)
    gc.disable()
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, CPU_BUDGET_S)
        started = time.thread_time()
        call(large)  # the guard: a run past the budget stops here
        repeat = max(1, min(500, int(TRY_S / max(time.thread_time() - started, 1e-7))))
        signal.setitimer(signal.ITIMER_VIRTUAL, CPU_BUDGET_S * ROUNDS * 2)
        least = {SMALL: float("inf"), LARGE: float("inf")}
        for _ in range(ROUNDS):
            for size, text in ((SMALL, small), (LARGE, large)):
                started = time.thread_time()
                for _ in range(repeat):
                    call(text)
                least[size] = min(least[size], time.thread_time() - started)
        return least[LARGE] / least[SMALL]
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        gc.enable()


def assert_linear(call: Callable[[str], object], worst: Worst, what: str) -> None:
    try:
        ratio = growth(call, worst)
        if ratio >= LINEAR_AT_MOST:  # a busy moment of the machine? look once more
            ratio = min(ratio, growth(call, worst))
    except CpuBudgetExceededError:
        pytest.fail(f"{what} ran past {CPU_BUDGET_S:g} s of CPU on 100 KB of {worst}")
    assert ratio < LINEAR_AT_MOST, f"{what} costs {ratio:.1f}× as much on 4× {worst}"


# --- the tests -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def patterns() -> dict[str, re.Pattern[str]]:
    return app_patterns()


@pytest.mark.slow  # slow: imports every module of the app (~3 s quiet, ~25 s at load 10)
def test_every_pattern_has_its_worst_input(patterns: dict[str, re.Pattern[str]]) -> None:
    found = patterns
    assert sorted(set(found) - set(WORST)) == [], "add each pattern's worst input to WORST"
    assert sorted(set(WORST) - set(found)) == [], "WORST names patterns that are gone"


@pytest.mark.slow  # slow: parses every module of the app (~2 s quiet, ~12 s at load 10)
def test_no_function_compiles_a_pattern_of_its_own() -> None:
    """A pattern compiled in a function is not in WORST: it goes to its module's top, or
    its function is in CALLS (built from arguments) or DYNAMIC (said why)."""
    listed = set(DYNAMIC) | {name.split("#")[0] for name in CALLS}
    assert sorted(patterns_compiled_in_functions() - listed) == []


@pytest.mark.slow  # slow: the app's ~340 patterns, each at 25 and 100 KB (~30 s of CPU)
@pytest.mark.parametrize("key", sorted(WORST))
def test_a_pattern_is_linear_in_its_worst_input(
    key: str, patterns: dict[str, re.Pattern[str]]
) -> None:
    worst = WORST[key]
    assert_linear(_apply(patterns[key], worst.how), worst, key)


@pytest.mark.slow  # slow: with the patterns above
@pytest.mark.parametrize("key", sorted(CALLS))
def test_a_function_over_text_is_linear_in_its_worst_input(key: str) -> None:
    call, worst = CALLS[key]
    assert_linear(call, worst, key)
