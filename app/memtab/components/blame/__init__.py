"""Blame in the editor, without Qt: what the gutter shows beside each line, and its card."""
