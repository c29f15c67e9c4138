"""One batch of the watcher's changed paths, classified once for every feature of a window."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from memtab.store.home import Home, PathKind, PathPlace

# A change to a container affects everything inside it.
_CONTAINERS: dict[PathKind, tuple[PathKind, ...]] = {
    PathKind.GLOBAL_SCOPE: (PathKind.MEMORY_DIR,),
    PathKind.PROJECT_SCOPE: (PathKind.MEMORY_DIR,),
    PathKind.WORKSPACE_SCOPE: (PathKind.WORKSPACE_DIR,),
    PathKind.SESSION_SCOPE: (PathKind.WORKSPACE_DIR,),
    PathKind.CHAT_TRANSCRIPT: (PathKind.WORKSPACE_DIR,),
    PathKind.WRITER_STATE: (PathKind.WORKSPACE_DIR,),
}
_EVERYTHING = PathPlace(PathKind.HOME)


class ChangeBatch(NamedTuple):
    """The paths of one watcher batch and the place in the home of each (same order)."""

    paths: tuple[str, ...]
    places: tuple[PathPlace, ...]

    @classmethod
    def classify(cls, paths: Iterable[str], home: Home) -> ChangeBatch:
        """Classify every path of a watcher batch against `home` (pure string work)."""
        texts = tuple(map(str, paths))
        return cls(texts, tuple(home.classify(path) for path in texts))

    def items(self) -> Iterator[tuple[str, PathPlace]]:
        """Each path with its place."""
        return zip(self.paths, self.places, strict=True)

    @property
    def kinds(self) -> frozenset[PathKind]:
        """The kinds of place the batch touched."""
        return frozenset(place.kind for place in self.places)

    @property
    def everything(self) -> bool:
        """Whether the home itself is in the batch: anything may have changed (it appeared,
        vanished, or a storm was reported as the home)."""
        return _EVERYTHING in self.places

    def affects(self, kind: PathKind, key: str | None = None) -> bool:
        """Whether the batch may have changed `kind` (for item `key`; None: any); containers count:
        the home affects everything, `memory/` every scope, `sessions/<id>` that workspace's."""
        if self.everything:
            return True
        kinds = (kind, *_CONTAINERS.get(kind, ()))
        return any(
            place.kind in kinds and (key is None or place.key is None or place.key == key)
            for place in self.places
        )

    def keys(self, kind: PathKind) -> frozenset[str]:
        """The explicit item keys (dir names, workspace ids) seen for `kind`."""
        return frozenset(
            place.key for place in self.places if place.kind is kind and place.key is not None
        )
