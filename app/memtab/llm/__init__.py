"""Model providers over httpx2 and the tool loop. Imports nothing else of Memtab, no Qt."""
