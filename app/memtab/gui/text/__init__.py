"""Text widgets more than one feature uses: the source editor, find bar, line margin, diff view."""
