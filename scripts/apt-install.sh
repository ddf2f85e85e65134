#!/usr/bin/env bash
# Install Debian packages as root, or through passwordless sudo; used by the install-*.sh
# scripts. System services the packages bring are not started: the tests run their own.
#
#   bash scripts/apt-install.sh <package>...
set -euo pipefail

log() { printf '[apt-install] %s\n' "$*" >&2; }

# One install at a time (in CI the queue suite runs beside e2e, and both install with apt): the
# whole script holds a lock, and apt-get waits for dpkg's own lock besides.
if [ -z "${LBA_APT_LOCKED:-}" ]; then
  exec env LBA_APT_LOCKED=1 flock "${TMPDIR:-/tmp}/lba-apt-install.lock" bash "$0" "$@"
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo -n"
  else
    log "not root and no sudo: install Debian packages '$*' by hand"
    exit 1
  fi
fi

start=$(date +%s)
log "installing Debian packages $*..."
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d answering 101 keeps invoke-rc.d from starting services during the install.
policy=/usr/sbin/policy-rc.d
added_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
  added_policy=1
fi
trap '[ -n "$added_policy" ] && $sudo rm -f "$policy"' EXIT
$sudo apt-get -o DPkg::Lock::Timeout=600 update
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@"
log "installed in $(( $(date +%s) - start ))s"
