"""Calls recorded on their way through: what a test counts of what the code asks (flushes,
writes, indexes made) without changing what each call does."""

from __future__ import annotations

from typing import Any

import pytest


def calls_through(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str
) -> list[tuple[Any, ...]]:
    """Each call of `owner.name` until `monkeypatch` is undone, by its positional arguments
    (`self` first for a method replaced on its class); every call goes through."""
    calls: list[tuple[Any, ...]] = []
    original = getattr(owner, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return calls
