"""The Memory tab's own rules, without Qt: the files shown, in order, for Back and Forward
(`visited`).
"""
