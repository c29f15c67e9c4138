"""`memtab --demo` starts from a fresh demo every run, and never deletes anything else."""

from __future__ import annotations

import argparse
import contextlib
import textwrap
from pathlib import Path

import pytest

from memtab.cli.main import _demo_home
from memtab.components.tree.scan import choose_workspace
from memtab.components.window.ui_state import UiState
from memtab.demo import DEMO_MARKER, MAIN_ID, DemoError, create_demo_home, open_fresh_demo
from memtab.fs.config.config_dir import config_dir
from memtab.llm.settings import ProviderSettings, resolve_provider_settings, save_provider_settings
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import load_recency, load_registry
from support.processes import python_child


def demo_args(screenshot: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(screenshot=screenshot, home=None, demo=True)


def test_every_run_starts_from_a_fresh_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "demo"
    monkeypatch.setenv("MEMTAB_DEMO_HOME", str(target))
    with contextlib.ExitStack() as run:
        home = _demo_home(demo_args(), run)
    notes = home / "memory" / "global" / "preferences.md"
    pristine = notes.read_text()
    notes.write_text("edited in the first run\n")
    (home / "memory" / "global" / "added.md").write_text("new\n")

    with contextlib.ExitStack() as run:
        assert _demo_home(demo_args(), run) == home
    assert notes.read_text() == pristine
    assert not (home / "memory" / "global" / "added.md").exists()


def test_a_screenshot_renders_a_pristine_demo_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "demo"
    monkeypatch.setenv("MEMTAB_DEMO_HOME", str(shared))
    with contextlib.ExitStack() as run:
        scratch = _demo_home(demo_args(screenshot="shot.png"), run)
        assert (scratch / DEMO_MARKER).is_file()
        assert scratch != shared
    assert not scratch.exists()  # removed after the run
    assert not shared.exists()  # the shared demo home was not touched


def test_a_directory_that_is_not_a_demo_home_is_never_replaced(tmp_path: Path) -> None:
    precious = tmp_path / "real"
    precious.mkdir()
    (precious / "notes.md").write_text("mine\n")

    with pytest.raises(DemoError, match="not a Memtab demo home"):
        open_fresh_demo(precious)
    assert (precious / "notes.md").read_text() == "mine\n"


def test_the_platform_demo_directory_from_before_the_marker_is_replaced(tmp_path: Path) -> None:
    legacy = tmp_path / "memtab-demo"
    create_demo_home(legacy)
    (legacy / DEMO_MARKER).unlink()
    (legacy / "memory" / "global" / "leftover.md").write_text("old run\n")

    session = open_fresh_demo(legacy, replace_unmarked=True)
    session.release()
    assert session.fresh
    assert not (legacy / "memory" / "global" / "leftover.md").exists()


def test_a_demo_open_in_another_memtab_is_shown_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "demo"
    holder = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from memtab.demo import open_fresh_demo
        session = open_fresh_demo(Path(sys.argv[1]))
        print("ready", flush=True)
        sys.stdin.readline()
        """
    )
    with python_child(holder, str(target), ready="ready"):
        edited = target / "memory" / "global" / "preferences.md"
        edited.write_text("edited in the other window\n")

        session = open_fresh_demo(target)
        session.release()
        assert not session.fresh
        assert edited.read_text() == "edited in the other window\n"


def test_the_demo_has_settings_and_window_state_of_its_own_gone_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: the demo wrote Settings to the real settings.json, and one run's badges
    showed in the next fresh demo."""
    monkeypatch.setenv("MEMTAB_DEMO_HOME", str(tmp_path / "demo"))
    real = config_dir()
    with contextlib.ExitStack() as run:
        home = _demo_home(demo_args(), run)
        assert config_dir() == home / "memtab" / "config"
        save_provider_settings(ProviderSettings("openai", "llama3", "http://localhost:11434/v1"))
        state = UiState.load()
        state.set_badges(home, {"/memories/global/git.md": {"by": "mux"}})
        assert state.save()
        assert (home / "memtab" / "config" / "ui-state.json").is_file()
    assert config_dir() == real  # the user's again once the demo is over
    assert not (real / "settings.json").exists() and not (real / "ui-state.json").exists()

    with contextlib.ExitStack() as run:
        home = _demo_home(demo_args(), run)
        assert resolve_provider_settings().is_offline  # a fresh demo's own settings
        assert UiState.load().badges_for(home) == {}


def test_a_demo_open_elsewhere_is_shown_with_its_settings_and_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "demo"
    monkeypatch.setenv("MEMTAB_DEMO_HOME", str(target))
    with contextlib.ExitStack() as first:
        home = _demo_home(demo_args(), first)
        state = UiState.load()
        state.set_badges(home, {"/memories/global/git.md": {"by": "mux"}})
        state.save()
        with contextlib.ExitStack() as second:  # while the first still holds the demo
            assert _demo_home(demo_args(), second) == home  # shown as it is
            assert UiState.load().badges_for(home) == {"/memories/global/git.md": {"by": "mux"}}
            assert config_dir() == home / "memtab" / "config"


def test_the_first_screen_does_not_open_on_a_failed_harvest(tmp_path: Path) -> None:
    home = create_demo_home(tmp_path / "demo")
    journal = Journal(home).load()
    # The workspace the window opens on, as its first scan chooses it.
    first, _note = choose_workspace(load_registry(home), None, load_recency(home), True)
    assert first is not None and first.id == MAIN_ID
    latest = max(journal.harvests[MAIN_ID].values(), key=lambda h: h.sort_time)
    assert latest.status == "completed"
    # A failure is still in the demo, for whoever looks further.
    statuses = [h.status for records in journal.harvests.values() for h in records.values()]
    assert "failed" in statuses
