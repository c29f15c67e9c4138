//! criterion benchmark of the frame decoder.
