// Scans for probe advertisements and publishes them to Mosquitto and kletboard.
