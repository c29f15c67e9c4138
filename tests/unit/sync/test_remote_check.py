"""Test connection (File → Sync…): what a remote holds, or why it cannot be used — said
as what to do — changing nothing here; a remote that would run a program is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.sync.repository.git import GitError, classify_network_error, describe_remote_error
from memtab.sync.service import SyncError, SyncService, check_remote
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


@pytest.mark.parametrize(
    ("stderr", "said"),
    [
        (
            "git@github.com: Permission denied (publickey). fatal: Could not read from "
            "remote repository.",
            "git@github.com:you/memory.git refused your credentials",
        ),
        (
            "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
            "git@github.com:you/memory.git refused your credentials",
        ),
        (
            "ssh: Could not resolve hostname gihub.com: Name or service not known",
            "Cannot reach git@github.com:you/memory.git",
        ),
        ("ERROR: Repository not found.", "There is no git repository at"),
    ],
)
def test_git_words_are_said_as_what_to_do(stderr: str, said: str) -> None:
    error = GitError(stderr, classify_network_error(stderr))
    message = describe_remote_error("git@github.com:you/memory.git", error)
    assert message.startswith(said) and stderr in message
    if error.kind == "auth":
        assert "ssh-add" in message and "never asks for a password" in message
