// Hundredths of a degree to °C; millivolts to a battery level.
