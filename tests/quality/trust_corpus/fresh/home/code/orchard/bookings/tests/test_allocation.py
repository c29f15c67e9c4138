"""Allocation rules."""
