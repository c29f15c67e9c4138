//! MQTT frames in, batches out.
pub mod batcher;
pub mod decoder;
