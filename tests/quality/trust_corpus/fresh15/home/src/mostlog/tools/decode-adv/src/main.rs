//! Decodes one advertisement's manufacturer data from a hex string.
fn main() {}
