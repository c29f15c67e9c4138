"""The editor: the widget (`editor`), one open file loaded, saved and followed on disk
(`tab/`: `file_tab`, `document`, the bar and its questions), its text widgets (`text/`:
`view`, `preview`, `highlighter`, `frontmatter`), its actions (`editor_actions`), an
outside editor (`external`).
"""
