"""Text widgets more than one feature uses: the source editor, find bar, margins, diff and
three-way views, and fields' keys."""
