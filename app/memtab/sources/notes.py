"""A memory file as a note (frontmatter fields and body, by the store's one reader), turned into
another agent's format (Claude Code topic ↔ mux `description:` ↔ Codex skill)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memtab.markdown import heading, text_lines
from memtab.store.text.frontmatter import (
    find_frontmatter,
    frontmatter_strings,
    title_of,
    yaml_scalar,
)

_NOT_A_SLUG_CHAR = re.compile(r"[^a-z0-9]+")

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
        first = next((line for line in text_lines(self.body) if line.strip()), "")
        if heading(first) is not None or not self.name:
            return self.body
        return f"# {self.name}\n\n{self.body}"

    def as_mux(self) -> str:
        """A mux memory file: only `description:` in the frontmatter (all mux reads)."""
        description = self.description or title_of(self.body) or self.name
        header = f"---\ndescription: {yaml_scalar(description)}\n---\n\n" if description else ""
        return header + self._body_with_title()

    def as_claude_topic(self, topic_type: str) -> str:
        """A Claude Code auto-memory topic file (`name`/`description`/`type`)."""
        return (
            "---\n"
            f"name: {yaml_scalar(self.name)}\n"
            f"description: {yaml_scalar(self.description or self.name)}\n"
            f"type: {topic_type}\n"
            "---\n\n" + self.body
        )

    def as_codex_skill(self) -> str:
        """A Codex skill's SKILL.md (`name` lowercase-hyphenated, `description`)."""
        slug = _NOT_A_SLUG_CHAR.sub("-", self.name.lower()).strip("-")[:64] or "memory"
        return (
            "---\n"
            f"name: {slug}\n"
            f"description: {yaml_scalar(self.description or self.name)}\n"
            "---\n\n" + self._body_with_title()
        )

    def as_plain(self) -> str:
        """Markdown without frontmatter (Claude Code rules, instruction files)."""
        return self._body_with_title()
