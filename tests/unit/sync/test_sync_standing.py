"""`memtab sync status` counts what waits in files: those changed here that the remote
does not have yet (edited, or committed by a sync that could not push), and those the
remote changed that are not here yet (as of the last fetch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from support.memory_paths import vpath
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"
TODO = "/memories/global/todo.md"


def test_what_waits_is_counted_in_files(alpha: Machine, beta: Machine, remote: Path) -> None:
    alpha.publish(NOTES, "one\n", beta)
    alpha.write(NOTES, "one\ntwo\n")
    alpha.write(TODO, "- a\n")
    alpha.write(TODO, "- a\n- b\n")  # two saves, one file
    state = alpha.service.status().targets[0]
    assert state.to_send == (NOTES, TODO) and state.to_receive == ()

    away = remote.with_name("away.git")
    remote.rename(away)
    assert alpha.service.sync().offline  # committed here, not sent
    state = alpha.service.status().targets[0]
    assert state.ahead >= 2 and state.local_changes == 0
    assert state.to_send == (NOTES, TODO)
    away.rename(remote)
    alpha.sync()
    assert alpha.service.status().targets[0].to_send == ()

    state = beta.service.status(fetch=True).targets[0]
    assert state.to_receive == (NOTES, TODO) and state.to_send == ()
    beta.sync()
    assert beta.service.status().targets[0].to_receive == ()


def test_pins_are_not_counted_as_files(alpha: Machine, beta: Machine) -> None:
    alpha.publish(NOTES, "one\n", beta)
    alpha.store.set_pinned(vpath(NOTES), True)
    alpha.sync()
    state = beta.service.status(fetch=True).targets[0]
    assert state.behind == 1 and state.to_receive == ()


def test_status_names_the_files_that_wait(
    alpha: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha.write(NOTES, "one\n")
    assert main(["--home", str(alpha.home.root), "sync", "status", "--json"]) == 0
    target = json.loads(capsys.readouterr().out)["targets"][0]
    assert target["toSend"] == [NOTES] and target["toReceive"] == []
    assert main(["--home", str(alpha.home.root), "sync", "status"]) == 0
    assert f"  to send: {NOTES}" in capsys.readouterr().out.splitlines()
