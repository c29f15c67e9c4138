"""The Memory tab's tree: the home scan (`scan`), its nodes (`tree`), a row's words (`text`), the
shown tree reconciled by key (`reconcile_slices`), the workspaces it can show (`workspace_rows`)."""
