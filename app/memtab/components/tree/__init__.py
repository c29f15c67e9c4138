"""The Memory tab's tree: the home scan it is built from (`scan`), its nodes (`tree`),
what a row says besides its name (`text`), the shown tree reconciled by key
(`reconcile_slices`), and the workspaces the tree can show (`workspace_rows`).
"""
