"""A warm host's catalogs (docs/formats.md §22.8, `hosting/catalogs.py`): sessions that
serve the same files share one, sessions of other projects have their own (§22.9), and
the ones no session holds stay warm only while they are among the last few given back."""

from __future__ import annotations

import threading
from pathlib import Path

from memtab.agent_server.hosting.catalogs import KEPT_IDLE, CatalogShelf
from memtab.agent_server.session_scope import FROM_DIRECTORY, SessionScope, session_scope
from memtab.cli.share.mcp_sessions import recall_checks
from memtab.store.home import Home

from ..session_homes import two_projects


def _scope(home: Home, directory: Path) -> SessionScope:
    return session_scope(home, [str(directory)], decided_by=FROM_DIRECTORY)


def test_sessions_serving_the_same_share_a_catalog_and_other_projects_have_theirs(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)
    shelf = CatalogShelf()
    try:
        # Two sessions started in one checkout (an agent and its sub-agent).
        shop = shelf.take(layout.home, _scope(layout.home, layout.shop), True)
        again = shelf.take(layout.home, _scope(layout.home, layout.shop), True)
        other = shelf.take(layout.home, _scope(layout.home, layout.other), True)
        assert shop is again and other is not shop
        assert shelf.fresh == [shop, other]  # each listed ahead once
        shop_rows = {row.path for row in shop.rows()}
        other_rows = {row.path for row in other.rows()}
        assert "/memories/project/s.md" in shop_rows and "/memories/project/o.md" in other_rows
        assert not any("oscar" in path or path.endswith("o.md") for path in shop_rows)
    finally:
        shelf.close()


def test_a_catalog_no_session_holds_stays_warm_until_more_are_given_back(
    tmp_path: Path,
) -> None:
    layout = two_projects(tmp_path)
    home = layout.home
    places = [layout.shop, layout.other, layout.checkout, layout.elsewhere]
    keys = [(_scope(home, place), others) for others in (True, False) for place in places]
    assert len(keys) > KEPT_IDLE + 1
    shelf = CatalogShelf()
    try:
        first = shelf.take(home, *keys[0])
        shelf.take(home, *keys[0])  # a second session of the same project
        shelf.give_back(first)
        assert shelf.take(home, *keys[0]) is first  # one still held it: never closed
        shelf.give_back(first)
        shelf.give_back(first)
        for scope, others in keys[1 : KEPT_IDLE + 1]:
            shelf.give_back(shelf.take(home, scope, others))
        assert shelf.held() == KEPT_IDLE  # the first, given back longest ago, was closed
        assert shelf.take(home, *keys[0]) is not first  # listed anew
        kept = shelf.take(home, *keys[KEPT_IDLE])
        assert shelf.held() == KEPT_IDLE + 1
        shelf.give_back(kept)
    finally:
        shelf.close()
    assert shelf.held() == 0


def test_what_a_hosts_sessions_share_ends_with_the_host(tmp_path: Path) -> None:
    """A home's checks where its memory is recalled run a worker thread: one per home for
    the host's sessions, stopped as the host closes its shelf — it outlived the host, and
    walked a home that was gone."""
    layout = two_projects(tmp_path)
    shelf = CatalogShelf()
    checks = recall_checks(layout.home, shelf)
    assert recall_checks(layout.home, shelf) is checks  # every session of the host: one
    before = set(threading.enumerate())  # other tests' sessions may have workers of theirs
    checks.refresh(None, after_s=60.0)  # its worker waits for a check it was asked for
    (worker,) = [t for t in set(threading.enumerate()) - before if t.name == "memtab-recall-checks"]
    shelf.close()
    worker.join(timeout=5.0)
    assert not worker.is_alive()
    another = CatalogShelf()
    assert recall_checks(layout.home, another) is not checks  # another host: its own
    another.close()
