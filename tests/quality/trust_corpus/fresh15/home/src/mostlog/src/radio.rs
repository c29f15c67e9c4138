//! Non-connectable advertising through the SoftDevice.
