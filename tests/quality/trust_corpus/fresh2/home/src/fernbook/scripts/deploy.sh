#!/bin/sh
set -eu
podman build -t fernbook .
ssh -p 2222 ines@vps.okafor.dev 'systemctl --user restart fernbook-worker@1 fernbook-worker@2'
