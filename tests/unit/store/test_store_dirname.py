"""Project identity on disk: dirName(projectPath) = `<base>-<hash12>` (docs/formats.md §2.3)."""

from __future__ import annotations

import hashlib
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.store.home import Home
from memtab.store.paths import project_dir_name

WINDOWS = sys.platform == "win32"


def _hash12(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def test_documented_example() -> None:
    path = "/home/alice/mux"
    assert project_dir_name(path) == "mux-" + _hash12(b"/home/alice/mux")


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("/home/alice/my project", "my_project"),
        ("/home/alice/my.repo-v2_final", "my.repo-v2_final"),
        ("/home/alice/..", ".."),
        # As mux's PlatformPaths.basename: `\` separates only on Windows.
        ("C:\\Users\\bob\\repo", "repo" if WINDOWS else "C__Users_bob_repo"),
        ("/mixed/dir\\sub", "sub" if WINDOWS else "dir_sub"),
        ("/home/a/weird\\name", "name" if WINDOWS else "weird_name"),
        ("/x/rocket🚀", "rocket__"),  # an astral char is two UTF-16 units
        ("/x/项目", "__"),  # BMP CJK: one unit each
        ("/x/Ünïcödé", "_n_c_d_"),
        ("/x/tab\there", "tab_here"),
        ("/x/" + "a" * 60, "a" * 40),
        ("/x/" + "é" * 45, "_" * 40),
        ("/x/" + "🚀" * 25, "_" * 40),  # 50 units cut to 40
        ("/x/" + "a" * 39 + "🚀", "a" * 39 + "_"),  # the cut splits the pair's units
        ("/home/alice/mux/", "unknown"),  # trailing slash: the basename is empty
        ("", "unknown"),
        ("/", "unknown"),
        ("plain", "plain"),
    ],
)
def test_base_name_rules(path: str, base: str) -> None:
    assert project_dir_name(path) == f"{base}-{_hash12(path.encode('utf-8'))}"


def test_lone_surrogate_is_one_unit_and_hashes_as_replacement_char() -> None:
    path = "/x/a\ud800b"
    expected_hash = _hash12("/x/a\ufffdb".encode())
    assert project_dir_name(path) == f"a_b-{expected_hash}"


@pytest.mark.parametrize(
    ("first", "second"),
    [("/a/b", "/a/b/"), ("/a/b", "/a//b"), ("/a/b", "/A/b"), ("/a/b", "/a/./b")],
)
def test_hash_is_over_the_exact_path_without_normalization(first: str, second: str) -> None:
    assert project_dir_name(first)[-12:] != project_dir_name(second)[-12:]
    assert project_dir_name(first)[-12:] == _hash12(first.encode())
    assert project_dir_name(second)[-12:] == _hash12(second.encode())


def test_project_root_uses_the_dir_name(home: Home) -> None:
    assert home.project_root("/home/alice/mux") == (
        home.root / "memory" / "project" / project_dir_name("/home/alice/mux")
    )


_DIR_NAME = re.compile(r"^[A-Za-z0-9._-]{1,40}-[0-9a-f]{12}$")


@given(st.text())
def test_any_path_gives_a_safe_single_segment_name(path: str) -> None:
    name = project_dir_name(path)
    assert _DIR_NAME.match(name), name
    assert name not in {".", ".."}
