#!/bin/sh
set -eu
ls -1t /var/backups/lauteet | head -n 1
