"""The Memory tab's own rules, without Qt: the files shown, in order, for Back and Forward
(`visited`), and the workspace picker's rows (`picker_rows`).
"""
