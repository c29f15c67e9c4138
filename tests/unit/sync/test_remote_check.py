"""Test connection (File → Sync…): what a remote holds, or why it cannot be used — said
as what to do — changing nothing here; a remote that would run a program is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.sync.remote_check import check_remote
from memtab.sync.service import SyncError, SyncService
from support.sync_machines import Machine


@pytest.fixture
def service(tmp_path: Path) -> SyncService:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    return SyncService(home)


def test_an_empty_remote_and_one_with_memory(
    service: SyncService, remote: Path, alpha: Machine
) -> None:
    assert check_remote(service, str(remote)).message == (
        f"Reached {remote}: an empty repository; the first sync fills it"
    )
    alpha.write("/memories/global/a.md", "a\n")
    alpha.sync()
    found = check_remote(service, f"  file://{remote}  ")
    assert found.head is not None and found.branches == ("main",)
    assert "its branch main has memory" in found.message
    assert not service.paths.root.exists()  # nothing of the home changed


@pytest.mark.parametrize(
    ("remote", "words"),
    [
        ("", "The remote is empty"),
        ("nowhere.git", "There is no git repository at nowhere.git"),
        ("ext::sh -c touch% {marker}", "Memtab does not use git's remote helpers ('ext::'"),
        ("-oProxyCommand=touch {marker}", "starts with '-'"),
        ("/a\nb", "a line break or a control character"),
    ],
)
def test_a_remote_that_cannot_be_used_is_said_so(
    service: SyncService, tmp_path: Path, remote: str, words: str
) -> None:
    marker = tmp_path / "ran"
    with pytest.raises(SyncError) as raised:
        check_remote(service, remote.format(marker=marker))
    assert str(raised.value).startswith(words) or words in str(raised.value)
    assert not marker.exists()


def test_init_says_the_same(service: SyncService, tmp_path: Path) -> None:
    with pytest.raises(SyncError, match=r"There is no git repository at .*git init --bare"):
        service.init(str(tmp_path / "nowhere.git"), [])
    with pytest.raises(SyncError, match="remote helpers"):
        service.init("ext::sh -c true", [])
    assert not (service.paths.root / "memory").exists()
