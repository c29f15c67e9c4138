"""The Memory tab's tree: its model (`model`, `reconcile`), view (`view`), when to
rescan (`scan_scheduler`) and the tree kept in step with the editor (`editor_link`).
"""
