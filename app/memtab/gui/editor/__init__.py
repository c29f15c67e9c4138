"""The editor: the widget (`editor`), one open file loaded, saved and followed on disk
(`tab/`: `file_tab`, the bar and its keys in `bar`), its text widgets (`text/view`: the
source, the preview, the highlighter), its actions (`editor_actions`: an outside editor's
too).
"""
