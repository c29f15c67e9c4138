"""Which memory file a sync repository's path is (`SyncedScope.virtual_path`): a scope's
own files, none of another scope's, no name a listing hides — and each file's answer kept
however many scopes a sync asks of every path of its tree."""

from __future__ import annotations

from memtab.store.paths import Scope, VirtualPath
from memtab.sync.repository.layout import GLOBAL_SCOPE, SyncedScope, _memory_path

PROJECT = SyncedScope.of("project", "app", "/home/alice/app")


def test_a_path_is_the_file_of_its_own_scope_only() -> None:
    assert PROJECT.virtual_path("projects/app/notes/a.md") == VirtualPath(
        Scope.PROJECT, ("notes", "a.md")
    )
    assert GLOBAL_SCOPE.virtual_path("global/a.md") == VirtualPath(Scope.GLOBAL, ("a.md",))
    assert PROJECT.virtual_path("global/a.md") is None
    assert PROJECT.virtual_path("projects/application/a.md") is None  # another folder
    assert GLOBAL_SCOPE.virtual_path("projects/app/a.md") is None
    assert PROJECT.virtual_path("projects/app/.hidden.md") is None
    assert SyncedScope.of("workspace", "app", "w1").virtual_path("projects/app/a.md") is None


def test_each_files_answer_is_kept_when_every_scope_is_asked_of_every_path() -> None:
    """As a sync does (`in_tree` of each scope), 10 scopes of 1,000 files each: 100,000
    asks, more than the cache holds, then each file asked of its own scope again — each
    file worked out once."""
    scopes = [GLOBAL_SCOPE, *(SyncedScope.of("project", f"p{n}", f"/p{n}") for n in range(9))]
    tree = [f"{scopes[n % 10].prefix}/topic-{n}.md" for n in range(10 * 1000)]
    _memory_path.cache_clear()
    for scope in scopes:
        assert sum(scope.virtual_path(path) is not None for path in tree) == 1000
    worked_out = _memory_path.cache_info().misses
    for n, path in enumerate(tree):
        assert scopes[n % 10].virtual_path(path) is not None
    assert worked_out == len(tree)
    assert _memory_path.cache_info().misses == worked_out
