"""Which free plot goes to whom."""
