"""Each setting declared once (issue 98, `fs/config/declared.py`): the reader, the save and the
docs' table come from the one declaration, and every declared setting's bad value is its default
with a warning naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.fs.config.declared import DeclaredSection
from support.logfail import ExpectLog
from support.settings_table import BEGIN, END, SECTIONS, table

DOCS = Path(__file__).resolve().parents[3] / "docs" / "formats" / "memtab-files.md"
DECLARED = [(section, setting.name) for section in SECTIONS for _, setting in section.declared()]


def test_the_docs_table_is_made_from_the_declaration() -> None:
    text = DOCS.read_text(encoding="utf-8")
    shown = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert shown == table(), "run scripts/settings-table --write"
    assert {s.SECTION for s in DeclaredSection.__subclasses__()} <= {s.SECTION for s in SECTIONS}


@pytest.mark.parametrize(
    ("section", "key"), DECLARED, ids=[f"{s.SECTION}.{k}" for s, k in DECLARED]
)
def test_a_bad_value_is_its_default_with_a_warning_naming_it(
    tmp_path: Path, section: type[DeclaredSection], key: str, expect_log: ExpectLog
) -> None:
    expect_log(
        "memtab.fs.config.declared",
        "WARNING",
        rf"settings\.json: {section.SECTION}\.{key} = \[\[\]\] is invalid \(.+\); using the",
    )
    (tmp_path / "settings.json").write_text(json.dumps({section.SECTION: {key: [[]]}}))
    assert section.load({"MEMTAB_CONFIG_DIR": str(tmp_path)}) == section()


def test_a_save_keeps_the_sections_unknown_keys_and_the_files_other_sections(
    tmp_path: Path,
) -> None:
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path)}
    (tmp_path / "settings.json").write_text(json.dumps({"theme": 1, "check": {"later": 2}}))
    written = [section().save(env) for section in SECTIONS][-1]
    stored = json.loads(written.read_text(encoding="utf-8"))
    assert stored["theme"] == 1 and stored["check"] == {"later": 2, "stale_days": 90}
    assert all(section.load(env) == section() for section in SECTIONS)
    assert written.stat().st_mode & 0o777 == 0o600
