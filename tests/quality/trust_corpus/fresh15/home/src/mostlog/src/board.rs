//! Pins and peripherals of the probe board.
