"""`memtab leaks` judges whose a place is by what each project's checkout on disk names
(issue 83, tests/support/leak_owners.py): another project's place its checkout deploys to,
reads from or is cloned from is a leak in this project's memory, though its name says
nothing; a place this project's own checkout uses, or several checkouts name, never is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.trust.leaks.checkouts import checkout_places, evidence
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


def test_a_place_several_checkouts_name_is_shared() -> None:
    said = evidence({"/a": frozenset({"x.acme.internal", "y"}), "/b": frozenset({"y"})})
    assert said == {"x.acme.internal": "/a", "y": None}


def test_a_module_s_dotted_name_in_a_checkout_s_config_is_no_host(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nsource_modules = ["memtab.cli.main", "django.contrib.auth"]\n'
        '[project.urls]\nDocs = "https://docs.tern.fernhill.io"\n'
    )
    assert checkout_places(str(tmp_path)) == {"docs.tern.fernhill.io"}
