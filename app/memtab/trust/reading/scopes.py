"""Where a statement holds: the environment it names (production, staging, CI) and
whether in a container or on the machine itself — two values of one thing said for two
of these are no contradiction ("Staging API on 3001" / "Prod API on 3000", "Postgres
(docker) on 5433" / "the system Postgres on 5432").

A statement naming no environment holds where its memory's readers work (their machine:
"local", "dev" and "my" say nothing more), one saying "locally" beside an environment in
both; one saying "every environment" holds in each.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memtab.trust.words import stems_of

ENVIRONMENTS = {
    "product": "production", "stage": "staging", "ci": "CI",
    "qa": "QA", "uat": "QA", "sandbox": "sandbox",
}  # fmt: skip
"""An environment's stems, as one name ("prod" and "production": `trust.words`' stems)."""
CONTAINED = {"compos": "container", "docker": "container", "contain": "container",
             "podman": "container", "system": "machine",
             "bare": "machine", "baremet": "machine"}  # fmt: skip
"""Where on a machine: in a container, or on the machine itself."""
_EVERYWHERE = re.compile(
    r"\b(?:every|all|each)\s+(?:environments?|envs?|stages?)\b|\beverywhere\b", re.IGNORECASE
)
HEDGED = (
    r"was|were|used to|no longer|anymore|previously|formerly|until|or|either|maybe|perhaps|"
    r"probably|might|e\.g|for example|such as|usually|typically|sometimes|unless|if|whether|"
    r"depending|will|would|could"
)
"""Words of a clause that says what was, what may be or will be, or what holds only at
times: the readers read no value from it (each adds its own)."""
SCOPE_STEMS = frozenset({*ENVIRONMENTS, *CONTAINED, "local", "dev", "develop", "laptop", "my"})
"""Stems that say where a statement holds, not what it is about."""
LOCAL = "local"
"""The readers' own machine, as an environment ("Postgres 16 locally and in prod")."""


class Scope(NamedTuple):
    environments: frozenset[str]
    """The environments named (empty: the readers' own machine)."""
    place: str
    """"container", "machine" or "" (not said)."""
    everywhere: bool


def scope_of(text: str) -> Scope:
    """Where `text` says it holds (see the module doc)."""
    stems = set(stems_of(text))
    environments = frozenset(ENVIRONMENTS[s] for s in stems if s in ENVIRONMENTS)
    if environments and stems & {"local", "laptop"}:
        environments |= {LOCAL}
    places = {CONTAINED[s] for s in stems if s in CONTAINED}
    place = places.pop() if len(places) == 1 else ""
    return Scope(environments, place, _EVERYWHERE.search(text) is not None)


def pack(scope: Scope) -> str:
    """A scope as a claim's key keeps it."""
    return (
        ",".join(sorted(scope.environments))
        + "/"
        + scope.place
        + ("/*" if scope.everywhere else "")
    )


def unpack(packed: str) -> Scope:
    environments, _, rest = packed.partition("/")
    place, _, everywhere = rest.partition("/")
    return Scope(frozenset(filter(None, environments.split(","))), place, everywhere == "*")


def same_place(one: Scope, other: Scope) -> bool:
    """Whether two statements hold in one place: an environment of both (or one says every
    one; none named is the readers' machine), and not one in a container and the other on
    the machine itself."""
    if one.place and other.place and one.place != other.place:
        return False
    if one.everywhere or other.everywhere:
        return True
    return bool((one.environments or {LOCAL}) & (other.environments or {LOCAL}))


def placed(scope: Scope, owner: str) -> Scope:
    """Where a statement holds, its owner's environment where it names none itself."""
    if scope.environments or scope.everywhere or not owner:
        return scope
    under = scope_of(owner)
    return scope._replace(environments=under.environments, everywhere=under.everywhere)
