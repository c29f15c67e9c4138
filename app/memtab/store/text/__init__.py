"""A memory file's text: its frontmatter, its content lines, free text capped, and the three-way
line merge.
"""
