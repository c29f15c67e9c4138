"""What happened while Memtab looked away, recorded after the fact: outside changes, interrupted
runs, the runs log caught up.
"""
