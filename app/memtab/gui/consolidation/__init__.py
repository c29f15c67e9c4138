"""Consolidation in the Memory tab: the footer (`footer`, `footer_lines`), the review of a
plan (`review_dialog`, opened in steps by `review_opener`) and the engine preloaded once
Consolidate now is pointed at or focused (`lazy`).
"""
