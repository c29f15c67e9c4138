"""A memory's fact its checkout's README now states otherwise (docs/formats.md §19.3,
`code-disagrees`): "The README.md now says API's port is 8081 (README.md:5); this says
8080" — the line marked where the memory is recalled too; a README that hedges, states
two values or says nothing of it leaves the memory alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.engine import CheckEngine
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.checkouts import add_to_git

MEMORY = """# Running it

- The API runs on port 8080.
- Postgres 16 in docker-compose.
- Redis listens on port 6379.
"""


def _findings(tmp_path: Path, readme: str) -> list[tuple[int | None, str]]:
    checkout = tmp_path / "acme"
    checkout.mkdir()
    (checkout / "README.md").write_text(readme, "utf-8")
    add_to_git(checkout)
    home = Home(tmp_path / "home")
    add_workspace(home, str(checkout), "main", workspace_id="a1a1a1a1a1")
    store = MemoryStore(home, load_registry(home).require_workspace("a1a1a1a1a1"))
    folder = store.root(Scope.PROJECT)
    folder.mkdir(parents=True)
    (folder / "running.md").write_text(MEMORY, "utf-8")
    report = CheckEngine(home, sources=False).check("a1a1a1a1a1")
    return [(f.line, f.message) for f in report.findings if f.kind == "code-disagrees"]


def test_the_readme_now_says_another_port(tmp_path: Path) -> None:
    readme = "# acme\n\n## Run\n\n- The API runs on port 8081.\n- Postgres 17 is required.\n"
    assert _findings(tmp_path, readme) == [
        (3, "The README.md now says API's port is 8081 (README.md:5); this says 8080"),
    ]  # "Postgres 17 is required": hedged, so no fact


@pytest.mark.parametrize(
    "readme",
    [
        "# acme\n\n- The API runs on port 8080.\n",  # the same
        "# acme\n\n- The API runs on port 8081 or 8082.\n",  # two values on a line
        "# acme\n\n- The API runs on port 8081.\n- The API runs on port 8082.\n",  # two lines
        "# acme\n\nNothing about ports.\n",
    ],
)
def test_a_readme_that_agrees_hedges_or_says_nothing_leaves_it_alone(
    tmp_path: Path, readme: str
) -> None:
    assert _findings(tmp_path, readme) == []


def test_a_hedge_in_the_readme_s_next_sentence_leaves_its_fact_stated(tmp_path: Path) -> None:
    readme = (
        "# acme\n\nThe API listens on port 8081. The gateway is mounted on `/ws` on the same "
        "server in development.\n"
    )
    assert _findings(tmp_path, readme) == [
        (3, "The README.md now says API's port is 8081 (README.md:3); this says 8080"),
    ]
