//! Packs one reading into the 14-byte manufacturer data.
pub const PAYLOAD_VERSION: u8 = 2;
