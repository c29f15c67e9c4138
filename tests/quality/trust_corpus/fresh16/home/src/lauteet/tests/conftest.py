"""Fixtures: a rolled-back transaction per test, the Paytrail fake."""
