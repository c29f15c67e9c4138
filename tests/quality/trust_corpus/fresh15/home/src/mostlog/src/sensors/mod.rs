//! One driver per part; errors map into SensorError.
pub mod ds18b20;
pub mod scd41;
pub mod sht40;
