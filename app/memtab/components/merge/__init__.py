"""A conflict's texts for the three-way view, prepared off the GUI thread (`three_way`)."""
