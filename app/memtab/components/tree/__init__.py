"""The Memory tab's tree: the home scan it is built from (`scan`), its nodes (`tree`) and
what a row says besides its name (`text`).
"""
