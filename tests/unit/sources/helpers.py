"""What the sources tests share."""

from __future__ import annotations

from memtab.sources.discovery import discover
from memtab.sources.listing import source_file
from memtab.sources.model import Source, SourceFile
from support.agent_machine import Machine


def file_in(machine: Machine, prefix: str, relative: str) -> tuple[Source, SourceFile]:
    """The file `relative` of the first source whose id starts with `prefix`."""
    source = next(s for s in discover(machine.context()).sources if s.id.startswith(prefix))
    file = source_file(source, relative)
    assert file is not None, relative
    return source, file
