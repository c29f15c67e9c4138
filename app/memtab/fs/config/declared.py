"""Each setting of settings.json declared once (issue 98): a section is a `DeclaredSection` record,
each field's type and default its value's, its `Setting` marker the rest — its key, the Settings
dialog's label (none: not in the dialog), its help (the control's tooltip, the docs' table), its
bounds or its choices' words. From that one declaration: the reader (a bad value its default, with
a warning naming it), the save (one section under the file's lock), the dialog's controls
(gui/settings/dialog.py, `SectionBox`) and docs/formats/memtab-files.md's table
(`scripts/settings-table`)."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
    settings_path,
)
from memtab.fs.records import Key, Record, RecordError
from memtab.fs.records.codec import Field, Reader

logger = logging.getLogger(__name__)

UNIT_WORDS = {"s": "seconds"}  # a unit as a spin box shows it → as a warning says it


@dataclass(frozen=True, eq=False)
class Setting(Key):
    """One setting's key in its section (`name`), and what is said of it (see the module
    docstring); `within`: its least and most (a number outside is refused); `unset`: what None
    means; `title`: the control's accessible name where it is not its label's words; `row`: its
    place among the dialog's rows where not its declared one (ties: declared order)."""

    name: str
    label: str
    help: str
    within: tuple[float, float] | None = None
    choices: Mapping[str, str] = field(default_factory=dict)
    unit: str = ""
    unset: str = ""
    title: str = ""
    row: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "keeps_accepted", self.within is None)  # else still checked

    @property
    def accessible(self) -> str:
        return self.title or self.label.replace("&", "").rstrip(":")

    def wrap(self, read: Reader) -> Reader:
        if self.within is None:
            return read
        least, most = self.within

        def read_within(value: Any) -> Any:
            result = read(value)
            if result is not None and not least <= result <= most:  # NaN too
                raise RecordError(f"not from {least:g} to {most:g}", value)
            return result

        return read_within

    def expected(self, kind: Any, problem: RecordError | None = None) -> str:
        """What the setting takes, in words (the warning that `problem`'s value was replaced)."""
        if self.choices:
            names = list(self.choices)
            return f"{', '.join(names[:-1])} or {names[-1]}"
        if kind is bool:
            return "true or false"
        if self.within is not None:
            least, most = self.within
            whole = "a whole number" if kind is int else "a number"
            span = f"≥ {least:g}" if math.isinf(most) else f"from {least:g} to {most:g}"
            return f"{whole} {span}{' ' if self.unit else ''}{UNIT_WORDS.get(self.unit, self.unit)}"
        return problem.reason if problem and isinstance(problem.value, str) else "a string"


def declared_settings(record: type[Record]) -> list[tuple[Field, Setting]]:
    """Each field of `record` that a `Setting` declares, with it, in declared order (the dialog's
    and the docs')."""
    return [(f, m) for f in record.fields() for m in f.markers if isinstance(m, Setting)]


class DeclaredSection(Record):
    """One section of settings.json (`SECTION`), each field declared with a `Setting`."""

    SECTION: ClassVar[str]

    @classmethod
    def declared(cls) -> list[tuple[Field, Setting]]:
        """Each field with its `Setting` (`declared_settings`)."""
        return declared_settings(cls)

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None) -> Self:
        """The section as settings.json has it: the default for each setting absent, and for
        each bad one with a warning naming it; all defaults when the file is unusable."""
        path = settings_path(env)
        try:
            raw = load_settings_file(path).get(cls.SECTION)
        except SettingsFileError as error:
            logger.warning("%s; using the default %s settings", error, cls.SECTION)
            return cls()
        return cls.parsed(raw, source=str(path))

    @classmethod
    def parsed(cls, raw: Any, *, source: str = "settings") -> Self:
        """The section `raw` holds, each bad value its default with a warning naming it."""
        section, problems = cls.checked(raw, source=source)
        for problem in problems:
            logger.warning("%s", problem)
        return section

    @classmethod
    def checked(cls, raw: Any, *, source: str = "settings") -> tuple[Self, list[str]]:
        """The section `raw` holds, and one line per value replaced by its default."""
        if raw is None:
            return cls(), []
        if not isinstance(raw, dict):
            return cls(), [f"{source}: '{cls.SECTION}' must be an object; using the defaults"]
        values, lines, declared = dict(raw), [], {f.key: (f, s) for f, s in cls.declared()}
        for problem in cls.read_problems(values):
            key = str(problem.where[0])
            field, setting = declared[key]
            lines.append(
                f"{source}: {cls.SECTION}.{key} = {values.pop(key)!r} is invalid "
                f"({setting.expected(field.type, problem)}); using the default"
            )
        return cls.read_or_raise(values), lines

    def save(self, env: Mapping[str, str] | None = None) -> Path:
        """Store the section, keeping the file's other sections and this one's unknown keys."""
        return save_settings_section(self.SECTION, self.to_json(), env=env)
