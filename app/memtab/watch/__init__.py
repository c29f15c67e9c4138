"""The recorder that keeps history while no window runs: `memtab watch` (no Qt)."""
