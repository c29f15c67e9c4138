"""The memory home (docs/formats.md §1): where it is."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from memtab.store.home import resolve_home

from .helpers import write

# --- resolution order -------------------------------------------------------------------


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    """A fake user home directory (`~`)."""
    path = tmp_path / "user"
    path.mkdir()
    return path


def _all_env(tmp_path: Path) -> dict[str, str]:
    return {
        "MEMTAB_HOME": str(tmp_path / "memtab-home"),
        "XUM_ROOT": str(tmp_path / "xum-root"),
        "MUX_ROOT": str(tmp_path / "mux-root"),
    }


def _non_empty_xum(user_home: Path) -> Path:
    write(user_home / ".xum" / "config.json", "{}")
    return user_home / ".xum"


def test_cli_home_wins_over_every_other_rule(tmp_path: Path, user_home: Path) -> None:
    _non_empty_xum(user_home)
    location = resolve_home(str(tmp_path / "cli"), env=_all_env(tmp_path), user_home=user_home)
    assert location.path == tmp_path / "cli"
    assert location.source == "--home"


def test_memtab_home_beats_xum_and_mux_roots(tmp_path: Path, user_home: Path) -> None:
    location = resolve_home(None, env=_all_env(tmp_path), user_home=user_home)
    assert (location.path, location.source) == (tmp_path / "memtab-home", "MEMTAB_HOME")


def test_xum_root_beats_mux_root(tmp_path: Path, user_home: Path) -> None:
    env = _all_env(tmp_path)
    del env["MEMTAB_HOME"]
    location = resolve_home(None, env=env, user_home=user_home)
    assert (location.path, location.source) == (tmp_path / "xum-root", "XUM_ROOT")


def test_mux_root_is_an_alias_of_xum_root(tmp_path: Path, user_home: Path) -> None:
    _non_empty_xum(user_home)
    env = {"MUX_ROOT": str(tmp_path / "mux-root")}
    location = resolve_home(None, env=env, user_home=user_home)
    assert (location.path, location.source) == (tmp_path / "mux-root", "MUX_ROOT")


def test_blank_environment_values_are_ignored(tmp_path: Path, user_home: Path) -> None:
    env = {"MEMTAB_HOME": "  ", "MUX_ROOT": str(tmp_path / "mux-root")}
    assert resolve_home(None, env=env, user_home=user_home).source == "MUX_ROOT"


def test_a_set_but_blank_xum_root_hides_mux_root_as_in_mux(tmp_path: Path, user_home: Path) -> None:
    # mux reads `XUM_ROOT ?? MUX_ROOT`: "" is not nullish, and an empty root is unset.
    env = {"XUM_ROOT": "", "MUX_ROOT": str(tmp_path / "mux-root")}
    assert resolve_home(None, env=env, user_home=user_home).source == "Memtab"


def test_relative_and_tilde_homes_become_absolute(tmp_path: Path, user_home: Path) -> None:
    location = resolve_home("~/somewhere", env={}, user_home=user_home)
    assert location.path == Path(os.path.expanduser("~")) / "somewhere"
    assert resolve_home("rel/dir", env={}, user_home=user_home).path.is_absolute()


def test_non_empty_xum_is_used(user_home: Path) -> None:
    xum = _non_empty_xum(user_home)
    (user_home / ".mux").mkdir()
    location = resolve_home(None, env={}, user_home=user_home)
    assert (location.path, location.source) == (xum, "~/.xum")


def test_an_empty_xum_still_wins_over_mux_as_in_mux(user_home: Path) -> None:
    (user_home / ".xum").mkdir()
    write(user_home / ".mux" / "config.json", "{}")
    location = resolve_home(None, env={}, user_home=user_home)
    assert (location.path, location.source) == (user_home / ".xum", "~/.xum")


@pytest.mark.parametrize("leftover", [".mux", ".cmux"])
def test_the_legacy_fallback_marker_beats_an_empty_xum(user_home: Path, leftover: str) -> None:
    (user_home / ".xum").mkdir()
    write(user_home / leftover / "config.json", "{}")
    write(user_home / ".xum.legacy-fallback", f"{leftover}\n")
    location = resolve_home(None, env={}, user_home=user_home)
    assert (location.path, location.source) == (user_home / leftover, f"~/{leftover}")


@pytest.mark.parametrize("content", ["../elsewhere", "/tmp", ".xum", "", ".mux" + " " * 70])
def test_a_marker_naming_anything_else_is_ignored(user_home: Path, content: str) -> None:
    (user_home / ".xum").mkdir()
    (user_home / ".mux").mkdir()
    write(user_home / ".xum.legacy-fallback", content)
    assert resolve_home(None, env={}, user_home=user_home).source == "~/.xum"


def test_a_marker_that_is_a_symlink_is_ignored(user_home: Path) -> None:
    (user_home / ".xum").mkdir()
    (user_home / ".mux").mkdir()
    write(user_home / "target", ".mux")
    (user_home / ".xum.legacy-fallback").symlink_to(user_home / "target")
    assert resolve_home(None, env={}, user_home=user_home).source == "~/.xum"


def test_a_populated_xum_beats_the_marker(user_home: Path) -> None:
    xum = _non_empty_xum(user_home)
    (user_home / ".mux").mkdir()
    write(user_home / ".xum.legacy-fallback", ".mux")
    assert resolve_home(None, env={}, user_home=user_home).path == xum


def test_an_unreadable_xum_counts_as_populated(
    user_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (user_home / ".xum").mkdir()
    (user_home / ".mux").mkdir()
    write(user_home / ".xum.legacy-fallback", ".mux")
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:  # as if ~/.xum had mode 0o311 (tests may run as root)
        # (an fd too, as the real one takes: removing the test's temp files scans by fd)
        if not isinstance(path, int) and Path(path) == user_home / ".xum":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert resolve_home(None, env={}, user_home=user_home).source == "~/.xum"


def test_legacy_cmux_is_used_when_nothing_newer_exists(user_home: Path) -> None:
    write(user_home / ".cmux" / "config.json", "{}")
    location = resolve_home(None, env={}, user_home=user_home)
    assert (location.path, location.source) == (user_home / ".cmux", "~/.cmux")
    (user_home / ".mux").mkdir()
    assert resolve_home(None, env={}, user_home=user_home).source == "~/.mux"


def test_mux_symlink_to_xum_is_followed(user_home: Path) -> None:
    target = user_home / "real-xum"
    write(target / "config.json", "{}")
    (user_home / ".mux").symlink_to(target)
    location = resolve_home(None, env={}, user_home=user_home)
    assert location.path == target.resolve()
    assert location.source == "~/.mux"


def test_mux_symlink_elsewhere_resolves_to_its_target(tmp_path: Path, user_home: Path) -> None:
    target = tmp_path / "real-mux"
    target.mkdir()
    (user_home / ".mux").symlink_to(target)
    assert resolve_home(None, env={}, user_home=user_home).path == target.resolve()


@pytest.mark.parametrize("layout", ["nothing", "dangling-xum", "dangling-mux", "mux-is-a-file"])
def test_falls_back_to_the_platform_data_dir(user_home: Path, layout: str) -> None:
    if layout == "dangling-xum":
        (user_home / ".xum").symlink_to(user_home / "gone")
    elif layout == "dangling-mux":
        (user_home / ".mux").symlink_to(user_home / "gone")
    elif layout == "mux-is-a-file":
        write(user_home / ".mux", "not a directory")
    before = sorted(p.name for p in user_home.iterdir())
    location = resolve_home(None, env={}, user_home=user_home)
    assert location.path == Path(platformdirs.user_data_dir("memtab", appauthor=False))
    assert location.source == "Memtab"
    # Never creates ~/.xum or ~/.mux (nor anything else) for the user.
    assert sorted(p.name for p in user_home.iterdir()) == before


def test_xum_that_is_a_file_is_skipped(user_home: Path) -> None:
    write(user_home / ".xum", "file")
    write(user_home / ".mux" / "x", "")
    assert resolve_home(None, env={}, user_home=user_home).source == "~/.mux"


def test_resolution_uses_the_process_environment_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XUM_ROOT", str(tmp_path / "from-env"))
    assert resolve_home().path == tmp_path / "from-env"
