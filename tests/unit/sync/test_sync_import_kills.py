"""A sync killed at any write of its import: the next one knows what the import wrote as
sync's own and finishes it; no edit made here is lost (issue 49; docs/formats.md §18.3).

The case filed: alpha, beta and gamma share notes; beta renames f1.md to h1.md; alpha
appends a line to f1.md; alpha's sync brings the rename in as "delete f1.md, write h1.md"
and is killed after a write. Wherever the kill falls, the three machines end as a sync
that was not killed leaves them: h1.md with alpha's line and no f1.md, every other edit
(a conflict still a conflict), pins and uses counted once, the same history, trash and
runs log, nothing else pending and nothing left in the target's folder."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.store.history.runs import RunsLog
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.store.restore.from_history import trash
from memtab.sync.conflicts.resolve import find_conflict, resolve_conflict
from memtab.sync.service import SyncError
from memtab.sync.state import load_state
from support.memory_paths import vpath
from support.sync_faults import Killed, anywhere, in_scopes, killed_at_write
from support.sync_machines import Machine, bare_repository, virtual

G = "/memories/global"
F0, F1, F2, H1, C = (f"{G}/{name}.md" for name in ("f0", "f1", "f2", "h1", "c"))
ALPHAS_LINE = "alpha's line"
NAMES = ("alpha", "beta", "gamma")
Outcome = dict[str, object]


@pytest.fixture
def start(tmp_path: Path) -> Path:
    """Three machines sharing f0–f2.md and c.md, then, each synced in turn: gamma added a
    line to f0.md; beta renamed f1.md to h1.md, added a line to f2.md, pinned f0.md, read
    f2.md and changed c.md's second line; alpha (not synced) added a line to f1.md, read
    f0.md and changed c.md's second line otherwise. Copied for each run (`_copy`)."""
    root = tmp_path / "start"
    remote = bare_repository(root / "remote.git")
    alpha, beta, gamma = (Machine.create(root, name) for name in NAMES)
    for machine in (alpha, beta, gamma):
        machine.connect(remote)
    for number in range(3):
        alpha.write(f"{G}/f{number}.md", f"file {number}\n")
    alpha.write(C, "one\ntwo\nthree\n")
    alpha.store.set_pinned(vpath(F2), True)
    for machine in (alpha, beta, gamma):
        machine.sync()
    gamma.write(F0, "file 0\ngamma's line\n")
    gamma.sync()
    beta.store.move(vpath(F1), vpath(H1))
    beta.write(F2, "file 2\nbeta's line\n")
    beta.store.set_pinned(vpath(F0), True)
    beta.store.record_read(virtual(F2))
    beta.write(C, "one\ntwo from beta\nthree\n")
    beta.sync()
    alpha.write(F1, f"file 1\n{ALPHAS_LINE}\n")
    alpha.store.record_read(virtual(F0))
    alpha.write(C, "one\ntwo from alpha\nthree\n")
    return root


def _copy(start: Path, root: Path) -> tuple[Machine, ...]:
    """The machines and their remote in `start`, copied to `root`."""
    shutil.copytree(start, root, symlinks=True)
    for name in NAMES:
        sync_dir = root / name / "memtab" / "sync"
        for named in (sync_dir / "config.json", sync_dir / "memory" / "repo.git" / "config"):
            named.write_text(named.read_text().replace(str(start), str(root)))
    return tuple(Machine.create(root, name) for name in NAMES)


def _synced_on(alpha: Machine, beta: Machine, gamma: Machine) -> Outcome:
    """Alpha syncs (finishing what a kill left), then beta, gamma and alpha: the outcome."""
    report = alpha.sync().targets[0]
    assert report.status == "conflicts", report  # c.md, as a sync not killed leaves it
    for machine in (beta, gamma, alpha):
        machine.sync()
    return _outcome(alpha, beta, gamma)


