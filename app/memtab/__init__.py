"""Memtab: a desktop home for the memories coding agents keep."""

__version__ = "0.1.0"
