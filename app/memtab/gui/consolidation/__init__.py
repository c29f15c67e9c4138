"""Consolidation in the Memory tab: the footer (`footer`: its lines, and the review's opener
that opens it in steps), the review of a plan (`review_dialog`) and the runs in their own
process (`tasks`: the engine loaded once Consolidate now is pointed at or focused).
"""
