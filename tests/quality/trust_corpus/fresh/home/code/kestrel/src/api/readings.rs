//! GET /readings with keyset pagination on (device_id, ts).
