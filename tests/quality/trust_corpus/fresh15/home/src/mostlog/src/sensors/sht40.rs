//! Sensirion SHT40 air temperature and humidity.
