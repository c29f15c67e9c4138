"""Which workspace and project a directory belongs to, by the registry's rules (docs/formats.md
§22.9): the deepest workspace checkout holding it, else the registered project holding it
(a sub-project's checkout its top-level project's), compared as given and through links;
workspaces sharing one checkout are one owner only when they share a notebook."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memtab.agent_server.session_scope import checkout_owner
from memtab.store.home import Home
from memtab.store.sidecars.registry import Registry, registry_from_document


def _registry(home: Home, projects: dict[str, list[dict[str, Any]]]) -> Registry:
    document = {"projects": [[path, {"workspaces": ws}] for path, ws in projects.items()]}
    return registry_from_document(home, document)


def test_a_directory_belongs_to_the_deepest_workspace_checkout_holding_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    shop = tmp_path / "shop"
    registry = _registry(
        home,
        {
            str(shop): [
                {"id": "aaaaaaaaaa", "name": "local", "path": str(shop)},
                {"id": "bbbbbbbbbb", "name": "deep", "path": str(shop / "packages" / "api")},
            ]
        },
    )
    deep = checkout_owner(registry, str(shop / "packages" / "api" / "src"))
    assert deep.workspace is not None and deep.workspace.id == "bbbbbbbbbb"
    assert deep.project == str(shop)
    top = checkout_owner(registry, str(shop / "docs"))
    assert top.workspace is not None and top.workspace.id == "aaaaaaaaaa"
    assert not checkout_owner(registry, str(tmp_path / "shopping")).known  # not inside /shop


def test_workspaces_sharing_a_checkout_are_one_owner_only_with_one_notebook(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    shop = str(tmp_path / "shop")
    shared = _registry(
        home,
        {
            shop: [
                {"id": "rootrootro", "path": shop},
                {"id": "childchild", "path": shop, "parentWorkspaceId": "rootrootro"},
            ]
        },
    )
    owner = checkout_owner(shared, shop)
    assert owner.workspace is not None and owner.workspace.id == "rootrootro"
    apart = _registry(
        home, {shop: [{"id": "aaaaaaaaaa", "path": shop}, {"id": "bbbbbbbbbb", "path": shop}]}
    )
    owner = checkout_owner(apart, shop)
    assert owner.workspace is None and owner.project == shop
    assert [ws.id for ws in owner.candidates] == ["aaaaaaaaaa", "bbbbbbbbbb"]


def test_a_project_alone_and_a_sub_project_belongs_to_its_top_level_project(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    repo = str(tmp_path / "repo")
    registry = _registry(home, {repo: [], f"{repo}/packages/api": []})
    owner = checkout_owner(registry, f"{repo}/packages/api/src")
    assert owner.workspace is None and owner.project == repo and owner.project_name == "repo"


def test_a_checkout_reached_through_a_link_is_found(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    real = tmp_path / "real" / "shop"
    real.mkdir(parents=True)
    link = tmp_path / "link"
    os.symlink(tmp_path / "real", link)
    registry = _registry(home, {str(real): []})
    assert checkout_owner(registry, str(link / "shop")).project == str(real)
    registry = _registry(home, {str(link / "shop"): []})  # registered through the link
    assert checkout_owner(registry, str(real)).project == str(link / "shop")


def test_an_archived_workspace_counts_only_when_no_live_one_holds_the_directory(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    shop = str(tmp_path / "shop")
    old = {"id": "oldoldoldo", "path": shop, "archivedAt": "2026-01-01T00:00:00.000Z"}
    registry = _registry(home, {shop: [old, {"id": "newnewnewn", "path": shop}]})
    owner = checkout_owner(registry, shop)
    assert owner.workspace is not None and owner.workspace.id == "newnewnewn"
    alone = checkout_owner(_registry(home, {shop: [old]}), shop)
    assert alone.workspace is not None and alone.workspace.id == "oldoldoldo"
