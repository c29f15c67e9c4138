"""A sync killed between its merge and the branch: the next one finishes it, nothing is lost
(killed at random points: test_sync_random_kills.py)."""

from __future__ import annotations

import pytest

from memtab.sync.importer import Importer
from memtab.sync.repository.git import Git
from support.sync_machines import Machine, virtual

NOTES = "/memories/global/notes.md"


class _Killed(BaseException):
    """The process died here (nothing of the sync's own clean-up runs after a kill but
    the lock's release, which the kernel does)."""


# slow: starts other processes (a sync killed midway; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_a_sync_killed_between_its_merge_and_the_branch_finishes_next_time(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.publish(NOTES, "a\nb\nc\n", beta)
    alpha.write(NOTES, "A\nb\nc\n")
    alpha.sync()
    beta.write(NOTES, "a\nb\nC\n")
    beta.write("/memories/global/beta.md", "beta's\n")

    def killed(*_args: object) -> None:
        raise _Killed

    with monkeypatch.context() as patch:
        patch.setattr(Importer, "bring_in", killed)
        with pytest.raises(_Killed):
            beta.service.sync()  # the merge commit is written, the branch did not move
    # What else a kill leaves: a ref's lock, the state's temp file, a pack half written.
    repository = beta.sync_dir / "repo.git"
    (repository / "refs" / "heads" / "main.lock").write_text("0" * 40 + "\n")
    (beta.sync_dir / ".state.json.0123abcd.tmp").write_text('{"head": ')
    (repository / "objects" / "pack" / "tmp_pack_Xy12").write_bytes(b"PACK")
    alpha.write(NOTES, "A\nb\nc\nd\n")
    alpha.sync()  # and the merge it made is stale now: the remote moved on

    report = beta.sync()

    assert report.targets[0].status == "synced"
    alpha.sync()
    assert alpha.text(NOTES) == beta.text(NOTES) == "A\nb\nC\nd\n"
    assert alpha.text("/memories/global/beta.md") == "beta's\n"
    assert sorted(p.name for p in beta.sync_dir.iterdir()) == ["repo.git", "state.json"]
    assert not (repository / "refs" / "heads" / "main.lock").exists()
    assert not list((repository / "objects" / "pack").glob("tmp_*"))


# slow: syncs of two machines (~1 s of CPU, git's included)
@pytest.mark.slow
def test_uses_a_sync_sent_before_it_was_killed_are_not_sent_again(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.publish(NOTES, "a\n", beta)
    alpha.store.record_read(virtual(NOTES))
    assert alpha.store.meta_entries()["global:notes.md"].access_count == 2

    def killed(*_args: object, **_kwargs: object) -> None:
        raise _Killed

    with monkeypatch.context() as patch:
        patch.setattr(Git, "push", killed)
        with pytest.raises(_Killed):
            alpha.service.sync()  # the export sent the use; killed before the state was
    alpha.sync()
    beta.sync()
    alpha.sync()

    counts = {m.name: m.store.meta_entries()["global:notes.md"].access_count for m in (alpha, beta)}
    assert counts == {"alpha": 2, "beta": 2}
