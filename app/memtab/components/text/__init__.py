"""What a text widget decides, apart from Qt: the find bar's matches, the diff's rows, the
Markdown highlighting's spans, the three-way view's notes, a line margin's lines."""
