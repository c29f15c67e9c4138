// PNG decoder
pub const max_dimension: u32 = 16384;
