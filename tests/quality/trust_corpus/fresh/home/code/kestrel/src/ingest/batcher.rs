//! Groups decoded readings into batches for insert.
