"""`memtab leaks` judges whose a place is by what each project's checkout on disk names
(issue 83, tests/support/leak_owners.py): another project's place its checkout deploys to,
reads from or is cloned from is a leak in this project's memory, though its name says
nothing; a place this project's own checkout uses, or several checkouts name, never is."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.leaks import checkouts
from memtab.trust.leaks.checkouts import KeptCheckouts, checkout_names, checkout_places, evidence
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.leaks.hosts import project_hosts
from support import leak_owners
from support.leak_owners import AFTER, CASES


@pytest.mark.parametrize("after", [False, True], ids=["corpus", "written-after"])
def test_another_project_s_places_are_known_by_its_checkout(tmp_path: Path, after: bool) -> None:
    card = leak_owners.score(tmp_path, after=after)
    assert (card["missed"], card["flagged"], card["own"], card["precision"]) == ([], [], [], 1.0)


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    assert sum(case.belongs is not None for case in CASES) >= 25
    assert sum(case.belongs is None for case in CASES) >= 25
    assert sum(case.belongs is not None for case in AFTER) >= 10
    assert sum(case.belongs is None for case in AFTER) >= 10


def test_a_checkout_names_its_remotes_module_package_and_deploy_files(tmp_path: Path) -> None:
    paths = leak_owners.lay_out(tmp_path)
    assert checkout_places(paths["gristmill"]) >= {
        "repo:git.oakwell.net/data/gristmill",
        "oak-raw-landing",
        "10.88.4.31",
        "wh-02.oakwell.internal",
    }
    assert "repo:github.com/oakwell/skiff" in checkout_places(paths["skiff"])
    assert "repo:github.com/oakwell/lantern-ui" in checkout_places(paths["lantern-ui"])
    assert "bff-7.oakwell.net" in checkout_places(paths["lantern-ui"])  # vercel.json


def test_a_package_s_repository_shorthand_and_a_scp_remote_are_repositories(
    tmp_path: Path,
) -> None:
    (tmp_path / "package.json").write_text('{"repository": "github:fernhill/tern"}')
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text('[remote "up"]\n\turl = git.acme.io:ops/tern.git\n')
    assert checkout_places(str(tmp_path)) == {
        "repo:github.com/fernhill/tern",
        "repo:git.acme.io/ops/tern",
    }


def test_a_link_out_of_the_checkout_and_what_is_no_config_are_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "k8s").mkdir(parents=True)
    (outside / "k8s" / "a.yaml").write_text("host: db.elsewhere.internal\n")
    (outside / ".env").write_text("DB=db2.elsewhere.internal\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    os.symlink(outside / "k8s", checkout / "k8s")
    os.symlink(outside / ".env", checkout / ".env")
    (checkout / "notes.md").write_text("db3.elsewhere.internal\n")
    (checkout / "deploy").mkdir()
    (checkout / "deploy" / "README.md").write_text("db4.elsewhere.internal\n")
    assert checkout_places(str(checkout)) == frozenset()
    assert checkout_places(str(tmp_path / "gone")) == frozenset()


def test_a_deploy_folder_is_read_within_a_bound_of_entries_of_any_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "deploy" / "a.yaml").parent.mkdir()
    (tmp_path / "deploy" / "a.yaml").write_text("host: db.first.internal\n")
    for index in range(30):  # empty folders, read before the file past them
        (tmp_path / "deploy" / "b" / f"empty{index}").mkdir(parents=True)
    (tmp_path / "deploy" / "c" / "z.yaml").parent.mkdir()
    (tmp_path / "deploy" / "c" / "z.yaml").write_text("host: db.last.internal\n")
    assert checkout_places(str(tmp_path)) == {"db.first.internal", "db.last.internal"}
    monkeypatch.setattr(checkouts, "_MOST_ENTRIES", 20)
    assert checkout_places(str(tmp_path)) == {"db.first.internal"}


def test_a_place_several_checkouts_name_is_shared() -> None:
    said = evidence({"/a": frozenset({"x.acme.internal", "y"}), "/b": frozenset({"y"})})
    assert said == {"x.acme.internal": "/a", "y": None}


def test_a_module_s_dotted_name_in_a_checkout_s_config_is_no_host(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nsource_modules = ["memtab.cli.main", "django.contrib.auth"]\n'
        '[project.urls]\nDocs = "https://docs.tern.fernhill.io"\n'
    )
    assert checkout_places(str(tmp_path)) == {"docs.tern.fernhill.io"}


def test_a_warm_run_reads_no_checkout_file_and_a_changed_one_is_read_again(
    tmp_path: Path,
) -> None:
    """What each checkout file named is kept by its stat stamp, in the home's memo: a next
    run — in another process too — lists the files and reads none; a file rewritten (its
    size and mtime kept: its ctime says) or new is read again; one changed within the racy
    margin is never kept."""
    paths = leak_owners.lay_out(tmp_path / "code")
    home = Home(tmp_path / "home")
    hour_later = time.time_ns() + 3_600_000_000_000
    first = KeptCheckouts.of_home(home)
    first._now_ns = lambda: hour_later
    cold = {name: checkout_names(path, first) for name, path in paths.items()}
    first.finish()
    assert first.last_read > len(paths)

    again = KeptCheckouts.of_home(home)  # another process: the memo, not the memory
    assert {name: checkout_names(path, again) for name, path in paths.items()} == cold
    again.finish()
    assert again.last_read == 0
    assert cold["gristmill"][1] == "data/gristmill"  # the origin's owner/name, kept too

    vercel = Path(paths["lantern-ui"]) / "vercel.json"
    info = vercel.stat()
    vercel.write_text(vercel.read_text().replace("bff-7", "bff-8"))
    os.utime(vercel, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert "bff-8.oakwell.net" in checkout_names(paths["lantern-ui"], again)[0]
    again.finish()
    assert again.last_read == 1

    racy = KeptCheckouts.of_home(home)  # now: every file was written within the margin
    vercel.write_text(vercel.read_text())
    checkout_names(paths["lantern-ui"], racy)
    racy.finish()
    checkout_names(paths["lantern-ui"], racy)
    racy.finish()
    assert racy.last_read == 1


def test_the_leaks_engine_keeps_what_checkouts_named_between_runs(tmp_path: Path) -> None:
    paths = leak_owners.lay_out(tmp_path / "code")
    engine = LeaksEngine(Home(tmp_path / "home"))
    engine._checkouts._now_ns = lambda: time.time_ns() + 3_600_000_000_000
    documents = [cast(Document, SimpleNamespace(project=path)) for path in paths.values()]
    known = engine.known_projects(d.project for d in documents)
    assert engine._checkouts.last_read > 0
    assert (
        engine.known_projects(d.project for d in documents) == known
        and engine._checkouts.last_read == 0
    )


def test_a_private_host_is_the_project_its_labels_name_though_no_project_memory_names_it() -> None:
    words = {"/w/harbor": ("harbor",), "/w/tern": ("tern",)}
    named_by = [(None, ["db-2.harbor.internal", "db-2.harbor.io", "cache.ops.internal"])]
    assert project_hosts(named_by, words) == {"db-2.harbor.internal": "/w/harbor"}
