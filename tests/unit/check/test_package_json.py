"""package.json as the check reads it (docs/formats.md §19: `missing-script`): its
scripts, the programs its `bin` installs and its dependencies' — a table of the wrong
type reads as empty, the others kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check.scripts import node_package


def _package(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "package.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_package_reads_whole(tmp_path: Path) -> None:
    package = node_package(_package(tmp_path, {
        "name": "@acme/tool", "bin": {"acme": "cli.js", "acme-dev": "dev.js"},
        "scripts": {"build": "tsc", "test": "vitest"},
        "dependencies": {"@scope/eslint": "1"}, "devDependencies": {"vitest": "1"},
        "peerDependencies": {"react": "1"}, "optionalDependencies": {"fsevents": "1"},
        "other": [1],
    }))  # fmt: skip
    assert package.scripts.names == {"build", "test"} and package.problem is None
    assert package.programs == {"acme", "acme-dev", "eslint", "vitest", "react", "fsevents"}


def test_a_bin_as_a_string_installs_the_packages_name(tmp_path: Path) -> None:
    package = node_package(_package(tmp_path, {"name": "@acme/tool", "bin": "cli.js"}))
    assert package.programs == {"tool"}
    assert node_package(_package(tmp_path, {"bin": "cli.js"})).programs == frozenset()
    assert node_package(_package(tmp_path, {"name": 3, "bin": "cli.js"})).programs == frozenset()


@pytest.mark.parametrize("bad", [None, 3, "build", ["build"], True])
def test_a_table_of_the_wrong_type_reads_as_empty(tmp_path: Path, bad: object) -> None:
    package = node_package(_package(tmp_path, {
        "name": "x", "scripts": bad, "bin": bad if bad != "build" else 3,
        "dependencies": bad, "devDependencies": {"vitest": "1"},
        "peerDependencies": bad, "optionalDependencies": bad,
    }))  # fmt: skip
    assert package.scripts.names == frozenset() and package.programs == {"vitest"}


@pytest.mark.parametrize("document", [[1], "package", 3, None])
def test_a_package_that_is_no_object_defines_nothing(tmp_path: Path, document: object) -> None:
    package = node_package(_package(tmp_path, document))
    assert package.scripts.names == frozenset() and package.programs == frozenset()
    assert package.problem is None


@pytest.mark.parametrize(
    ("manager", "provides"),
    [("pnpm@9.12.0", {"pnpm"}), ("yarn@4.5.0+sha512.abc", {"yarn"}), ("", set()), (3, set())],
)
def test_its_package_manager_is_a_program_it_provides(
    tmp_path: Path, manager: object, provides: set[str]
) -> None:
    """Node's Corepack runs the `packageManager` a package names: a memory's `pnpm gen:api`
    is true of a project that names pnpm there, wherever pnpm is not installed."""
    package = node_package(_package(tmp_path, {"name": "x", "packageManager": manager}))
    assert package.programs == provides
