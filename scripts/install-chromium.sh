#!/usr/bin/env bash
# Install Debian's Chromium (driven by playwright-core in the browser e2e) when it is
# missing. `npx playwright install` cannot download browsers here; Debian's can.
#
#   bash scripts/install-chromium.sh      # no-op if /usr/bin/chromium exists
#
# Needs root (CI runs as root) or passwordless sudo.
set -euo pipefail

CHROMIUM="${LBA_CHROMIUM:-/usr/bin/chromium}"
log() { printf '[install-chromium] %s\n' "$*" >&2; }

if [ -x "$CHROMIUM" ]; then
  log "found $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo -n"
  else
    log "not root and no sudo: install Debian packages 'chromium chromium-driver' by hand"
    exit 1
  fi
fi

start=$(date +%s)
log "installing Debian packages chromium chromium-driver..."
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends chromium chromium-driver fonts-liberation
if [ ! -x "$CHROMIUM" ]; then
  log "apt-get finished but $CHROMIUM is missing"
  exit 1
fi
log "installed $("$CHROMIUM" --version 2>/dev/null) in $(( $(date +%s) - start ))s"
