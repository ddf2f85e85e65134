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

bash "$(dirname "$0")/apt-install.sh" chromium chromium-driver fonts-liberation
if [ ! -x "$CHROMIUM" ]; then
  log "apt-get finished but $CHROMIUM is missing"
  exit 1
fi
log "installed $("$CHROMIUM" --version 2>/dev/null)"
