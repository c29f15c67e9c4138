"""What happened while Memtab looked away, recorded after the fact."""
