"""A memory file's text: frontmatter, content lines, capped free text, the three-way line merge."""
