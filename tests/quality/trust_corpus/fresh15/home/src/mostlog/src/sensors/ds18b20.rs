//! 1-Wire temperature probe in the thermowell.
