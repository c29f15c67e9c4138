"""docs/formats/memtab-files.md's table of the declared settings (§15.1), made from their one
declaration (`memtab.fs.config.declared`): `scripts/settings-table` prints it,
tests/unit/fs/test_declared_settings.py holds the docs to it."""

from __future__ import annotations

import json

from memtab.check.settings import CheckSettings
from memtab.consolidation.review.review_setting import ConsolidationSettings
from memtab.fs.config.declared import DeclaredSection
from memtab.store.history.prune import HistorySettings
from memtab.writer.config import WriterSettings

SECTIONS: tuple[type[DeclaredSection], ...] = (
    WriterSettings,
    ConsolidationSettings,
    HistorySettings,
    CheckSettings,
)
BEGIN = "<!-- the declared settings: scripts/settings-table writes this table -->"
END = "<!-- end of the declared settings -->"


def table() -> str:
    """One row a setting: its key, default, what it takes and what it does."""
    rows = ["| key | default | takes | what it does |", "| --- | --- | --- | --- |"]
    for section in SECTIONS:
        defaults = section().to_json()
        for field, setting in section.declared():
            default = json.dumps(defaults[setting.name], ensure_ascii=False)
            rows.append(
                f"| `{section.SECTION}.{setting.name}` | `{default}` | "
                f"{setting.expected(field.type)} | {setting.help.replace('|', '/')} |"
            )
    return "\n".join([BEGIN, *rows, END])
