"""The fast tier stays honest (docs/ARCHITECTURE.md "Testing").

`make test-fast` leaves out the tests marked `slow`, silences the disk flushes
(`--no-fsync`, tests/support/flushes.py) and draws fewer property examples
(tests/support/property_examples.py); `make test`, what CI runs, leaves out nothing and
flushes for real. These checks keep both true as the code and the Makefile change.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from hypothesis import settings

from support.flushes import SILENCED
from support.property_examples import FULL_COUNT, examples
from support.syntax_trees import children

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app" / "memtab"
MAKEFILE = ROOT / "Makefile"

# The os module's ways to flush to disk (a file, a file system, every file system).
OS_FLUSHES = frozenset({"fsync", "fdatasync", "sync", "O_SYNC", "O_DSYNC"})
# Where the code calls syncfs(2) through the C library: the one function the switch replaces.
SYNCFS_HOME = ("fs/atomic.py", "_syncfs")
# What CI's pytest line may not have: each would leave tests out or fake a flush.
NARROWING = ("-m", "-k", "--ignore", "--deselect", "--no-fsync", "--lf", "-x")


def _nodes_and_their_functions(tree: ast.AST) -> Iterator[tuple[ast.AST, str | None]]:
    """Every node of `tree`, with the name of the innermost function it is in."""
    pending: list[tuple[ast.AST, str | None]] = [(tree, None)]
    while pending:
        node, function = pending.pop()
        yield node, function
        inner = node.name if isinstance(node, ast.FunctionDef) else function
        pending.extend(reversed([(child, inner) for child in children(node)]))  # source order


def _flushes_outside_the_switch(source: str, relative: str) -> list[str]:
    """Each flush in `source` that the switch would not silence, as `relative:line what`."""
    found = []
    for node, function in _nodes_and_their_functions(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            # A name bound at import keeps the real flush when the test patches os.
            found += [
                f"{relative}:{node.lineno} from os import {alias.name}"
                for alias in node.names
                if alias.name in OS_FLUSHES
            ]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "os" and node.attr in OS_FLUSHES and node.attr not in SILENCED:
                found.append(f"{relative}:{node.lineno} os.{node.attr}")
        elif (
            isinstance(node, ast.Constant)
            and node.value == "syncfs"
            and (relative, function) != SYNCFS_HOME
        ):
            found.append(f"{relative}:{node.lineno} syncfs outside {SYNCFS_HOME}")
    return found


def test_the_code_flushes_only_in_the_ways_the_fast_tier_silences() -> None:
    sources = {path: path.read_text(encoding="utf-8") for path in sorted(APP.rglob("*.py"))}
    found = [
        flush
        for path, source in sources.items()
        # Every flush the check knows says "sync" (fsync, O_DSYNC, syncfs): a module that
        # does not is not parsed (a quarter of them are; parsing all cost ~2 s).
        if "sync" in source.lower()
        for flush in _flushes_outside_the_switch(source, path.relative_to(APP).as_posix())
    ]
    assert not found, f"flushes --no-fsync would not silence (tests/support/flushes.py): {found}"
    assert SYNCFS_HOME[1] in SILENCED
    assert all("sync" in name.lower() for name in OS_FLUSHES)  # what the test parses


def test_the_check_finds_a_flush_the_switch_misses() -> None:
    source = "import os\nfrom os import fdatasync\n\ndef f(fd):\n    os.fdatasync(fd)\n"
    assert _flushes_outside_the_switch(source, "x.py") == [
        "x.py:2 from os import fdatasync",
        "x.py:5 os.fdatasync",
    ]
    elsewhere = "def _syncfs(fd):\n    return getattr(libc, 'syncfs')(fd)\n"
    assert _flushes_outside_the_switch(elsewhere, "store/x.py") == [
        "store/x.py:2 syncfs outside ('fs/atomic.py', '_syncfs')"
    ]


def _makefile() -> str:
    return MAKEFILE.read_text(encoding="utf-8").replace("\\\n", " ")


def _prerequisites(target: str) -> list[str]:
    match = re.search(rf"^{re.escape(target)}:([^\n]*)$", _makefile(), re.MULTILINE)
    assert match, f"no {target} target in the Makefile"
    return match.group(1).split()


def _recipe(target: str) -> str:
    """The commands of Makefile `target`, continuation lines joined."""
    match = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)+)", _makefile(), re.MULTILINE)
    assert match, f"no {target} target in the Makefile"
    return match.group(1)


def test_ci_runs_every_test_with_real_flushes() -> None:
    assert re.search(r"^exec make test$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)
    assert "pytest" in _prerequisites("test")
    [pytest_line] = [line for line in _recipe("pytest").splitlines() if "-m pytest" in line]
    options = pytest_line.split("-m pytest", 1)[1].split()
    narrowing = [word for word in options if word.split("=")[0] in NARROWING]
    assert not narrowing, f"make test would not run every test: {pytest_line.strip()}"


def test_the_fast_tier_leaves_out_the_slow_tests_and_the_flushes() -> None:
    recipe = _recipe("test-fast")
    assert "--no-fsync" in recipe
    assert re.search(r"-m \"not slow\b", recipe), recipe


def test_make_keeps_the_bytecode_cache_on() -> None:
    # A machine's PYTHONDONTWRITEBYTECODE=1 made each test worker compile ~1,000 modules at
    # each collection, and each `memtab` a test starts compile what it imports (Makefile).
    assert re.search(r"^export PYTHONDONTWRITEBYTECODE :=$", _makefile(), re.MULTILINE)


def test_the_fast_tier_draws_fewer_property_examples_and_ci_all() -> None:
    assert "HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-quick}" in _recipe("test-fast")
    assert "HYPOTHESIS_PROFILE" not in _recipe("pytest")  # CI: `make test` runs this recipe
    quick = settings.get_profile("quick")
    assert quick.max_examples < settings.get_profile("repeatable").max_examples == FULL_COUNT
    assert quick.derandomize and quick.deadline is None


def test_a_tests_own_count_is_scaled_by_the_profile() -> None:
    settings.register_profile("before-this-test", settings())
    try:
        settings.load_profile("repeatable")
        assert examples(300) == 300
        settings.load_profile("quick")
        assert (examples(300), examples(40), examples(3)) == (75, 10, 1)
    finally:
        settings.load_profile("before-this-test")


def test_every_property_tests_own_count_follows_the_profile() -> None:
    tests = ROOT / "tests"
    fixed = [
        f"{path.relative_to(tests)}:{text.count(chr(10), 0, match.start()) + 1}"
        for path in sorted(tests.rglob("test_*.py"))
        if "max_examples" in (text := path.read_text(encoding="utf-8"))
        for match in re.finditer(r"\bmax_examples=(?!examples\()", text)
    ]
    assert fixed == [], "write max_examples=examples(n) (tests/support/property_examples.py)"
