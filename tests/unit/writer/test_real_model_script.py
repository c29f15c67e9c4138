"""`scripts/real-model` runs on main (issue 95: two imports had moved and it no longer
started): it imports, its `--help` runs, and its writer run and consolidation plan go through
the real provider against the project's fake model server, recording what a cassette keeps."""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from memtab.llm.settings import ProviderSettings
from support.fake_model_server import FakeModelServer
from support.real_model import STORE_FIXTURES, WriterFixture, store_files
from support.writer_sessions import SESSIONS, session_path

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "real-model"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("real_model_script", str(SCRIPT))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # its dataclasses look their module up
    loader.exec_module(module)
    return module


def test_its_help_runs(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        script.main(["--help"])
    assert ended.value.code == 0
    assert "--sessions" in capsys.readouterr().out


def test_a_writer_run_goes_through_the_real_provider_and_is_recorded(
    script: ModuleType, fake_model_server: FakeModelServer
) -> None:
    session = SESSIONS[0]
    rule = {"kind": "preference", "lesson": "Never commit to main.", "evidence": "never commit"}
    fake_model_server.add_openai_reply("", [("record_lessons", {"lessons": [rule]})])
    settings = ProviderSettings("openai", "qwen", fake_model_server.openai_base_url)
    args = argparse.Namespace(timeout=60.0)
    fixture = WriterFixture(session.name, str(session_path(session)))
    run = script.run_writer_on(fixture, settings, args)
    assert (run["outcome"], run["error"]) == ("wrote", None)
    assert "Never commit directly to main." in script.notes_of(run)  # beside the offline notes
    [exchange] = run["exchanges"]
    assert exchange["request"]["tools"] == ["record_lessons", "no_new_memories"]
    assert fake_model_server.requests[-1].body["temperature"] == 0.0
    assert script.score(session, [run, run])["same"] is True


def test_a_consolidation_plan_goes_through_the_real_provider(
    script: ModuleType, fake_model_server: FakeModelServer
) -> None:
    store = STORE_FIXTURES[0]
    views = [("memory", {"command": "view", "path": path}) for path in store_files(store)]
    fake_model_server.add_openai_reply("", [("memory", {"command": "view", "path": "/memories"})])
    fake_model_server.add_openai_reply("", views)
    fake_model_server.add_openai_reply("Nothing to change: each file says its own thing.")
    settings = ProviderSettings("openai", "qwen", fake_model_server.openai_base_url)
    args = argparse.Namespace(consolidate_timeout=60.0)
    run = script.run_consolidation_on(store, settings, args)
    assert (run["outcome"], run["ops"]) == ("planned", [])
    assert len(run["exchanges"]) == 3 and run["files"]
