"""The runtime folder's files are the user's own (docs/formats.md §22.8): a folder holding
another user's entry is never used, and the bridge opens its files there never through a
link (`O_NOFOLLOW`), never truncating one — a link planted while the folder was open to
others keeps its target's bytes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from memtab.agent_server.bridge.pump import NoHostError
from memtab.agent_server.bridge.reach import MAX_LOG_BYTES, open_host_log, reach
from memtab.agent_server.bridge.rendezvous import (
    PlantedError,
    Rendezvous,
    rendezvous,
    runtime_folder,
)

TWO_MB = b"precious bytes\n" * (2 * 1024 * 1024 // 15)


@pytest.fixture
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temp folder with a short path (a socket's path holds at most 107 bytes)."""
    return tmp_path_factory.mktemp("r")


@pytest.fixture
def place(short: Path) -> Rendezvous:
    (short / "run").mkdir()
    return rendezvous("/h", {"XDG_RUNTIME_DIR": str(short / "run"), "HOME": "/u"})


@pytest.fixture
def precious(short: Path) -> Path:
    """A 2 MB file of the user's, elsewhere."""
    target = short / "precious.bin"
    target.write_bytes(TWO_MB)
    return target


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's entry needs root")
def test_a_folder_holding_another_users_entry_is_refused_and_no_other_is_tried(
    short: Path,
) -> None:
    runtime, tmp = short / "run", short / "tmp"
    runtime.mkdir()
    tmp.mkdir()
    env = {"XDG_RUNTIME_DIR": str(runtime), "TMPDIR": str(tmp)}
    folder = Path(runtime_folder(env))
    planted = folder / "mcp-x.log"
    planted.symlink_to(short / "elsewhere")
    os.chown(planted, 65534, 65534, follow_symlinks=False)
    with pytest.raises(PlantedError) as refused:
        runtime_folder(env)
    assert str(refused.value) == (
        f"{folder} holds mcp-x.log, which belongs to another user (uid 65534): someone could "
        "write there while it was open to others; remove it (or the folder) to share a warm "
        "server again"
    )
    assert not (tmp / f"memtab-{os.geteuid()}").exists()  # refused, not worked around


def test_a_link_at_the_log_keeps_its_targets_bytes(place: Rendezvous, precious: Path) -> None:
    Path(place.log).symlink_to(precious)
    with pytest.raises(NoHostError) as refused:
        open_host_log(place.log)
    assert str(refused.value) == (
        f"{place.log} is a link (never followed: someone else may have put it there)"
    )
    assert precious.read_bytes() == TWO_MB


def test_a_hard_link_at_the_log_keeps_its_bytes(place: Rendezvous, precious: Path) -> None:
    os.link(precious, place.log)
    with pytest.raises(NoHostError) as refused:
        open_host_log(place.log)
    assert "is not the shared server's own log" in str(refused.value)
    assert precious.read_bytes() == TWO_MB


def test_a_fifo_at_the_log_is_never_waited_on(place: Rendezvous) -> None:
    os.mkfifo(place.log)
    with pytest.raises(NoHostError) as refused:
        open_host_log(place.log)
    assert str(refused.value) == f"{place.log} is a FIFO (never written into)"


def test_the_log_is_private_and_emptied_in_place_past_its_cap(place: Rendezvous) -> None:
    log = Path(place.log)
    log.write_bytes(b"x" * (MAX_LOG_BYTES + 1))
    os.chmod(log, 0o644)
    before = log.stat().st_ino
    handle = open_host_log(place.log)
    try:
        os.write(handle, b"fresh\n")
    finally:
        os.close(handle)
    assert log.read_bytes() == b"fresh\n" and log.stat().st_ino == before
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    kept = open_host_log(place.log)  # under the cap: appended to
    os.close(kept)
    assert log.read_bytes() == b"fresh\n"


def test_a_link_at_the_start_lock_is_never_followed(place: Rendezvous, precious: Path) -> None:
    Path(place.start_lock).symlink_to(precious)
    with pytest.raises(NoHostError) as refused:
        reach(place, b"{}\n", None, {})
    assert str(refused.value) == (
        f"{place.start_lock} is a link (never followed: someone else may have put it there)"
    )
    assert precious.read_bytes() == TWO_MB
