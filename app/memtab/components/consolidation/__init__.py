"""Consolidation in the window, without Qt: Consolidate now's run states (`run_states`)."""
