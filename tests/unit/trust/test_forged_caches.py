"""A trust cache whose digest is valid but whose values are not what Memtab wrote (issue 81
point 11): every kind of forgery, in every cache the three engines keep (docs/formats.md
§19.10), is read as damage — the next run finds what a run with no cache finds, never
"an unexpected error", never another finding — and the cache is written anew."""

from __future__ import annotations

import hashlib
import marshal
import math
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.check.documents import pack_text
from memtab.fs.atomic import atomic_write_text
from memtab.kept import per_file
from memtab.kept import texts as kept_texts
from memtab.kept.per_file import MAGIC, cache_file_for
from memtab.store.home import Home
from memtab.trust.contradictions import engine as contradictions
from memtab.trust.duplicates import engine as duplicates
from memtab.trust.leaks import engine as leaks
from memtab.trust.report import TrustReport
from memtab.trust.together import TrustEngines
from support.memory_home import OTHER_PROJECT, PROJECT, make_home

CACHES = ("duplicates", "duplicates-pairs", "contradictions", "leaks", "texts")
FILES = {
    "global/ports.md": "# Ports\n\n- The API runs on port 8000.\n- Use pnpm, not npm.\n",
    "project/local.md": "# Local\n\n- The API runs on port 8080.\n- Use yarn, not npm.\n",
    "global/web.md": f"# Web\n\nThe app lives in {OTHER_PROJECT}/src/app.tsx.\n",
    "global/testing.md": "# Testing\n\n- Run the API tests with `pnpm test --filter api` first.\n"
    "- The staging deploy is `make deploy-staging`.\n- Grafana dashboards are under ops/.\n",
    "project/testing.md": "# How we test\n\nBefore a push, run the api tests: "
    "`pnpm test --filter api`. The staging deploy is `make deploy-staging`. Grafana "
    "dashboards are under ops/.\n",
    "global/copy.md": "# Habits\n\n- Commit messages use the imperative mood, under 72 "
    "characters.\n- Review every migration twice with the database owner.\n",
    "project/copy.md": "# Habits\n\n- Commit messages use the imperative mood, under 72 "
    "characters.\n- Review every migration twice with the database owner.\n",
    "global/rules.md": "# Style\n\n- Branch names are kebab-case with the ticket number.\n"
    "- Dashboards refresh every minute on the wall screen.\n- Lunch is at noon on Fridays.\n",
    "project/rules.md": "# Project\n\n- Branch names are kebab-case with the ticket number.\n"
    "- The billing worker retries three times with backoff.\n- Invoices are PDF only.\n",
}


def _write(home: Home) -> None:
    for name, text in FILES.items():
        scope, _, file = name.partition("/")
        root = home.global_root if scope == "global" else home.project_root(PROJECT)
        atomic_write_text(root / file, text)


def _find(home: Home) -> TrustReport:
    """A fresh process's run of the window's three questions."""
    return TrustEngines(home, sources=False, line_time=lambda document, line: 0).find()


# --- forging: the held tuple's values changed, its digest made valid again --------------

Leaf = tuple[int, ...]  # a value's place in the held tuple, index by index


def _leaves(value: Any, where: Leaf, kinds: tuple[type, ...]) -> list[Leaf]:
    """Every place under `value` of one of `kinds`, depth first (the header's fields —
    the first four — are left out by the caller)."""
    if type(value) in kinds:
        return [where]
    if type(value) in (tuple, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*where, i), kinds)]
    return []


def _put(value: Any, where: Leaf, new: Any) -> Any:
    if not where:
        return new
    items = list(value)
    items[where[0]] = _put(items[where[0]], where[1:], new)
    return tuple(items) if type(value) is tuple else items


def _body(held: Any) -> tuple[Leaf, ...]:
    """The places of the values a cache holds: past its version, home and engine."""
    return tuple((i,) for i in range(3, len(held)))


