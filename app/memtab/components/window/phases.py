"""The window's features and the phase each is built in, without Qt: one ordered list the
window runs."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar, cast

from memtab.fs.slotted import Slotted

logger = logging.getLogger(__name__)

Host = TypeVar("Host")
T = TypeVar("T")


class Phase(enum.IntEnum):
    """When a feature is built."""

    FIRST_PAINT = 1
    AFTER_PAINT = 2
    WATCHING = 3
    ON_DEMAND = 4


class Feature(Slotted, Generic[Host]):
    """One part of the window: its name, phase, and how it is built (None: it only starts)."""

    __slots__ = ("build", "name", "phase")

    name: str
    phase: Phase
    build: Callable[[Host], object]

    def __init__(self, name: str, phase: Phase, build: Callable[[Host], object]) -> None:
        self.name = name
        self.phase = phase
        self.build = build


class FeatureKey(Slotted, Generic[T]):
    """The typed name of a feature whose part is a `T`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"FeatureKey({self.name!r})"


def keyed(key: FeatureKey[T], phase: Phase, build: Callable[[Host], T]) -> Feature[Host]:
    """The feature `key` names, built in `phase` by `build` (which returns a `T`)."""
    return Feature(key.name, phase, build)


class Composition(Generic[Host]):
    """Builds a window's features phase by phase."""

    def __init__(self, host: Host, features: Sequence[Feature[Host]]) -> None:
        """The features of `host` in build order, none built yet; ValueError when a name repeats
        or a feature comes before one of an earlier phase."""
        names = [feature.name for feature in features]
        if len(set(names)) != len(names):
            raise ValueError(f"a feature is named twice: {names}")
        phases = [feature.phase for feature in features]
        if phases != sorted(phases):
            order = [f"{feature.name}: {feature.phase.name}" for feature in features]
            raise ValueError(f"features out of phase order: {order}")
        self._host = host
        self._features = tuple(features)
        self._built: dict[str, object] = {}
        self._order: list[str] = []  # as built
        self._finished: set[str] = set()
        self.reached: Phase | None = None
        self._reaching = False
        self._closed = False

    @property
    def built(self) -> tuple[str, ...]:
        """The names of the features built, in the order they were."""
        return tuple(self._order)

    def part(self, name: str) -> object | None:
        """What the feature `name` built (None before it is, or for a step)."""
        return self._built.get(name)

    def get(self, key: FeatureKey[T]) -> T:
        """The built feature `key`; LookupError when it is not built yet (a feature asks only
        for those listed before it)."""
        if key.name not in self._finished:
            raise LookupError(f"the window's {key.name} is not built yet")
        return cast(T, self._built[key.name])

    def find(self, key: FeatureKey[T]) -> T | None:
        """What the feature `key` names built, or None while it is not built."""
        return cast(T, self._built[key.name]) if key.name in self._finished else None

    def reach(self, phase: Phase) -> None:
        """Build every feature up to `phase` not built yet, in the list's order; re-entered from a
        builder, it builds nothing itself (the building under way goes on up to `phase`), so
        nothing is built twice or before a feature the list puts first."""
        if phase is Phase.ON_DEMAND:
            raise ValueError("on-demand features are built by demand(name)")
        if self.reached is None or phase > self.reached:
            self.reached = phase
        if self._reaching:
            return
        self._reaching = True
        try:
            for feature in self._features:
                if feature.phase <= self.reached:  # raised by a builder: read each time
                    self._build(feature)
        finally:
            self._reaching = False

    def demand(self, name: str) -> object | None:
        """Build the on-demand feature `name` if it is not yet; what it built."""
        feature = next((f for f in self._features if f.name == name), None)
        if feature is None:
            raise KeyError(name)
        self._build(feature)
        return self._built.get(name)

    def save_ui_state(self) -> None:
        """Let every part built remember its UI state, in the order they were built."""
        for name in self._order:
            _call_if_defined(self._built.get(name), "save_ui_state")

    def shutdown(self) -> None:
        """Stop every part built, the last built first (once); nothing is built after."""
        if self._closed:
            return
        self._closed = True
        for name in reversed(self._order):
            _call_if_defined(self._built.get(name), "shutdown")

    def _build(self, feature: Feature[Host]) -> None:
        if self._closed or feature.name in self._built:
            return
        self._built[feature.name] = None  # building: a re-entrant reach skips it
        self._order.append(feature.name)
        logger.debug("Building the window's %s (%s)", feature.name, feature.phase.name)
        self._built[feature.name] = feature.build(self._host)
        self._finished.add(feature.name)


def _call_if_defined(part: object, method: str) -> None:
    """Call the part's `method` (`save_ui_state`, `shutdown`) if it has one. A lookup, not
    isinstance against a runtime-checkable Protocol: that walks the Protocol's MRO on every
    call, ~27 parts twice per window closed."""
    call = getattr(part, method, None)
    if call is not None:
        call()