def _outcome(alpha: Machine, beta: Machine, gamma: Machine) -> Outcome:
    """What a run is compared by: the machines' files, pins and uses; alpha's history
    (each version's path, who made it, how), trash, sync runs, conflicts and pending
    files, and what is left in its target's folder."""
    versions = ScopeHistory(alpha.home, alpha.store.history_key(Scope.GLOBAL)).versions()
    return {
        **{machine.name: machine.files() for machine in (alpha, beta, gamma)},
        "pins and uses": {
            machine.name: {
                key: (entry.pinned, entry.access_count)
                for key, entry in sorted(machine.store.meta_entries().items())
            }
            for machine in (alpha, beta, gamma)
        },
        "history": sorted((v.path, v.actor, v.op, v.deleted) for v in versions),
        "trash": [(item.path, item.actor) for item in trash(alpha.store)],
        "brought in": sorted(
            (op.command, op.path) for run in RunsLog(alpha.home).runs(kind="sync") for op in run.ops
        ),
        "pending": {
            path: (record.kind, record.base, record.remote)
            for path, record in load_state(alpha.sync_dir / "state.json").pending.items()
        },
        "left": sorted(path.name for path in alpha.sync_dir.iterdir()),
    }


def _killed_at(
    start: Path, root: Path, monkeypatch: pytest.MonkeyPatch, kill_at: int, *, scopes: bool = False
) -> tuple[bool, tuple[Machine, ...]]:
    """The machines copied to `root`, alpha's sync killed at its `kill_at`th write after
    the merge (0: not killed; with `scopes`, counting only the memory files' writes):
    whether the kill fell, and the machines."""
    machines = _copy(start, root)
    counted = in_scopes if scopes else anywhere
    # It dies there; the next sync finds what it left.
    with killed_at_write(monkeypatch, kill_at, counted) as writes, contextlib.suppress(Killed):
        machines[0].sync()
    return writes.killed, machines


