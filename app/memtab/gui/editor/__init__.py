"""The editor: the widget (`editor`), the open file loaded, saved and followed on disk
(`document`), its widgets (`view`, `bar`, `preview`, `highlighter`, `frontmatter`), the
bar's questions and diff window (`prompts`), find (`find`), its commands (`commands`), an
outside editor (`external`).
"""
