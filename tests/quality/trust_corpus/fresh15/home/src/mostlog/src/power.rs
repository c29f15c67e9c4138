//! Battery voltage through SAADC and the GPIO that powers the DS18B20.
