"""A memory that states a fact its checkout's README now states otherwise: "the README now
says the API runs on port 8081" (docs/formats.md §19.3, `code-disagrees`).

The README is the checkout's own word on how to run it: `README.md` (or `README`,
`readme.md`) at its root, read as the facts rule reads a memory (`rules.facts`: a port, a
version of a well-known product, a setting in code, each stated plainly — a hedged or
two-valued line states none). A memory's fact about the same thing with another value
is a finding on its line; a fact the README states twice with two values says nothing
(the README does not agree with itself). Precision over recall, as the facts rule: a
README that does not state the thing leaves the memory alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memtab.check.checkout import Checkout
from memtab.check.markdown import scan_markdown
from memtab.check.rules.facts import Fact, disagree, facts_of, what
from memtab.fs.user_files import read_regular_file

READMES = ("README.md", "README", "readme.md", "Readme.md")
MAX_README_BYTES = 512 * 1024


@dataclass(frozen=True)
class CodeFacts:
    """What a README states, by (kind, key): the value and the line (None when it
    states two values: nothing said)."""

    path: str
    facts: dict[tuple[str, str], Fact | None]


@dataclass(frozen=True)
class CodeDisagrees:
    """A memory's fact the README states otherwise."""

    fact: Fact
    said: Fact
    readme: str

    @property
    def message(self) -> str:
        return (
            f"The {self.readme} now says {what(self.said)} is {self.said.value} "
            f"({self.readme}:{self.said.line}); this says {self.fact.value}"
        )


def _read_facts(path: Path) -> CodeFacts:
    try:
        raw = read_regular_file(path, limit=MAX_README_BYTES, truncate=True)
    except OSError:
        return CodeFacts(path.name, {})
    found: dict[tuple[str, str], Fact | None] = {}
    for fact in facts_of(scan_markdown(raw.decode("utf-8", "replace"))):
        slot = (fact.kind, fact.key)
        if slot in found:
            known = found[slot]
            if known is not None and known.value != fact.value:
                found[slot] = None
            continue
        found[slot] = fact
    return CodeFacts(path.name, found)


def readme_facts(checkout: Checkout) -> CodeFacts | None:
    """The facts the checkout's README states (None: it has none), read again only when
    it changed."""
    for name in READMES:
        if checkout.indexed_file(name):
            found = checkout.read(name, _read_facts)
            assert isinstance(found, CodeFacts)
            return found
    return None


def code_disagreements(facts: Iterable[Fact], checkout: Checkout) -> list[CodeDisagrees]:
    """The facts of a memory that its checkout's README states otherwise."""
    stated = readme_facts(checkout)
    if stated is None or not stated.facts:
        return []
    found = []
    for fact in facts:
        said = stated.facts.get((fact.kind, fact.key))
        if said is not None and disagree(fact, said):
            found.append(CodeDisagrees(fact, said, stated.path))
    return found
