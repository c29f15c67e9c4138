"""The modules the window imports before its first paint compile no regular expression when they
load (each costs the start ~0.5 ms on the GUI thread): `memtab.fs.lazy_re.LazyPattern` compiles
one where it is first used — a scan on its worker, an editor opened after the paint."""

from __future__ import annotations

import importlib
import re

import pytest

from memtab.gui.first_paint.boundary import REACHED_AFTER_FIRST_PAINT
from support.first_paint_contract import first_paint_reach

# Compiled at import on purpose: the listing's hot path (one regex a name) and the JSON reader
# the window's state is read with before the paint, where an extra call a use would cost more.
COMPILED_AT_IMPORT = frozenset(
    {
        "memtab.store.paths._ORDINARY_SEGMENT",
        "memtab.store.paths.PLAIN_LISTED_NAME",
        "memtab.store.paths._SEPARATORS",
        "memtab.store.scope_walk.PLAIN_LISTED_NAME",
        "memtab.fs.jsonfile._SURROGATE_ESCAPE",
    }
)


@pytest.mark.slow  # slow: builds the import graph of memtab (grimp), 2–8 s
def test_the_first_paints_modules_compile_their_patterns_when_first_used() -> None:
    compiled = sorted(
        f"{name}.{attribute}"
        for name in first_paint_reach() - REACHED_AFTER_FIRST_PAINT
        for attribute, value in vars(importlib.import_module(name)).items()
        if isinstance(value, re.Pattern)
    )
    assert [name for name in compiled if name not in COMPILED_AT_IMPORT] == [], (
        "compiled when the window's start imports them: make them `LazyPattern`s"
    )
