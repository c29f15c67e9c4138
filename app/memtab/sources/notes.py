"""A memory file as a note: its frontmatter fields and its body, and turning it into another
agent's format (Claude Code topic ↔ mux `description:` ↔ Codex skill).

Where the frontmatter is and what it says come from the store's one frontmatter reader
(`memtab.store.frontmatter`), which also reads the keys other agents use (`name`, `type`).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import yaml

from memtab.store.frontmatter import find_frontmatter, frontmatter_strings, title_of

logger = logging.getLogger(__name__)

CLAUDE_TOPIC_TYPES = ("user", "feedback", "project", "reference")


@dataclass(frozen=True)
class Note:
    """What every agent's memory file has in common, whatever its frontmatter looked like."""

    name: str
    description: str
    body: str
    topic_type: str | None = None

    @classmethod
    def from_text(cls, text: str, *, fallback_name: str) -> Note:
        fields = frontmatter_strings(text)
        span = find_frontmatter(text)
        body = text[span.end if span is not None else 0 :]
        topic_type = fields.get("type")
        # Whitespace runs collapsed but never cut: a copy keeps the whole description.
        return cls(
            name=" ".join(fields.get("name", "").split()) or fallback_name,
            description=" ".join(fields.get("description", "").split()),
            body=body.lstrip("\n"),
            topic_type=topic_type if topic_type in CLAUDE_TOPIC_TYPES else None,
        )

    def _body_with_title(self) -> str:
        """The body, led by `# name` unless it already starts with a heading."""
        if self.body.lstrip().startswith("#") or not self.name:
            return self.body
        return f"# {self.name}\n\n{self.body}"

    def as_mux(self) -> str:
        """A mux memory file: only `description:` in the frontmatter (all mux reads)."""
        description = self.description or title_of(self.body) or self.name
        header = f"---\ndescription: {_yaml_string(description)}\n---\n\n" if description else ""
        return header + self._body_with_title()

    def as_claude_topic(self, topic_type: str) -> str:
        """A Claude Code auto-memory topic file (`name`/`description`/`type`)."""
        return (
            "---\n"
            f"name: {_yaml_string(self.name)}\n"
            f"description: {_yaml_string(self.description or self.name)}\n"
            f"type: {topic_type}\n"
            "---\n\n" + self.body
        )

    def as_codex_skill(self) -> str:
        """A Codex skill's SKILL.md (`name` lowercase-hyphenated, `description`)."""
        slug = re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")[:64] or "memory"
        return (
            "---\n"
            f"name: {slug}\n"
            f"description: {_yaml_string(self.description or self.name)}\n"
            "---\n\n" + self._body_with_title()
        )

    def as_plain(self) -> str:
        """Markdown without frontmatter (Claude Code rules, instruction files)."""
        return self._body_with_title()


def _yaml_string(value: str) -> str:
    """`value` as a one-line YAML scalar that reads back as the same string."""
    dumped = yaml.safe_dump(value, allow_unicode=True, width=10_000, default_style=None)
    text = dumped.removesuffix("\n...\n").rstrip("\n")
    if "\n" in text:  # the dumper folded it after all: use a quoted scalar
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text
