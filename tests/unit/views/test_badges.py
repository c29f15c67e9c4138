"""The "agent edited" badges, counted from scans without Qt."""

from __future__ import annotations

from memtab.store.files import read_file_content
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.views.badges import AgentEdits
from memtab.views.own_writes import OwnWrites
from memtab.views.scan import HomeScan, ScanRequest, scan_home
from support import memory_home
from support.memory_home import MAIN, memory, touch_later

home = memory_home.home

GIT = parse_file_path("/memories/global/tools/git.md")
ZETA = parse_file_path("/memories/global/Zeta.md")


def rescan(previous: HomeScan, *paths: object) -> HomeScan:
    changed = frozenset(str(path) for path in paths)
    return scan_home(ScanRequest(previous.home, MAIN, previous=previous, changed_paths=changed))


def test_an_agents_change_gets_a_badge_and_memtabs_own_does_not(home: Home) -> None:
    own = OwnWrites()
    badges = AgentEdits(own)
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "An agent wrote this.\n"))
    touch_later(zeta, memory("Last by name", "Memtab saved this.\n"))
    own.note(ZETA, read_file_content(zeta).sha256)
    badges.count_in(rescan(first, git, zeta), open_path=None)
    assert badges.paths == {str(git)}


def test_the_open_file_and_a_folder_memtab_moved_get_no_badge(home: Home) -> None:
    own = OwnWrites()
    badges = AgentEdits(own)
    first = scan_home(ScanRequest(home, MAIN))
    git, python = home.global_root / "tools" / "git.md", home.global_root / "tools" / "python.md"
    touch_later(git, memory("Git conventions", "Edited in the editor.\n"))
    touch_later(python, memory("Python tooling", "Came with the folder.\n"))
    own.note(parse_file_path("/memories/global/tools"))
    badges.count_in(rescan(first, git, python), open_path=GIT)
    assert badges.paths == set()


def test_badges_go_when_opened_deleted_or_moved_away(home: Home) -> None:
    badges = AgentEdits(OwnWrites())
    first = scan_home(ScanRequest(home, MAIN))
    git, zeta = home.global_root / "tools" / "git.md", home.global_root / "Zeta.md"
    touch_later(git, memory("Git conventions", "Agent.\n"))
    touch_later(zeta, memory("Last by name", "Agent.\n"))
    second = rescan(first, git, zeta)
    badges.count_in(second, open_path=None)
    assert badges.paths == {str(git), str(zeta)}
    assert badges.clear(second, ZETA) and not badges.clear(second, ZETA)
    assert badges.paths == {str(git)}
    assert badges.drop_under(second, parse_file_path("/memories/global/tools"))
    assert badges.paths == set()
    touch_later(zeta, memory("Last by name", "Agent again.\n"))
    third = rescan(second, zeta)
    badges.count_in(third, open_path=None)
    zeta.unlink()
    badges.count_in(rescan(third, zeta), open_path=None)
    assert badges.paths == set()
