"""Shell commands the offline writer saw in a transcript: what they run, how much they cover, how
they ended."""
