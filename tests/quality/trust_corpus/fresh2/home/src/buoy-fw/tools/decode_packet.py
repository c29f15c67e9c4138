"""Decode a buoy's 11-byte uplink payload (hex) into readings."""

import struct
import sys


def decode(payload: bytes) -> dict[str, float]:
    temp, pressure, wind, gust, battery = struct.unpack(">hHHHH", payload[:10])
    return {"temp": temp / 100, "pressure": pressure / 10, "wind": wind / 100}


if __name__ == "__main__":
    print(decode(bytes.fromhex(sys.argv[1])))
