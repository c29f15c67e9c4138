pub const png = @import("png/decoder.zig");
pub const qoi = @import("qoi.zig");
