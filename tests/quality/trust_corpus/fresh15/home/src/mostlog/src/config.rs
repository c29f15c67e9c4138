//! Compiled-in defaults: sample interval, TX power, thresholds of the sensors' ranges.
pub const SAMPLE_INTERVAL_S: u64 = 60;