@pytest.fixture
def not_killed(start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    killed, machines = _killed_at(start, tmp_path / "not-killed", monkeypatch, 0)
    assert not killed
    outcome = _synced_on(*machines)
    alpha_c = {C: "one\ntwo from alpha\nthree\n"}
    shared = {
        F0: "file 0\ngamma's line\n",
        H1: f"file 1\n{ALPHAS_LINE}\n",
        F2: "file 2\nbeta's line\n",
    }
    assert outcome["alpha"] == {**shared, **alpha_c}
    assert outcome["beta"] == outcome["gamma"] == {**shared, C: "one\ntwo from beta\nthree\n"}
    return outcome


def _assert_like(outcome: Outcome, not_killed: Outcome, kill_at: int) -> None:
    for what, expected in not_killed.items():  # one by one: the first to differ is said
        assert outcome[what] == expected, f"{what}, killed at write {kill_at}"


# slow: syncs of three machines and their set-up (~3 s of CPU, git's included)
@pytest.mark.slow
def test_a_sync_killed_once_the_rename_removed_the_file_keeps_the_edit_made_to_it(
    start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, not_killed: Outcome
) -> None:
    # The kill filed: right after the import's first change of a memory file, f1.md
    # removed (the rename's first half), h1.md not written, the removal not in history.
    killed, machines = _killed_at(start, tmp_path / "killed", monkeypatch, 1, scopes=True)
    assert killed
    assert machines[0].files().keys() == {F0, F2, C}
    _assert_like(_synced_on(*machines), not_killed, 1)


# slow: a sync killed at each of its ~30 writes after the merge, each on a copy of the
# machines (~30 s of CPU, git's included)
@pytest.mark.slow
def test_a_sync_killed_at_any_write_of_its_import_ends_as_one_not_killed(
    start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, not_killed: Outcome
) -> None:
    kill_at = 0
    while True:
        kill_at += 1
        root = tmp_path / f"killed-{kill_at}"
        killed, machines = _killed_at(start, root, monkeypatch, kill_at)
        _assert_like(_synced_on(*machines), not_killed, kill_at)
        if not killed:  # past the last write: every one was a kill point
            break
    assert kill_at > 10


# slow: syncs of three machines and their set-up (~3 s of CPU, git's included)
@pytest.mark.slow
def test_an_edit_made_after_the_kill_to_a_file_the_import_had_yet_to_write_is_merged(
    start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    killed, (alpha, beta, gamma) = _killed_at(start, tmp_path / "k", monkeypatch, 1, scopes=True)
    assert killed and alpha.text(F2) == "file 2\n"  # beta's line not brought in yet
    alpha.write(F2, "alpha's first line\nfile 2\n")  # the user, before the next sync

    outcome = _synced_on(alpha, beta, gamma)

    merged = "alpha's first line\nfile 2\nbeta's line\n"
    assert outcome["alpha"][F2] == outcome["beta"][F2] == outcome["gamma"][F2] == merged  # type: ignore[index]
    assert outcome["alpha"][H1] == f"file 1\n{ALPHAS_LINE}\n"  # type: ignore[index]
    key = alpha.store.history_key(Scope.GLOBAL)
    ops = [(v.actor, v.op) for v in ScopeHistory(alpha.home, key).versions() if v.path == F2]
    assert ("user", "edit") in ops  # the user's edit is the user's


@pytest.mark.parametrize(
    ("intent", "said"),
    [
        (b'{"version": 1, "merge": ', "not valid JSON"),
        (json.dumps({"version": 2, "merge": "x"}).encode(), "another version of Memtab"),
    ],
)
@pytest.mark.expect_log("memtab.fs.sidecar", "WARNING", r"import\.json could not be used")
# slow: syncs of three machines and their set-up (~3 s of CPU, git's included)
@pytest.mark.slow
def test_an_import_whose_intent_cannot_be_read_is_worked_out_from_the_repository(
    start: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    not_killed: Outcome,
    intent: bytes,
    said: str,
) -> None:
    killed, (alpha, beta, gamma) = _killed_at(start, tmp_path / "k", monkeypatch, 1, scopes=True)
    assert killed
    (alpha.sync_dir / "import.json").write_bytes(intent)  # damaged, or a newer Memtab's

    problems = alpha.service.sync().targets[0].problems

    assert any("import.json could not be used" in p and said in p for p in problems), problems
    outcome = _synced_on(alpha, beta, gamma)
    for what in ("alpha", "beta", "gamma", "pins and uses", "trash", "pending"):
        assert outcome[what] == not_killed[what], what  # c.md still a conflict
    assert [name for name in outcome["left"] if "import.json.corrupt-" in name]  # type: ignore[attr-defined]


# slow: syncs of three machines and their set-up (~3 s of CPU, git's included)
@pytest.mark.slow
def test_a_conflict_is_not_resolved_while_an_import_waits_to_be_finished(
    start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha, _beta, gamma = _copy(start, tmp_path / "k")
    alpha.sync()  # c.md: a conflict
    gamma.write(F0, "file 0\n")
    gamma.sync()
    with killed_at_write(monkeypatch, 1, in_scopes), contextlib.suppress(Killed):
        alpha.sync()
    conflict = find_conflict(alpha.service, C)

    with pytest.raises(SyncError, match="run memtab sync to finish it"):
        resolve_conflict(alpha.service, conflict, keep="local")

    alpha.sync()
    resolve_conflict(alpha.service, conflict, keep="local")
    assert alpha.text(F0) == "file 0\n"


# slow: a sync killed (SIGKILL) in a process of its own, and syncs of three machines
@pytest.mark.slow
def test_a_sync_killed_by_sigkill_during_its_import_loses_nothing(
    start: Path, tmp_path: Path, not_killed: Outcome
) -> None:
    machines = _copy(start, tmp_path / "k")
    tests = str(Path(__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    child = subprocess.run(
        [sys.executable, "-m", "support.sync_kill", str(machines[0].home.root), "1", "scopes"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    assert (machines[0].sync_dir / "import.json").exists()  # what it was about to write
    _assert_like(_synced_on(*machines), not_killed, 1)


@pytest.mark.expect_log("memtab.sync.interrupted_import", "WARNING", "unfinished import was left")
def test_the_folders_a_killed_import_made_for_files_never_written_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A joining machine's import makes its folders before the scope lock; killed then, and
    # its intent left as it is (the branch moved meanwhile), nothing writes those files.
    remote = bare_repository(tmp_path / "remote.git")
    alpha, beta = Machine.create(tmp_path, "alpha"), Machine.create(tmp_path, "beta")
    alpha.connect(remote)
    alpha.write(f"{G}/topic/deep/a.md", "a\n")
    alpha.sync()
    beta.connect(remote)
    with killed_at_write(monkeypatch, 1, in_scopes), contextlib.suppress(Killed):
        beta.sync()
    folder = beta.home.global_root / "topic" / "deep"
    [temp] = folder.iterdir()
    os.utime(temp, (0, 0))  # old: the next listing removes it, as a killed write's
    beta.files()
    tip = subprocess.run(
        ["git", "-C", str(remote), "rev-parse", "main"], check=True, capture_output=True, text=True
    ).stdout.strip()
    repo = beta.sync_dir / "repo.git"
    subprocess.run(["git", "-C", str(repo), "update-ref", "refs/heads/main", tip], check=True)
    assert folder.is_dir()

    beta.service.sync()

    assert not (beta.home.global_root / "topic").exists()
    assert beta.home.global_root.is_dir()
