//! Sensirion SCD41 CO2 sensor, single-shot mode.
