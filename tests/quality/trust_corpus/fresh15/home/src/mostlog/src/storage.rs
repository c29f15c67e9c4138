//! Ring buffer of readings in the last 32K of flash.
