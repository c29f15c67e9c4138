#!/bin/sh
# writes the hive id and uplink token into the device's /data/hivebox.json
set -eu