def _first(kinds: tuple[type, ...], new: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A forgery: the first value of one of `kinds` among the cache's values made `new`."""

    def forge(held: Any) -> Any:
        leaves = [
            (*top, *leaf)
            for top in _body(held)
            for leaf in _leaves(held[top[0]], (), kinds)
            if top[0] > 3 or kinds != (bytes,)
        ]
        if not leaves:
            pytest.skip("this cache holds no such value")
        where = leaves[0]
        old: Any = held
        for index in where:
            old = old[index]
        return _put(held, where, new(old))

    return forge


def _every(kinds: tuple[type, ...], new: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def forge(held: Any) -> Any:
        for top in _body(held):
            for leaf in _leaves(held[top[0]], (), kinds):
                old: Any = held
                for index in (*top, *leaf):
                    old = old[index]
                held = _put(held, (*top, *leaf), new(old))
        return held

    return forge


def _values_part(new: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A forgery of the cache's last field: each file's values, or the answer."""
    return lambda held: (*held[:-1], new(held[-1]))


_NUMBERS = (int,)
FORGERIES: dict[str, Callable[[Any], Any]] = {
    "not a tuple": list,
    "a field short": lambda held: held[:-1],
    "a field more": lambda held: (*held, ()),
    "its version a string": lambda held: (str(held[0]), *held[1:]),
    "a number negative": _first(_NUMBERS, lambda old: -1),
    "a number zero": _first(_NUMBERS, lambda old: 0),
    "a number huge": _first(_NUMBERS, lambda old: 10**40),
    "a number a bool": _first(_NUMBERS, lambda old: True),
    "a number NaN": _first((int, float), lambda old: math.nan),
    "a number infinite": _first((int, float), lambda old: math.inf),
    "a number a string": _first((int, float), lambda old: "7"),
    "a string a number": _first((str,), lambda old: 7),
    "a string empty": _every((str,), lambda old: ""),
    "bytes a string": _first((bytes,), lambda old: "forged"),
    "a list a string": _values_part(lambda old: "forged"),
    "a list's items strings": _values_part(lambda old: tuple(str(item) for item in old)),
    "a list a dict": _values_part(lambda old: {"forged": old}),
    "a set of numbers": _first((frozenset,), lambda old: frozenset({1, 2})),
    "code instead of data": _values_part(lambda old: compile("1", "forged", "eval")),
    "every number moved": _every(_NUMBERS, lambda old: old + 9_999),
    "every float near one": _every((float,), lambda old: 0.99),
    "every text another": _every((bytes,), lambda old: pack_text("forged\n")),
}
"""Forgeries of what a cache holds (its digest made valid again): 22 kinds."""


def _forged(data: bytes, forge: Callable[[Any], Any]) -> bytes:
    held = marshal.loads(zlib.decompress(data[len(MAGIC) + 16 :]))
    return _packed(marshal.dumps(forge(held)))


def _packed(plain: bytes) -> bytes:
    return _digested(zlib.compress(plain))


def _digested(body: bytes) -> bytes:
    return MAGIC + hashlib.blake2b(body, digest_size=16).digest() + body


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    home = make_home(tmp_path / "home")
    _write(home)
    # Every file was written well before it is read: its text is kept (kept_texts).
    monkeypatch.setattr(kept_texts, "changed_since", lambda info, after: False)
    return home


def _caches(home: Home) -> dict[str, bytes]:
    return {name: cache_file_for(home, name).read_bytes() for name in CACHES}


def test_the_home_fills_every_cache(home: Home) -> None:
    found = _find(home)
    assert {g.kind for g in found.duplicates} == {"copy", "rule"}
    assert {g.kind for g in found.duplicate_candidates} == {"reworded"}
    assert {c.kind for c in found.contradictions} == {"port", "tool"}
    assert [leak.kind for leak in found.leaks] == ["project-in-global"]
    assert all(len(data) > 100 for data in _caches(home).values())


@pytest.mark.parametrize("cache", CACHES)
def test_a_forged_cache_is_worked_out_anew(home: Home, cache: str) -> None:
    found = _find(home)
    kept = _caches(home)
    path = cache_file_for(home, cache)
    for kind, forge in FORGERIES.items():
        try:
            forged = _forged(kept[cache], forge)
        except pytest.skip.Exception:
            continue
        for name, data in kept.items():
            cache_file_for(home, name).write_bytes(data)
        path.write_bytes(forged)
        assert _find(home) == found, kind
        assert _find(home) == found, kind


DAMAGED: dict[str, bytes] = {
    "marshal cut short": _packed(marshal.dumps((1, "home", "engine", (), ("k",)))[:-3]),
    "not marshal": _packed(b"\xff\x00forged"),
    "not zlib": _digested(b"forged"),
    "zlib cut short": _digested(zlib.compress(marshal.dumps(tuple(range(1000))))[:-10]),
}


@pytest.mark.parametrize("cache", CACHES)
@pytest.mark.parametrize("damage", DAMAGED)
def test_a_cache_of_a_valid_digest_over_no_data_is_worked_out_anew(
    home: Home, cache: str, damage: str
) -> None:
    found = _find(home)
    cache_file_for(home, cache).write_bytes(DAMAGED[damage])
    assert _find(home) == found
    assert cache_file_for(home, cache).read_bytes() != DAMAGED[damage]


def test_a_cache_unpacking_to_more_than_any_is_not_unpacked(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few bytes that unpack to gigabytes: never unpacked past the cache's limit."""
    found = _find(home)
    monkeypatch.setattr(per_file, "MAX_CACHE_BYTES", 64 * 1024)
    path = cache_file_for(home, "duplicates")
    path.write_bytes(_packed(bytes(128 * 1024)))
    assert len(path.read_bytes()) < 1024
    unpacked: list[int] = []
    loads = marshal.loads

    def loading(data: bytes) -> object:
        unpacked.append(len(data))
        return loads(data)

    monkeypatch.setattr(marshal, "loads", loading)
    assert _find(home) == found
    assert unpacked and max(unpacked) <= 64 * 1024


def test_caches_as_written_are_read_whole(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the checks accept is what Memtab writes: a next run over notes of several
    statements, claims and names works nothing out again."""
    found = _find(home)
    made: list[str] = []
    for module, name in (
        (duplicates, "note_words"),
        (contradictions, "claims_of"),
        (leaks, "mentions_of"),
    ):
        real = getattr(module, name)
        monkeypatch.setattr(
            module, name, lambda *args, real=real, name=name: made.append(name) or real(*args)
        )
    assert _find(home) == found and made == []
