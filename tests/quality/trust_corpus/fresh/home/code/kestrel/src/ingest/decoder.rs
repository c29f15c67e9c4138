//! CBOR frame decoding and the CRC check.
