"""Running git: failures told apart, no prompt, the file system's locks checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.fs.locking.filesystems import filesystem_of, parse_mountinfo, probe_locks
from memtab.sync.repository.git import (
    Git,
    Identity,
    branch_problem,
    classify_network_error,
    find_git,
)
from memtab.sync.repository.objects import NewCommit
from memtab.sync.repository.writing import Repository
from support.sync_machines import bare_repository


@pytest.mark.parametrize(
    ("stderr", "kind"),
    [
        ("ssh: Could not resolve hostname nas.local: Name or service not known", "offline"),
        ("fatal: unable to access 'https://example.com/r.git/': Failed to connect", "offline"),
        (
            "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote",
            "auth",
        ),
        (
            "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
            "auth",
        ),
        ("fatal: '/mnt/nas/memory.git' does not appear to be a git repository", "missing"),
        ("remote: Repository not found.", "missing"),
        ("error: something else", "failed"),
    ],
)
def test_network_failures_are_told_apart(stderr: str, kind: str) -> None:
    assert classify_network_error(stderr) == kind


def test_an_ssh_remote_never_waits_for_a_password(tmp_path: Path) -> None:
    git = Git(bare_repository(tmp_path / "r.git"))
    git.init("ssh://nobody@127.0.0.1:1/nothing.git", "main")
    from memtab.sync.repository.git import GitError

    with pytest.raises(GitError) as failure:
        git.fetch("main", timeout_s=20)
    assert failure.value.kind in ("offline", "auth")


def test_contents_go_in_and_out_byte_for_byte(tmp_path: Path) -> None:
    repo = Repository(Git(bare_repository(tmp_path / "r.git")), Identity("T", "t@example"))
    odd = {
        "global/crlf.md": b"a\r\nb\r\n",
        "global/no newline.md": b"end",
        'global/quote".md': b"\xff\xfe not utf-8",
        "global/\u00e9t\u00e9.md": "été\n".encode(),
    }
    [first] = repo.write("refs/heads/main", None, [NewCommit(odd, "one\n")])
    [second] = repo.write("refs/heads/main", first, [NewCommit({"global/crlf.md": None}, "two\n")])
    files = repo.files(second)
    assert set(files) == set(odd) - {"global/crlf.md"}
    assert repo.blobs(files.values()) == {repo.git.blob_id(odd[p]): odd[p] for p in files}
    assert repo.resolve("refs/heads/main") == second
    assert repo.resolve("refs/heads/none") is None
    repo.close()


def test_contents_stream_in_order_and_a_stream_left_early_leaves_the_reader_ready(
    tmp_path: Path,
) -> None:
    # A joining machine writes each file as git hands its content over, and stops taking
    # them when a write fails: the answers it never read must not be the next question's.
    remote = bare_repository(tmp_path / "r.git")
    files = {f"global/note-{n}.md": f"note {n}\n".encode() for n in range(5)}
    writer = Repository(Git(remote), Identity("T", "t@example"))
    writer.write("refs/heads/main", None, [NewCommit(dict(files), "one\n")])
    writer.close()
    repo = Repository(Git(remote), Identity("T", "t@example"))  # nothing read yet
    contents = [files[path] for path in sorted(files)]
    oids = [repo.git.blob_id(data) for data in contents]
    assert repo.readable(oids) == set(oids)
    stream = repo.stream(oids)
    assert next(stream) == contents[0]
    stream.close()

    assert list(repo.stream([*oids, oids[1]])) == [*contents, contents[1]]
    assert repo.blobs(oids) == dict(zip(oids, contents, strict=True))
    repo.close()


MOUNTINFO = """\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
40 22 0:35 / /home/alice/nas rw,relatime shared:20 - nfs4 nas:/export/alice rw,vers=4.2
41 22 0:36 / /home/alice/my\\040drive rw - fuse.rclone gdrive: rw
"""


def test_the_file_system_of_a_home_is_read_from_the_mount_table(tmp_path: Path) -> None:
    table = tmp_path / "mountinfo"
    table.write_text(MOUNTINFO)
    assert [m.type for m in parse_mountinfo(MOUNTINFO)] == ["ext4", "nfs4", "fuse.rclone"]
    nas = filesystem_of(Path("/home/alice/nas/.xum"), table)
    assert nas is not None and nas.network and nas.remote
    drive = filesystem_of(Path("/home/alice/my drive/home"), table)
    assert drive is not None and drive.fuse and drive.remote and drive.mount_point.endswith("drive")
    local = filesystem_of(Path("/home/alice/.xum"), table)
    assert local is not None and not local.remote


def test_locks_are_probed_where_the_home_is(tmp_path: Path) -> None:
    assert probe_locks(tmp_path / "locks").works


def _counting_git(tmp_path: Path) -> tuple[str, Path]:
    """A git that logs each command it is asked to run, then runs the real one."""
    log = tmp_path / "git-calls.log"
    program = tmp_path / "git"
    program.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {find_git()} "$@"\n')
    program.chmod(0o755)
    return str(program), log


def test_a_branch_name_git_accepted_is_not_asked_again_and_a_refused_one_is(
    tmp_path: Path,
) -> None:
    program, log = _counting_git(tmp_path)
    assert branch_problem("memory/main", program) is None
    assert branch_problem("memory/main", program) is None
    assert branch_problem("bad..name", program) == "'bad..name' is not a branch name git accepts"
    assert branch_problem("bad..name", program) is not None
    assert log.read_text().splitlines() == [
        "check-ref-format refs/heads/memory/main",
        "check-ref-format refs/heads/bad..name",
        "check-ref-format refs/heads/bad..name",
    ]


def test_origin_is_read_from_the_config_and_again_after_init_changes_it(tmp_path: Path) -> None:
    # git's config is read once anyway (the identity, ssh): origin's URL is in it, and a
    # sync runs no git more to ask it.
    program, log = _counting_git(tmp_path)
    git = Git(bare_repository(tmp_path / "r.git"), git=program)
    git.init(str(tmp_path / "first.git"), "main")
    assert git.remote_url() == str(tmp_path / "first.git")
    assert git.remote_url() == str(tmp_path / "first.git")
    git.init(str(tmp_path / "second.git"), "main")
    assert git.remote_url() == str(tmp_path / "second.git")
    assert git.remote_url() == str(tmp_path / "second.git")
    calls = log.read_text().splitlines()
    assert not [line for line in calls if "remote get-url" in line]
    assert len([line for line in calls if "config --list" in line]) == 2


def test_origin_rewritten_by_the_users_config_is_asked_from_git(tmp_path: Path) -> None:
    program, log = _counting_git(tmp_path)
    git = Git(bare_repository(tmp_path / "r.git"), git=program)
    git.init("nas:memory.git", "main")
    git.run(["config", f"url.{tmp_path}/.insteadOf", "nas:"])
    fresh = Git(git.repo, git=program)
    assert fresh.remote_url() == f"{tmp_path}/memory.git"  # insteadOf applied: a local path
    assert len([line for line in log.read_text().splitlines() if "remote get-url" in line]) == 1
