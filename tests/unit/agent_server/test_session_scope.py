"""What a session serves, decided from the directories it works in (docs/formats.md §22.9):
one project's scopes for directories of one project, none for directories of several or
for a config.json that cannot be read — each saying why — and only the other agents'
sources of its checkout and the user's own."""

from __future__ import annotations

from pathlib import Path

from memtab.agent_server.service import MemoryService
from memtab.agent_server.session_scope import FROM_DIRECTORY, FROM_ROOTS, session_scope
from memtab.store.paths import Scope

from .session_homes import WORKSPACE_ID, two_projects


def test_roots_in_two_projects_serve_neither_project_and_say_why(tmp_path: Path) -> None:
    layout = two_projects(tmp_path)
    scope = session_scope(layout.home, [str(layout.shop), str(layout.other)], decided_by=FROM_ROOTS)
    assert scope.scopes == (Scope.GLOBAL,)
    assert scope.missing[Scope.PROJECT].startswith(
        "Project memory is unavailable: the client's roots are in 2 projects"
    )
    same = session_scope(
        layout.home, [str(layout.shop / "sub"), str(layout.shop)], decided_by=FROM_ROOTS
    )
    assert same.scopes == (Scope.GLOBAL, Scope.PROJECT) and same.project == str(layout.shop)


def test_a_config_json_that_cannot_be_read_serves_global_memory_and_says_so(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)
    layout.home.config_path.write_text("{not json")
    scope = session_scope(layout.home, [str(layout.checkout)], decided_by=FROM_DIRECTORY)
    assert scope.scopes == (Scope.GLOBAL,)
    assert "config.json is not valid JSON" in scope.missing[Scope.PROJECT]


def test_a_workspace_checkout_serves_its_three_scopes_and_writes_land_there(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)
    service = MemoryService(layout.home, writes="direct", other_agents=False)
    try:
        assert service.settle([str(layout.checkout)], FROM_DIRECTORY)
        assert service.workspace is not None and service.workspace.id == WORKSPACE_ID
        created = service.call("create", {"path": "/memories/workspace/n.md"}, "agent")
        assert created.error is None, created.error
        assert (layout.home.workspace_root(WORKSPACE_ID) / "n.md").exists()
        assert not service.settle([str(layout.checkout / ".")], FROM_DIRECTORY)  # the same
        assert service.settle([str(layout.shop)], FROM_DIRECTORY)  # the project alone
        created = service.call("create", {"path": "/memories/project/p.md"}, "agent")
        assert created.error is None, created.error
        assert (layout.home.project_root(str(layout.shop)) / "p.md").exists()
    finally:
        service.catalog.close()


def test_a_project_alone_proposes_nothing_into_it_and_says_what_it_would_take(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)
    service = MemoryService(layout.home, writes="inbox", other_agents=False)
    try:
        service.settle([str(layout.shop)], FROM_DIRECTORY)
        refused = service.call("create", {"path": "/memories/project/n.md"}, "agent")
        assert refused.error is not None
        assert refused.error.startswith(
            f"Nothing was proposed: this session serves the project memory of {layout.shop} "
            "without a workspace"
        )
        proposed = service.call("create", {"path": "/memories/global/n.md"}, "agent")
        assert proposed.text.startswith("Proposed to the user's Memtab Inbox as p")
        viewed = service.call("view", {"path": "/memories"}, "agent")
        assert "  (unavailable: this checkout is the project's, not a xum workspace's" in (
            viewed.text
        )
    finally:
        service.catalog.close()
