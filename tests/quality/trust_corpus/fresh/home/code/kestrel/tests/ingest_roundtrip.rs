//! Publishes to a real Mosquitto and reads back from the API.
